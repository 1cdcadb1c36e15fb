import fc from 'fast-check'
import { describe } from 'vitest'
import { params, timeout } from './config.js'
import { hostileRequest, validRequest } from './generators.js'
import { checkRequest } from './invariants.js'
import { test, testName } from './known-findings.js'
import { REGRESSIONS } from './regressions.js'
import type { FuzzRequest } from './requests.js'
import { createFuzzWorld } from './world.js'

/**
 * Every operation of the table, with valid and with hostile inputs, as every kind of caller:
 * never a 5xx, errors in the one error shape, failed requests leave the store alone, successes
 * match the official schemas (see checkRequest). Each run gets a fresh world. A new operation is
 * covered without a new test.
 */
const reference = await createFuzzWorld()

describe.each(reference.api.operations.map((op) => [op.id, op] as const))('%s', (id, op) => {
  test(
    testName.inputs(id, 'valid'),
    async () => {
      const examples = (REGRESSIONS[id] ?? []).map((example): [FuzzRequest] => [example(reference)])
      await fc.assert(
        fc.asyncProperty(validRequest(op, reference), async (req) => void (await checkRequest(await createFuzzWorld(), op, req))),
        { ...params('valid', id), examples },
      )
    },
    timeout('valid'),
  )

  test(
    testName.inputs(id, 'hostile'),
    async () => {
      await fc.assert(
        fc.asyncProperty(hostileRequest(op, reference), async (req) => void (await checkRequest(await createFuzzWorld(), op, req))),
        params('hostile', id),
      )
    },
    timeout('hostile'),
  )
})
