import { describe, expect, it } from 'vitest'
import type { OperationDef } from '../../src/index.js'
import { BASE, createWorld, type World } from '../helpers.js'

/**
 * Bodies built to cost: nested 20,000 levels deep, strings of 100 KB made of what a regex
 * backtracks on, objects of 20,000 keys, lists of 20,000 values of the wrong type. Sent to every
 * operation that takes a body, by a signed-in caller of no organization (what runs before
 * authorization is what anyone reaches): each is a 4xx, never a 500, and costs no more than an
 * ordinary body of the same size times a margin (measured here, against each other: never an
 * absolute time). Before the fixes, a deep body was a 500 (the journal's redaction and zod recurse
 * once per level), a 100 KB word took seconds to be refused (the redaction's regex was quadratic),
 * and a list of 500,000 wrong values took seconds (zod made an issue of each).
 */

/** The schema under optional/default/pipe wrappers. */
function unwrap(schema: unknown): { type: string; shape?: Record<string, unknown>; options?: unknown[]; element?: unknown } {
  let def = (schema as { _zod: { def: Record<string, any> } })._zod.def
  for (;;) {
    if (['optional', 'default', 'prefault', 'nullable', 'readonly', 'nonoptional', 'catch'].includes(def.type)) def = def.innerType._zod.def
    else if (def.type === 'pipe') def = (def.in._zod.def.type === 'transform' ? def.out : def.in)._zod.def
    else if (def.type === 'lazy') def = def.getter()._zod.def
    else return def as never
  }
}

/** The top-level keys a body schema names, with whether each is a list. */
function topFields(op: OperationDef): Array<{ key: string; list: boolean }> {
  const def = unwrap(op.body)
  const shapes = def.type === 'object' ? [def.shape!] : def.type === 'union' ? def.options!.map((o) => unwrap(o).shape ?? {}) : []
  const fields = new Map<string, boolean>()
  for (const shape of shapes) for (const [key, field] of Object.entries(shape)) fields.set(key, unwrap(field).type === 'array')
  return fields.size ? [...fields].map(([key, list]) => ({ key, list })) : [{ key: 'x', list: false }]
}

