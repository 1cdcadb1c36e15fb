import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    // examples/*.test.ts are runnable examples (the README's vitest example): they run with the suite.
    include: ['test/**/*.test.ts', 'examples/**/*.test.ts'],
    pool: 'threads',
    // Closes the SQLite stores of a test file (DOCS_TEST_STORE=sqlite: see test/test-storage.ts).
    setupFiles: ['test/setup-storage.ts'],
    testTimeout: 20_000,
  },
})
