import { it } from 'vitest'

/**
 * Findings reported and not yet fixed in src: each test named here is expected to fail (it runs
 * as `it.fails`), so the suite is green while the finding stands and turns red once it is fixed,
 * which is the signal to delete the entry. Keys are test names; each value says why.
 */
export const KNOWN_FINDINGS: Record<string, string> = {
  // The eight findings of the first runs (grants of public spaces, hidden and unknown parents,
  // trashed spaces, lone surrogates in URL parts) are fixed, each with its test; so is the ninth
  // (JSON documents checked for their envelope only, found through change request descriptions
  // and organization agent instructions and comment bodies), see test/domains/content/document-schema.test.ts.
}

/** The names of the fuzz tests, the keys of KNOWN_FINDINGS. */
export const testName = {
  inputs: (id: string, kind: 'valid' | 'hostile') => `inputs ${id} ${kind}`,
  matrix: (id: string, caller: string, variant: 'private' | 'public') => `matrix ${id} ${caller}${variant === 'public' ? ' (public space)' : ''}`,
  parent: (id: string) => `parent ${id}`,
}

/** `it`, or `it.fails` for a test listed in KNOWN_FINDINGS. */
export function test(name: string, fn: () => Promise<void> | void, timeout?: number): void {
  ;(name in KNOWN_FINDINGS ? it.fails : it)(name, fn, timeout)
}