const deepList = (n: number) => `${'['.repeat(n)}1${']'.repeat(n)}`
const deepObject = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`
/** A JSON text of `length` characters made of zeros: parsed in one pass, refused at once by any object schema. */
const flat = (length: number) => `[${'0,'.repeat(Math.max(0, (length - 3) >> 1))}0]`
const keys = (n: number) => `{${Array.from({ length: n }, (_, i) => `"k${i}":0`).join(',')}}`
/** The same number of short strings as `keys(n)` has keys, in a list: the same count of values, written alike. */
const keyList = (n: number) => `[${Array.from({ length: n }, (_, i) => `"k${i}"`).join(',')}]`
const words = (length: number) => 'lorem ipsum dolor sit amet '.repeat(Math.ceil(length / 27)).slice(0, length)

const DEPTH = 20_000
const WIDTH = 20_000
const STRING = 100_000
/** How much more a hostile body may cost than an ordinary one of its size: wide, as timings on a shared machine vary; what was fixed cost hundreds or thousands of times more. */
const MARGIN = 25

async function send(w: World, op: OperationDef, body: string) {
  const path = op.path.replace(/\{\w+\}/g, 'id1')
  const started = performance.now()
  const res = await w.api.fetch(
    new Request(`${BASE}${path}`, { method: op.method, headers: { authorization: `Bearer ${w.tokens.olga}`, 'content-type': 'application/json' }, body }),
  )
  const text = await res.text()
  return { status: res.status, text, ms: performance.now() - started }
}

/** A 4xx for `body`, never a 500, and what it answered. */
async function refused(w: World, op: OperationDef, body: string, what: string) {
  const res = await send(w, op, body)
  expect(res.status, `${op.id} ${what}: ${res.text.slice(0, 300)}`).toBeGreaterThanOrEqual(400)
  expect(res.status, `${op.id} ${what}: ${res.text.slice(0, 300)}`).toBeLessThan(500)
  return res
}

/**
 * Whether `hostile` costs at most MARGIN times `ordinary`: each sent in turn, the fastest of up to
 * five rounds kept for each (a pause of the collector or of the machine slows one request, not all).
 */
async function costsLike(w: World, op: OperationDef, hostile: string, ordinary: string, what: string) {
  let best = { hostile: Infinity, ordinary: Infinity }
  for (let round = 0; round < 5; round++) {
    best = { ordinary: Math.min(best.ordinary, (await send(w, op, ordinary)).ms), hostile: Math.min(best.hostile, (await send(w, op, hostile)).ms) }
    if (best.hostile <= MARGIN * best.ordinary) return
  }
  expect.fail(
    `${op.id} ${what}: ${best.hostile.toFixed(1)} ms, ${(best.hostile / best.ordinary).toFixed(0)} times an ordinary body of its size (${best.ordinary.toFixed(1)} ms)`,
  )
}

describe('http: hostile requests, before authorization', () => {
  it('every operation with a body: a body nested 20,000 levels is a 400 naming the field and the limit, at the cost of a flat one', async () => {
    const w = await createWorld()
    const ops = w.api.operations.filter((op) => op.body)
    expect(ops.length).toBeGreaterThan(50)
    for (const op of ops) {
      const { key } = topFields(op)[0]!
      for (const [what, body] of [
        ['a list nested 20,000 levels', deepList(DEPTH)],
        [`\`${key}\` nested 20,000 levels`, `{"${key}":${deepObject(DEPTH)}}`],
      ] as const) {
        const res = await refused(w, op, body, what)
        expect(res.status, `${op.id} ${what}`).toBe(400)
        expect(JSON.parse(res.text).error.message, `${op.id} ${what}`).toMatch(
          /^Invalid request: body( field `[^`]+`)?: nests objects and lists deeper than 256 levels$/,
        )
        await costsLike(w, op, body, flat(body.length), what)
      }
    }
    // The message names the field where the nesting passes the limit (its first levels).
    const importGit = ops.find((op) => op.id === 'importGitRepository')!
    const res = await send(w, importGit, `{"url":"https://x.test/r.git","gitInfo":{"a\\"b":${deepList(DEPTH)}}}`)
    expect(JSON.parse(res.text).error.message).toBe(
      'Invalid request: body field `gitInfo.a"b[0][0][0][0][0][0]…`: nests objects and lists deeper than 256 levels',
    )
    // The journal keeps no body it could not redact (Git Sync's may hold credentials).
    expect(w.api.journal.last()!.requestBody).toMatch(/^\(a body nested deeper than 256 levels, \d+ characters: not kept/)
  }, 600_000)

  it('every operation with a body: strings of 100 KB of what a regex backtracks on cost what ordinary text of that length does', async () => {
    const w = await createWorld()
    for (const op of w.api.operations.filter((op) => op.body)) {
      const fields = topFields(op)
      // Every top-level field a long string (within the 1 MiB limit in all).
      const length = Math.min(STRING, Math.floor(600_000 / fields.length))
      const bodyOf = (text: string) => JSON.stringify(Object.fromEntries(fields.map(({ key }) => [key, text])))
      const ordinary = bodyOf(words(length))
      for (const [what, text] of [
        ['a word', 'a'.repeat(length)],
        ['a URL of one word', `https://${'a'.repeat(length - 8)}`],
        ['dotted words', 'a.'.repeat(length >> 1)],
        ['a run of spaces', `x${' '.repeat(length - 2)}x`],
      ] as const) {
        const body = bodyOf(text)
        await refused(w, op, body, what)
        await costsLike(w, op, body, ordinary, what)
      }
    }
  }, 600_000)

  it('every operation with a body: 20,000 keys, and lists of 20,000 values of the wrong type, cost about what ordinary bodies of their size do', async () => {
    const w = await createWorld()
    for (const op of w.api.operations.filter((op) => op.body)) {
      const { key } = topFields(op)[0]!
      for (const [what, body, ordinary] of [
        ['20,000 keys', keys(WIDTH), keyList(WIDTH)],
        [`20,000 keys in \`${key}\``, `{"${key}":${keys(WIDTH)}}`, `{"${key}":${keyList(WIDTH)}}`],
      ] as const) {
        const res = await refused(w, op, body, what)
        // An unknown key is named, a few of them: never the whole list.
        expect(res.text.length, `${op.id} ${what}`).toBeLessThan(2000)
        await costsLike(w, op, body, ordinary, what)
      }
      for (const { key: list } of topFields(op).filter((f) => f.list)) {
        for (const [what, element] of [
          ['numbers', '1'],
          ['objects', '{}'],
          ['lists', '[]'],
        ] as const) {
          const body = `{"${list}":[${Array(WIDTH).fill(element).join(',')}]}`
          await refused(w, op, body, `\`${list}\`: 20,000 ${what}`)
          await costsLike(w, op, body, flat(body.length), `\`${list}\`: 20,000 ${what}`)
        }
      }
    }
  }, 600_000)

  it('a list query parameter given 20,000 times costs about what 20,000 different parameters do', async () => {
    const w = await createWorld()
    const get = async (query: string) => {
      const started = performance.now()
      const res = await w.api.fetch(
        new Request(`${BASE}/v1/orgs/${w.org.id}/change-requests?${query}`, { headers: { authorization: `Bearer ${w.tokens.olga}` } }),
      )
      expect(res.status).toBeLessThan(500)
      return performance.now() - started
    }
    const repeated = Array.from({ length: 20_000 }, () => 'status=open').join('&')
    const different = Array.from({ length: 20_000 }, (_, i) => `s${i}=open`)
      .join('&')
      .padEnd(repeated.length, 'x')
    let best = { repeated: Infinity, different: Infinity }
    for (let round = 0; round < 5; round++) {
      best = { different: Math.min(best.different, await get(different)), repeated: Math.min(best.repeated, await get(repeated)) }
      if (best.repeated <= MARGIN * best.different) break
    }
    expect(best.repeated / best.different).toBeLessThanOrEqual(MARGIN)
  })
})
