import { GitBookAPIError } from '@gitbook/api'
import { describe, expect, it } from 'vitest'
import { currentOfficialRoutes } from '../../scripts/official-routes.js'
import { readFileSync } from 'node:fs'
import { OFFICIAL_ROUTES } from '../../src/http/official-routes.js'
import { call, createWorld } from '../helpers.js'

describe('http: official operations this API does not implement', () => {
  it('answer 501 naming the official operationId, before authentication and whatever the ids', async () => {
    const w = await createWorld()
    for (const [method, path, id] of [
      ['GET', '/v1/spaces/anything/change-requests/c/conversations', 'listChangeRequestConversations'],
      ['POST', `/v1/orgs/${w.org.id}/sites/s1/channels`, 'createSiteChannel'],
      ['GET', '/v1/spaces/x/pdf', 'getSpacePDF'],
    ] as const) {
      for (const token of [w.tokens.ada, undefined]) {
        const res = await call(w.api, token, method, path, method === 'POST' ? {} : undefined)
        expect(res.status, path).toBe(501)
        expect(res.body).toEqual({
          error: { code: 501, message: `${method} ${path} is the official operation \`${id}\`, which docs-content-api does not implement yet` },
        })
      }
    }
  })

  it('a method neither we nor the official document have on a path we serve is a 405', async () => {
    const w = await createWorld()
    // Every official method on a path we serve is implemented now (the last ones were PATCH and DELETE of an
    // installation): the 501 for such a method has no official case left to show.
    for (const method of ['PATCH', 'DELETE'] as const) {
      const res = await call(w.api, w.tokens.ada, method, '/v1/integrations/some-integration/installations/i1', method === 'PATCH' ? {} : undefined)
      expect(res.status, method).toBe(404)
    }
    // Neither we nor the document have PUT on a space: 405 with what we serve there.
    const put = await call(w.api, w.tokens.ada, 'PUT', `/v1/spaces/s1`)
    expect(put.status).toBe(405)
    expect(put.headers.get('allow')).toBe('GET, HEAD, DELETE, PATCH, OPTIONS')
  })

  it('unknown paths stay 404, and so does a parameter that is not valid percent-encoding', async () => {
    const w = await createWorld()
    expect((await call(w.api, w.tokens.ada, 'GET', '/v1/nothing')).status).toBe(404)
    expect((await call(w.api, w.tokens.ada, 'GET', '/v1/orgs/%E0%A4%A/teams')).status).toBe(404)
  })

  it('reach the official client as a GitBookAPIError with status 501', async () => {
    const w = await createWorld()
    const error = await w
      .client(w.tokens.ada)
      .spaces.listChangeRequestConversations('some-space', 'some-change-request')
      .then(
        () => undefined,
        (e: unknown) => e,
      )
    expect(error).toBeInstanceOf(GitBookAPIError)
    expect((error as GitBookAPIError).code).toBe(501)
    expect((error as GitBookAPIError).message).toContain('`listChangeRequestConversations`')
  })

  it('the generated list is current with the installed official document (npm run gen:official)', () => {
    expect(readFileSync('src/http/official-routes.ts', 'utf8')).toBe(currentOfficialRoutes())
    // and it holds every operation we implement from it
    const ids = new Set(OFFICIAL_ROUTES.map(([, , id]) => id))
    expect(ids.size).toBe(OFFICIAL_ROUTES.length)
    expect(ids.has('getSpaceById')).toBe(true)
  })

  it('every operation of the table that is official has the official method and path', async () => {
    const w = await createWorld()
    const byId = new Map(OFFICIAL_ROUTES.map(([m, p, id]) => [id, `${m} ${p}`]))
    const norm = (p: string) => p.replace(/\{\w+\}/g, '{}')
    for (const op of w.api.operations.filter((o) => !o.beyondOfficial)) {
      expect(byId.has(op.id), op.id).toBe(true)
      expect(norm(byId.get(op.id)!), op.id).toBe(norm(`${op.method} ${op.path}`))
    }
  })
})
