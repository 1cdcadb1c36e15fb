import { describe, expect, it } from 'vitest'
import { spaceWorld } from '../helpers.js'
import { longestStall } from '../stall.js'
import { LargeText } from '../../src/core/large-text.js'
import { jsonAnswerInSlices, readBody, validBody } from '../../src/http/codec.js'
import { operations } from '../../src/domains/index.js'

const paragraph = (text: string) => ({
  object: 'block',
  type: 'paragraph',
  data: {},
  nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }],
})

async function world() {
  const { api, space, call } = await spaceWorld()
  const cr = await (await call('POST', `/spaces/${space.id}/change-requests`, {})).json()
  const batch = (body: string) => call('POST', `/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, body)
  const get = (path: string, method = 'GET') => call(method, `/spaces/${space.id}/change-requests/${cr.id}${path}`)
  return { api, batch, get }
}

describe('a content batch of many large JSON documents', () => {
  it('is read, validated and stored while the event loop keeps turning', async () => {
    const { batch } = await world()
    await batch(
      JSON.stringify({
        changes: [{ operation: 'insert_page', title: 'Warm', document: { document: { object: 'document', data: {}, nodes: [paragraph('x')] } } }],
      }),
    )
    const changes = Array.from({ length: 40 }, (_, n) => ({
      operation: 'insert_page',
      title: `P${n}`,
      document: { document: { object: 'document', data: {}, nodes: Array.from({ length: 2500 }, (_, i) => paragraph(`line ${n}.${i} of a page`)) } },
    }))
    const body = JSON.stringify({ changes })
    expect(body.length).toBeGreaterThan(8 * 1024 * 1024)
    const { result, stall, total } = await longestStall(() => batch(body))
    expect(result.status).toBe(200)
    expect(stall).toBeLessThan(total / 4)
  })
})

describe('a large answer (the pages of a change request with their documents)', () => {
  it('is sent in slices with turns of the event loop between them, and reads back whole; HEAD has no body', async () => {
    const { api, batch, get } = await world()
    const changes = Array.from({ length: 6 }, (_, n) => ({
      operation: 'insert_page',
      title: `P${n}`,
      document: { document: { object: 'document', data: {}, nodes: Array.from({ length: 2500 }, (_, i) => paragraph(`line ${n}.${i} of a page`)) } },
    }))
    expect((await batch(JSON.stringify({ changes }))).status).toBe(200)
    const res = await get('/content/pages')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
    const reader = res.body!.getReader()
    const chunks: Uint8Array[] = []
    let turns = 0
    const timer = setInterval(() => turns++, 0)
    try {
      for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(read.value)
    } finally {
      clearInterval(timer)
    }
    const text = new TextDecoder().decode(Buffer.concat(chunks))
    expect(text.length).toBeGreaterThan(1 << 20)
    expect(chunks.length).toBeGreaterThan(3)
    expect(turns).toBeGreaterThan(0)
    const pages = JSON.parse(text).pages as Array<{ title: string; document: { nodes: unknown[] } }>
    expect(pages.map((p) => [p.title, p.document.nodes.length])).toEqual(changes.map((c) => [c.title, 2500]))
    // The journal keeps the head of it, marked as cut.
    const entry = api.journal.last()!
    expect(entry.truncated?.responseBody).toBe(text.length)
    const head = await get('/content/pages', 'HEAD')
    expect(head.status).toBe(200)
    expect(await head.text()).toBe('')
  })
})

describe('a large body and a large answer stay in the parts they were read or written in', () => {
  it('a body of many chunks is read as a LargeText (never one string of all of it), parsed as JSON.parse parses it; a short one is a string', async () => {
    const def = operations.find((op) => op.id === 'updateChangeRequestContent')!
    const value = {
      changes: Array.from({ length: 40 }, (_, n) => ({
        operation: 'insert_page',
        title: `P${n}`,
        document: { markdown: `Page ${n}: ${'words and more words, déjà vu '.repeat(400)}` },
      })),
    }
    const bytes = new TextEncoder().encode(JSON.stringify(value))
    const chunked = (size: number) =>
      new Request('http://x/v1/any', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        // Chunks of `size` bytes, cut through words and multi-byte characters alike.
        body: new ReadableStream({
          start(controller) {
            for (let at = 0; at < bytes.length; at += size) controller.enqueue(bytes.slice(at, at + size))
            controller.close()
          },
        }),
        duplex: 'half',
      } as RequestInit)
    const text = await readBody(chunked(65_536), def)
    expect(text).toBeInstanceOf(LargeText)
    expect(text!.length).toBeGreaterThan(256 * 1024)
    expect(await validBody(chunked(1), def, text)).toStrictEqual(value)
    const short = new TextEncoder().encode(JSON.stringify({ changes: [] }))
    const small = await readBody(
      new Request('http://x/v1/any', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: new ReadableStream({ start: (c) => (c.enqueue(short.slice(0, 5)), c.enqueue(short.slice(5)), c.close()) }),
        duplex: 'half',
      } as RequestInit),
      def,
    )
    expect(small).toBe('{"changes":[]}')
  })

  it('a large answer is written in parts (jsonAnswerInSlices) and is the text JSON.stringify gives; the journal keeps its head', async () => {
    const pages = {
      pages: Array.from({ length: 30 }, (_, n) => ({
        id: `p${n}`,
        title: `P${n}`,
        document: { object: 'document', nodes: Array.from({ length: 1000 }, (_, i) => paragraph(`line ${n}.${i}`)) },
      })),
    }
    const answer = await jsonAnswerInSlices(200, pages)
    expect(answer.text).toBeInstanceOf(LargeText)
    expect(String(answer.text)).toBe(JSON.stringify(pages))
    expect((await jsonAnswerInSlices(200, { id: 'small' })).text).toBe('{"id":"small"}')
    // Through the API: the journal keeps the first characters of both bodies.
    const { api, batch, get } = await world()
    expect(
      (await batch(JSON.stringify({ changes: pages.pages.map((p) => ({ operation: 'insert_page', title: p.title, document: { document: p.document } })) })))
        .status,
    ).toBe(200)
    const read = await get('/content/pages')
    const whole = await read.text()
    const [entry] = api.journal.find({ operationId: 'listPagesInChangeRequest' })
    expect(entry?.truncated?.responseBody).toBe(whole.length)
    const [sent] = api.journal.find({ operationId: 'updateChangeRequestContent' }).slice(-1)
    expect(sent?.truncated?.requestBody).toBeGreaterThan(0)
  })
})
