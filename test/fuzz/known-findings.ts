import { it } from 'vitest'

/**
 * Findings reported and not yet fixed in src: each test named here is expected to fail (it runs
 * as `it.fails`), so the suite is green while the finding stands and turns red once it is fixed,
 * which is the signal to delete the entry. Keys are test names; each value says why.
 */
export const KNOWN_FINDINGS: Record<string, string> = {
  // The eight findings of the first runs (grants of public spaces, hidden and unknown parents,
  // trashed spaces, lone surrogates in URL parts) are fixed, each with its test.
  'inputs updateOrganizationAgentInstructions valid': 'the same JSON document validation gap as below (instructions are a JSON document)',
  'inputs updateChangeRequestById valid':
    'a JSON document is checked for its envelope and top-level block types only: a block missing what its official type requires (a paragraph without `nodes`, say) is stored and answered, and the answer fails the official schema. Fix: validate documents per block type (issue 8 follow-up)',
  // The same finding through a comment body (comments/schemas.ts takes JsonDocumentSchema as it is,
  // so per-block validation there fixes both; other comment operations can meet it with other seeds).
  'inputs postCommentReplyInSpace valid':
    'a comment or reply body `{document}` is checked as JsonDocumentSchema checks it (envelope and top-level block types): a paragraph without `nodes` is stored and answered, and the answer fails the official Document schema. Fix: the per-block-type validation of JsonDocumentSchema (issue 8 follow-up)',
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
