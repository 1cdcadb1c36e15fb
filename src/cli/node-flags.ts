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
 *
 * `--heap-growing-percent=50`: the old generation is collected once it has grown by half of what
 * survived the last full collection. V8's own factor, up to 4 on a fast-allocating process, let a
 * served API under a load of large answers (lists of 100 spaces) reach 190 MB from 55 MB live in
 * some runs before collecting; at 1.5 the peak stays near 110 MB (bench/README.md, (y3)), for more
 * full collections, each concurrent and incremental: the served list spent less CPU per request.
 */
export const SERVE_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=4', '--heap-growing-percent=50']
