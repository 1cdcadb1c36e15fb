import { describe, expect, it } from 'vitest'
import { spaceWorld } from '../helpers.js'
import { longestStall } from '../stall.js'

const paragraph = (text: string) => ({ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] })

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
    await batch(JSON.stringify({ changes: [{ operation: 'insert_page', title: 'Warm', document: { document: { object: 'document', data: {}, nodes: [paragraph('x')] } } }] }))
    const changes = Array.from({ length: 40 }, (_, n) => ({ operation: 'insert_page', title: `P${n}`, document: { document: { object: 'document', data: {}, nodes: Array.from({ length: 2500 }, (_, i) => paragraph(`line ${n}.${i} of a page`)) } } }))
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
    const changes = Array.from({ length: 6 }, (_, n) => ({ operation: 'insert_page', title: `P${n}`, document: { document: { object: 'document', data: {}, nodes: Array.from({ length: 2500 }, (_, i) => paragraph(`line ${n}.${i} of a page`)) } } }))
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
