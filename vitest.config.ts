import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    // examples/*.test.ts are runnable examples (the README's vitest example): they run with the suite.
    include: ['test/**/*.test.ts', 'examples/**/*.test.ts'],
    pool: 'threads',
    testTimeout: 20_000,
  },
})
