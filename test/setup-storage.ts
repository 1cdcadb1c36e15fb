// A setup file of every test file (vitest.config.ts): the SQLite stores a file's tests opened
// (DOCS_TEST_STORE=sqlite, test/test-storage.ts) are closed and removed after its tests.
import { afterAll } from 'vitest'
import { closeTestStorage } from './test-storage.js'

afterAll(() => closeTestStorage())
