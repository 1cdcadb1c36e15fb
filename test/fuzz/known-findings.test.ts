import { expect, it } from 'vitest'
import { createDocsApi } from '../../src/index.js'
import { CALLERS } from './callers.js'
import { KNOWN_FINDINGS, testName } from './known-findings.js'
import { parentParams, variantsOf } from './policy.js'

// An entry whose test was renamed or removed would silently expect nothing: every key must name a test.
it('every KNOWN_FINDINGS entry names a fuzz test', () => {
  const names = new Set<string>()
  for (const op of createDocsApi().operations) {
    names.add(testName.inputs(op.id, 'valid')).add(testName.inputs(op.id, 'hostile'))
    for (const variant of variantsOf(op)) for (const caller of CALLERS) names.add(testName.matrix(op.id, caller, variant))
    if (op.permission && parentParams(op).length) names.add(testName.parent(op.id))
  }
  expect(Object.keys(KNOWN_FINDINGS).filter((key) => !names.has(key))).toEqual([])
})
