import { GitBookAPIError } from '@gitbook/api'
import { describe, expect, it } from 'vitest'
import { call, expectError, siteToken } from '../helpers.js'
import { redirectWorld } from '../domains/site-redirects/helpers.js'
import { expectOfficialResponse } from './official.js'

/** Embeds through `@gitbook/api` (docs/behaviour/embeds.md). */
describe('conformance: embeds through @gitbook/api', () => {
  it('getEmbedByUrl and getEmbedByUrlInSpace answer the official Embed (the default link embed)', async () => {
    const w = await redirectWorld()
    const byUrl = await w.client(w.tokens.rita).urls.getEmbedByUrl({ url: 'https://www.example.com/blog/hello-world' })
    expect(byUrl.status).toBe(200)
    expect(byUrl.data).toEqual({ type: 'link', title: 'hello world', site: 'example.com' })
    expectOfficialResponse('getEmbedByUrl', 200, byUrl.data)

    const inSpace = await w.client(w.tokens.rita).spaces.getEmbedByUrlInSpace(w.spaces.guide.id, { url: 'https://example.com/' })
    expect(inSpace.data).toEqual({ type: 'link', title: 'example.com', site: 'example.com' })
    expectOfficialResponse('getEmbedByUrlInSpace', 200, inSpace.data)

    // The renderer's caller: the site token of a visit.
    const token = await siteToken(w.api, w.siteUrl)
    const visitor = await w.client(token).spaces.getEmbedByUrlInSpace(w.spaces.guide.id, { url: 'https://example.com/a' })
    expectOfficialResponse('getEmbedByUrlInSpace', 200, visitor.data)
  })

  it('a URL that is not http(s), or is over 2048 characters, is a 400 naming `url`', async () => {
    const w = await redirectWorld()
    for (const url of ['javascript:alert(1)', 'ftp://example.com/x', 'not a url', `https://example.com/${'a'.repeat(2048)}`]) {
      const res = await call(w.api, w.tokens.rita, 'GET', `/v1/spaces/${w.spaces.guide.id}/embed?url=${encodeURIComponent(url)}`)
      expectError(res, 400, 'query parameter `url`')
    }
    expectError(await call(w.api, w.tokens.rita, 'GET', '/v1/urls/embed'), 400, '`url`')
    const error = await w
      .client(w.tokens.rita)
      .urls.getEmbedByUrl({ url: 'data:text/html,hi' })
      .catch((e: GitBookAPIError) => e)
    expect((error as GitBookAPIError).code).toBe(400)
  })

  it('a space the caller cannot read is a 404; a site token reads only the spaces its site publishes', async () => {
    const w = await redirectWorld()
    const other = await w.api.fixtures.createSpace(w.org.id, { title: 'Private' })
    const q = `?url=${encodeURIComponent('https://example.com/')}`
    expectError(await call(w.api, w.tokens.olga, 'GET', `/v1/spaces/${w.spaces.guide.id}/embed${q}`), 404, '')
    const token = await siteToken(w.api, w.siteUrl)
    expectError(await call(w.api, token, 'GET', `/v1/spaces/${other.id}/embed${q}`), 404, '')
    expect((await call(w.api, undefined, 'GET', `/v1/urls/embed${q}`)).status).toBe(401)
  })
})
