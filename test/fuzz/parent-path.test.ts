import fc from 'fast-check'
import { expect } from 'vitest'
import { params, timeout } from './config.js'
import type { OperationDef } from '../../src/index.js'
import { HOSTILE_STRINGS, UNKNOWN_IDS } from './hostile.js'
import { checkRequest } from './invariants.js'
import { test, testName } from './known-findings.js'
import { matrixRequest } from './matrix-requests.js'
import { parentParams } from './policy.js'
import { describe as describeRequest } from './requests.js'
import { MEMBER_CALLERS, type MemberCaller } from './callers.js'
import { createFuzzWorld } from './world.js'

/**
 * A hidden or unknown parent in the path is a 404 for every method, whoever asks: a parent is any
 * path parameter before the addressed resource that names a resource with a level (an
 * organization, space, collection, site or team). Replacing one parent of a valid matrix request
 * with an id nobody can see (unknown, a foreign organization's, a trashed space, a string that is
 * no id) must give 404, even on an idempotent delete: its 204 is for the addressed resource alone.
 */
const reference = await createFuzzWorld()

const withParents = reference.api.operations.flatMap((op) => {
  const parents = parentParams(op)
  return op.permission && parents.length ? [[op.id, op, parents] as const] : []
})

/** One case: the matrix request of `caller` with `parent` replaced by `hiddenId`; the answer must be 404. */
async function expectHidden(op: OperationDef, caller: MemberCaller, parent: string, hiddenId: string): Promise<void> {
  const world = await createFuzzWorld()
  const req = matrixRequest(op, world, caller, 'private')
  req.params[parent] = hiddenId
  const answer = await checkRequest(world, op, req)
  expect(answer.status, `a hidden ${parent} must be a 404\n${describeRequest(req, op, answer)}`).toBe(404)
}

for (const [id, op, parents] of withParents) {
  test(
    testName.parent(id),
    async () => {
      // Every caller, every parent, every hidden id of its kind: few enough to try them all.
      for (const caller of MEMBER_CALLERS) {
        for (const parent of parents) for (const hiddenId of [...(reference.hidden[parent] ?? []), 'id999999']) await expectHidden(op, caller, parent, hiddenId)
      }
      // Then strings that are not ids at all.
      const input = fc.tuple(
        fc.constantFrom(...MEMBER_CALLERS),
        fc.constantFrom(...parents),
        fc.constantFrom(...UNKNOWN_IDS, ...HOSTILE_STRINGS.filter(Boolean)),
      )
      await fc.assert(
        fc.asyncProperty(input, ([caller, parent, hiddenId]) => expectHidden(op, caller, parent, hiddenId)),
        params('parent', id),
      )
    },
    timeout('parent'),
  )
}
