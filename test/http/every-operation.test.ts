import { describe, expect, it } from 'vitest'
import { createDocsApi } from '../../src/index.js'
import { BASE } from '../helpers.js'
import { answersBytes } from '../../src/core/binary.js'

const api = createDocsApi({ baseUrl: BASE })

/** The operation's path with every `{param}` filled in. */
const pathOf = (path: string) => path.replace(/\{(\w+)\}/g, (_, name: string) => `some-${name}`)

describe('http: every operation of the table', () => {
  it('the table is not empty, its routes are unique and under /v1 (but for the URLs the API hands out, its own)', async () => {
    expect(api.operations.length).toBeGreaterThan(10)
    const seen = new Set<string>()
    for (const op of api.operations) {
      const key = `${op.method} ${op.path.replace(/\{\w+\}/g, '{}')}`
      expect(seen.has(key), `duplicate route ${key}`).toBe(false)
      seen.add(key)
      expect(op.path === '/v1' || op.path.startsWith('/v1/'), `${op.id}: ${op.path}`).toBe(!op.outsideV1)
      if (op.outsideV1) expect(op.beyondOfficial, op.id).toBe(true)
    }
  })

  it.each(api.operations.filter((op) => op.auth !== false).map((op) => [op.id, op] as const))(
    '%s answers 401 without a token, and with an unknown one',
    async (_, op) => {
      for (const authorization of [undefined, 'Bearer gb_api_unknown']) {
        const headers: Record<string, string> = {}
        if (authorization) headers.authorization = authorization
        // a body that would be invalid for most operations: authentication must come first
        const init: RequestInit = { method: op.method, headers }
        if (op.body) {
          headers['content-type'] = 'application/json'
          init.body = '{"definitely": "not valid"'
        }
        const res = await api.fetch(new Request(`${BASE}${pathOf(op.path)}?limit=abc`, init))
        expect(res.status, `${op.method} ${op.path}`).toBe(401)
        expect(await res.json()).toEqual({ error: { code: 401, message: expect.any(String) } })
      }
    },
  )

  it('operations open to anonymous callers are the ones marked auth: false', () => {
    const open = api.operations.filter((op) => op.auth === false).map((op) => op.id)
    // Only the resolution of published URLs (which issues the site token a visitor then reads with), the
    // URLs whose unguessable key is the capability (downloads, PDFs), and the tracking of a published
    // site's visitors' events (GitBook's renderer sends them without a token) are open to anonymous callers.
    expect(open.sort()).toEqual([
      'downloadChangeRequestPDF',
      'downloadFile',
      'downloadFileByKey',
      'getPublishedContentByUrl',
      'resolvePublishedContentByUrl',
      'trackEventsInSiteById',
    ])
    // All reads but tracking (bounded: docs/behaviour/insights.md): resolving a URL is a POST only because it takes the visitor in a body.
    const posts = ['resolvePublishedContentByUrl', 'trackEventsInSiteById']
    for (const id of open) expect(api.operations.find((op) => op.id === id)!.method).toBe(posts.includes(id) ? 'POST' : 'GET')
  })

  it('every operation declares a status, and a response unless it answers 204/205 or bytes', () => {
    for (const op of api.operations) {
      const bytes = answersBytes(op)
      if (op.status === 204 || op.status === 205 || bytes) expect(op.response, op.id).toBeUndefined()
      else expect(op.response, op.id).toBeDefined()
      if (op.minimal) expect(op.response, `${op.id}: minimal needs a body to leave out`).toBeDefined()
    }
  })
})
