import fc from 'fast-check'
import { expect, it } from 'vitest'
import { params, timeout } from './config.js'
import { plausibleRequest, validRequest } from './generators.js'
import { expectCountersMatchRows } from './recount.js'
import { describe as describeRequest, send } from './requests.js'
import type { Caller } from './callers.js'
import { createFuzzWorld, type FuzzWorld } from './world.js'

/**
 * 1,000 writes at once (`Promise.all` through `api.fetch`): creates, moves, deletes, grants,
 * team and member changes, site structure... drawn from every non-GET operation of the table,
 * mostly as the admin and the editor. Every answer is a non-5xx in the API's shapes, and then
 * every counter the API shows equals a recount from the rows (recount.ts).
 */
const BATCH = 1000
const reference = await createFuzzWorld()
// Operations that write: not the GETs, nor the POSTs that only read (`readOnly`).
const writes = reference.api.operations.filter((op) => op.method !== 'GET' && !op.readOnly)

// Ids the batch's own creations will get (ids are sequential), so later writes can hit them.
const future = Array.from({ length: 80 }, (_, i) => `id${reference.idCount() + 1 + i}`)
const generation: FuzzWorld = { ...reference, candidates: Object.fromEntries(Object.entries(reference.candidates).map(([k, ids]) => [k, [...ids, ...future]])) }

// Mostly the admin and editors (whose writes land), and a few callers whose writes are refused.
const CALLER_WEIGHTS: Array<[Caller, number]> = [
  ['admin', 6],
  ['edit', 2],
  ['create', 1],
  ['read', 1],
  ['guest', 1],
]
// One arbitrary per operation and caller, built once: building one walks the schemas.
const write = fc.oneof(
  ...writes.flatMap((op) =>
    CALLER_WEIGHTS.flatMap(([caller, weight]) => [
      { weight: weight * 3, arbitrary: plausibleRequest(op, generation, caller).map((req) => ({ op, req })) },
      { weight, arbitrary: validRequest(op, generation).map((req) => ({ op, req: { ...req, caller } })) },
    ]),
  ),
)

it(
  '1,000 concurrent mixed writes keep every counter equal to a recount from the rows',
  async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(write, { minLength: BATCH, maxLength: BATCH }), async (batch) => {
        const world = await createFuzzWorld()
        const answers = await Promise.all(batch.map(({ op, req }) => send(world, req, op)))
        answers.forEach((answer, i) => {
          const { op, req } = batch[i]!
          const where = describeRequest(req, op, answer)
          expect(answer.status, where).toBeLessThan(500)
          if (answer.status >= 300) expect(answer.json, where).toEqual({ error: { code: answer.status, message: expect.any(String) } })
        })
        // Enough of the batch must have landed for the recount to mean something.
        expect(answers.filter((a) => a.status < 300).length).toBeGreaterThan(BATCH / 10)
        await expectCountersMatchRows(world, [world.orgs.main, world.orgs.sister])
      }),
      params('concurrency', 'concurrency'),
    )
  },
  timeout('concurrency') * 10,
)
