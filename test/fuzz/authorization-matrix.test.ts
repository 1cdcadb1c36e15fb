import { describe, expect } from 'vitest'
import { CALLERS } from './callers.js'
import { createFuzzWorld } from './world.js'
import { checkRequest } from './invariants.js'
import { test, testName } from './known-findings.js'
import { matrixRequest } from './matrix-requests.js'
import { expectedAnswer, variantsOf } from './policy.js'
import { describe as describeRequest } from './requests.js'

/**
 * Every operation × every caller (no token, a bad token, outsider, guest, read ... admin) on a
 * fresh world, with a request an authorized caller succeeds with: the answer is what the policy
 * table and the role lattice say (policy.ts), and every answer also passes checkRequest (error
 * shape, store untouched by a failure, official schema on success).
 */
const reference = await createFuzzWorld()

describe.each(reference.api.operations.map((op) => [op.id, op] as const))('%s', (id, op) => {
  for (const variant of variantsOf(op)) {
    for (const caller of CALLERS) {
      test(testName.matrix(id, caller, variant), async () => {
        const world = await createFuzzWorld()
        const req = matrixRequest(op, world, caller, variant)
        const answer = await checkRequest(world, op, req)
        const expected = expectedAnswer(op, caller, variant)
        expect(expected.status, `expected ${expected.status.join(' or ')} (${expected.rule})\n${describeRequest(req, op, answer)}`).toContain(answer.status)
      })
    }
  }
})
