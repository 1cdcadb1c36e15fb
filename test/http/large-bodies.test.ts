import { describe, expect, it } from 'vitest'
import { createDocsApi } from '../../src/index.js'
import { createClock, sequentialIds } from '../../src/testing.js'
import { longestStall } from '../stall.js'

const paragraph = (text: string) => ({ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] })

async function world() {
  const api = createDocsApi({ now: createClock('2026-01-01T00:00:00Z').now, ids: sequentialIds('id') })
  const ada = await api.fixtures.createUser({ displayName: 'Ada', email: 'ada@acme.test' })
  const token = await api.fixtures.createToken(ada.id)
  const org = await api.fixtures.createOrganization({ title: 'Acme', members: [{ user: ada.id, role: 'admin' }] })
  const space = await api.fixtures.createSpace(org.id, { title: 'Docs' })
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
  const cr = await (await api.fetch(new Request(`http://x/v1/spaces/${space.id}/change-requests`, { method: 'POST', headers, body: '{}' }))).json()
  const batch = (body: string) => api.fetch(new Request(`http://x/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, { method: 'POST', headers, body }))
  return { api, batch }
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
    console.log('STALL', stall.toFixed(0), total.toFixed(0))
    expect(stall).toBeLessThan(total / 4)
  })
})
