/**
 * The Node flags `docs-content-api serve` runs with: the built command's first line
 * (`#!/usr/bin/env -S node …`, tsup.config.ts), `npm start` and the stall bench pass them.
 *
 * `--max-semi-space-size=4`: a young generation of 4 MiB per semi-space (V8's default on 64-bit:
 * 16). A scavenge copies what survives in it, and the rows a large request builds (a 13 MB
 * content batch: its pages' documents) do survive: at 16 MiB, one scavenge held the event loop
 * for about as long as a request may; at 4, for much less, for more scavenges of the same total
 * work (bench/README.md has the figures). V8 reads the size when the process starts only, hence
 * a flag.
 */
export const SERVE_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=4']
