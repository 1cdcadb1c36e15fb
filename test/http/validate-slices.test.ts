import { describe, expect, it } from 'vitest'
import { createSlicer } from '../../src/core/slices.js'
import { ContentUpdateSchema } from '../../src/domains/change-requests/schemas.js'
import { validate } from '../../src/http/codec.js'
import { validateInSlices } from '../../src/http/validate-slices.js'
import { operations } from '../../src/domains/index.js'
import { longestStall } from '../stall.js'

const paragraph = (text: string) => ({
  object: 'block',
  type: 'paragraph',
  data: {},
  nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }],
})
const page = (n: number) => ({
  operation: 'insert_page',
  title: `P${n}`,
  document: { document: { object: 'document', data: {}, nodes: Array.from({ length: 50 }, (_, i) => paragraph(`line ${i}`)) } },
})

/** What `validate` answers, or the message of its 400. */
const outcome = async (run: () => unknown) => {
  try {
    return { ok: await run() }
  } catch (error) {
    return { error: (error as Error).message }
  }
}

describe('validateInSlices', () => {
  it('answers what validate answers, for valid and invalid bodies of every operation with a list in its body', async () => {
    const bodies: unknown[] = [
      { changes: [page(1), page(2), page(3)] },
      { changes: [page(1), { operation: 'insert_page', title: 5 }, page(3), { operation: 'nope' }] },
      { changes: [page(1), page(2)], extra: true },
      { changes: Array.from({ length: 51 }, (_, i) => page(i)) },
      { changes: [page(1), { ...page(2), document: { document: { object: 'document', nodes: [{ object: 'block', type: 'paragraph' }] } } }] },
    ]
    for (const body of bodies) {
      expect(await outcome(() => validateInSlices(ContentUpdateSchema, body, 'body field', createSlicer(0)))).toEqual(
        await outcome(() => validate(ContentUpdateSchema, body, 'body field')),
      )
    }
    // Every body schema of the table: a list field of two items, each a wrong type, named as validate names it.
    for (const op of operations) {
      if (!op.body) continue
      const shape = (op.body as unknown as { shape?: Record<string, unknown> }).shape ?? {}
      for (const key of Object.keys(shape)) {
        const body = { [key]: [12, 'x'] }
        expect(await outcome(() => validateInSlices(op.body!, body, 'body field', createSlicer(0))), `${op.id} ${key}`).toEqual(
          await outcome(() => validate(op.body, body, 'body field')),
        )
      }
    }
  })

  it('leaves the event loop turning while a batch of large documents is validated', async () => {
    const big = (n: number, blocks: number) => ({
      operation: 'insert_page',
      title: `Big ${n}`,
      document: { document: { object: 'document', data: {}, nodes: Array.from({ length: blocks }, (_, i) => paragraph(`line ${n}.${i}`)) } },
    })
    // Both ways once on a small body first: the first runs of a code path are slower (the JIT).
    const warm = { changes: [big(0, 10), big(1, 10)] }
    validate(ContentUpdateSchema, warm, 'body field')
    await validateInSlices(ContentUpdateSchema, warm, 'body field', createSlicer())
    const body = { changes: Array.from({ length: 48 }, (_, n) => big(n, 3000)) }
    const whole = await longestStall(async () => validate(ContentUpdateSchema, body, 'body field'))
    const sliced = await longestStall(() => validateInSlices(ContentUpdateSchema, body, 'body field', createSlicer()))
    expect(sliced.result).toEqual(whole.result)
    expect(sliced.stall).toBeLessThan(whole.stall / 3)
  })
})
