import { GitBookAPIError } from '@gitbook/api'
import { describe, expect, it } from 'vitest'
import { call, createWorld, expectError } from '../helpers.js'
import { expectOfficialResponse } from './official.js'

/** getContentByUrl (GET /v1/urls/content): the content an application or published URL names (docs/behaviour/published.md). */
describe('conformance: getContentByUrl through @gitbook/api', () => {
  async function setup() {
    const w = await createWorld()
    const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Handbook' })
    const collection = await w.api.fixtures.createCollection(w.org.id, { title: 'Guides' })
    const ok = async (method: string, path: string, body?: unknown) => {
      const res = await call(w.api, w.tokens.ada, method, path, body)
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(300)
      return res.body
    }
    const cr = await ok('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Pages' })
    await ok('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
      changes: [{ operation: 'insert_page', document: { markdown: '# Welcome\n\nHello.' } }],
    })
    await ok('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`)
    const open = await ok('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Open' })
    const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs', spaces: [space.id], published: true })
    const urls = {
      space: (await ok('GET', `/v1/spaces/${space.id}`)).urls.app as string,
      collection: (await ok('GET', `/v1/collections/${collection.id}`)).urls.app as string,
      changeRequest: open.urls.app as string,
      published: (await ok('GET', `/v1/orgs/${w.org.id}/sites/${site.id}`)).urls.published as string,
    }
    return { ...w, space, collection, open, urls }
  }

  it('a collection, a space, a page, a change request and a published page', async () => {
    const w = await setup()
    const gb = w.client(w.tokens.rita)
    const check = async (url: string) => {
      const res = await gb.urls.getContentByUrl({ url })
      expectOfficialResponse('getContentByUrl', 200, res.data)
      return res.data as Record<string, any>
    }
    expect((await check(w.urls.collection)).collection).toMatchObject({ id: w.collection.id })
    expect(await check(w.urls.space)).toMatchObject({ space: { id: w.space.id } })
    expect(await check(`${w.urls.space}/welcome`)).toMatchObject({ space: { id: w.space.id }, page: { title: 'Welcome', path: 'welcome' } })
    expect(await check(`${w.urls.changeRequest}/welcome`)).toMatchObject({
      space: { id: w.space.id },
      changeRequest: { id: w.open.id },
      page: { title: 'Welcome' },
    })
    expect(await check(`${w.urls.published}/welcome`)).toMatchObject({ space: { id: w.space.id }, page: { title: 'Welcome' } })
  })

  it('bad input is a 400 naming url; what the caller cannot see, or nothing, is a 404', async () => {
    const w = await setup()
    expectError(await call(w.api, w.tokens.ada, 'GET', '/v1/urls/content?url=nope'), 400, 'query parameter `url`')
    expectError(await call(w.api, w.tokens.ada, 'GET', '/v1/urls/content'), 400, 'query parameter `url`')
    const missing = await w
      .client(w.tokens.ada)
      .urls.getContentByUrl({ url: `${w.urls.space}/no-such-page` })
      .catch((e: GitBookAPIError) => e)
    expect((missing as GitBookAPIError).code).toBe(404)
    // An outsider learns nothing of the space, its change requests or the collection; a guest neither.
    for (const token of [w.tokens.olga, w.tokens.gina]) {
      for (const url of [w.urls.space, w.urls.changeRequest, w.urls.collection]) {
        expect((await call(w.api, token, 'GET', `/v1/urls/content?url=${encodeURIComponent(url)}`)).status, url).toBe(404)
      }
    }
    expect((await call(w.api, undefined, 'GET', `/v1/urls/content?url=${encodeURIComponent(w.urls.space)}`)).status).toBe(401)
  })
})
