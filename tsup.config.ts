import { defineConfig } from 'tsup'

export default defineConfig({
  entry: { index: 'src/index.ts', fetch: 'src/fetch.ts', testing: 'src/testing.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  platform: 'neutral',
  // Dependencies stay external: the consumer's bundler resolves them.
  external: ['zod', 'immer', 'nanoid', 'date-fns'],
})
