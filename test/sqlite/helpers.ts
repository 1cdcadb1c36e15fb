import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll } from 'vitest'

/** A scratch directory for this test file, removed after its tests. */
export function scratchDir(name = 'sqlite-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), name))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}
