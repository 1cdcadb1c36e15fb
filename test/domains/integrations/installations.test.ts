import { describe, expect, it } from 'vitest'
import { expectOfficialResponse } from '../../conformance/official.js'
import { call, expectError } from '../../helpers.js'
import { expectNoChange, integrationWorld, type IntegrationWorld } from './helpers.js'

/**
 * Installations through `api.fetch`: on an organization (its admins, once), then on its spaces
 * (the spaces' admins) and sites (the organization's admins); the integration's owner admins list
 * them. Ada is admin of Acme, Rita reads, Gina is a guest; Olga is admin of Globex only.
 */
async function installed(extra: Record<string, unknown> = { visibility: 'public' }) {
  const w = await integrationWorld()
  await w.publish('my-app', extra)
  const installation = await w.install('my-app')
  const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Handbook' })
  const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs' })
  const base = `/v1/integrations/my-app/installations/${installation.id}`
  return { ...w, installation, space, site, base }
}
const get = (w: IntegrationWorld, path: string, token = w.tokens.ada) => call(w.api, token, 'GET', path)

describe('installations on organizations', () => {
  it('installs (201, Location) for an organization admin, once; the installation answers the official shape', async () => {
    const w = await integrationWorld()
    await w.publish('my-app', { visibility: 'public' })
    const res = await call(w.api, w.tokens.ada, 'POST', '/v1/integrations/my-app/installations', { organization: w.org.id })
    expect(res.status).toBe(201)
    expectOfficialResponse('installIntegration', 201, res.body)
    expect(res.headers.get('location')).toBe(`http://localhost:4000/v1/integrations/my-app/installations/${res.body.id}`)
    expect(res.body).toMatchObject({
      status: 'active',
      spaces: 0,
      configuration: {},
      externalIds: [],
      target: { organization: w.org.id },
      space_selection: 'selected',
    })
    expectError(
      await expectNoChange(w, () => call(w.api, w.tokens.ada, 'POST', '/v1/integrations/my-app/installations', { organization: w.org.id })),
      409,
      'already installed',
    )
    // Another organization installs it too (a public integration).
    expect((await call(w.api, w.tokens.olga, 'POST', '/v1/integrations/my-app/installations', { organization: w.globex.id })).status).toBe(201)
  })

  it('refuses members who are not admins (403), organizations the caller is not in (404), unknown integrations (404), bad bodies (400), no token (401)', async () => {
    const w = await integrationWorld()
    await w.publish('my-app', { visibility: 'public' })
    const path = '/v1/integrations/my-app/installations'
    expectError(await expectNoChange(w, () => call(w.api, w.tokens.rita, 'POST', path, { organization: w.org.id })), 403, 'admin role on this organization')
    expectError(await expectNoChange(w, () => call(w.api, w.tokens.gina, 'POST', path, { organization: w.org.id })), 403, 'admin role on this organization')
    expectError(await expectNoChange(w, () => call(w.api, w.tokens.olga, 'POST', path, { organization: w.org.id })), 404, 'Organization not found')
    expectError(
      await expectNoChange(w, () => call(w.api, w.tokens.ada, 'POST', '/v1/integrations/nope/installations', { organization: w.org.id })),
      404,
      'Integration not found',
    )
    expectError(await expectNoChange(w, () => call(w.api, w.tokens.ada, 'POST', path, { organization: '' })), 400, '`organization`: must not be empty')
    expectError(await expectNoChange(w, () => call(w.api, w.tokens.ada, 'POST', path, {})), 400, '`organization`')
    expectError(await expectNoChange(w, () => call(w.api, undefined, 'POST', path, { organization: w.org.id })), 401, '')
  })

  it('a private integration is installed only by its own organization', async () => {
    const w = await integrationWorld()
    await w.publish('my-app')
    // Olga, admin of Globex, joins Acme as a reader: she sees the private integration, and still may not install it on Globex.
    await w.api.fixtures.addMember(w.org.id, w.users.olga.id, 'read')
    expectError(
      await expectNoChange(w, () => call(w.api, w.tokens.olga, 'POST', '/v1/integrations/my-app/installations', { organization: w.globex.id })),
      403,
      'only by the organization that owns it',
    )
    expect((await call(w.api, w.tokens.ada, 'POST', '/v1/integrations/my-app/installations', { organization: w.org.id })).status).toBe(201)
  })

  it('lists installations for the owner admins (externalId filter, paging); gets one for its organization admins and the owner admins', async () => {
    const w = await installed()
    const other = await w.install('my-app', w.globex.id, w.tokens.olga)
    // External ids are set by the integration (no operation here): written through the store.
    w.api.system((ctx) => ctx.tx.update('integrationInstallations', { ...ctx.tx.get('integrationInstallations', other.id)!, externalIds: ['ext-1'] }))
    const list = await get(w, '/v1/integrations/my-app/installations')
    expectOfficialResponse('listIntegrationInstallations', 200, list.body)
    expect(list.body.items.map((i: { id: string }) => i.id)).toEqual([w.installation.id, other.id])
    const filtered = await get(w, '/v1/integrations/my-app/installations?externalId=ext-1')
    expect(filtered.body).toMatchObject({ count: 1, items: [{ id: other.id, externalIds: ['ext-1'] }] })
    expect((await get(w, '/v1/integrations/my-app/installations?externalId=nope')).body.items).toEqual([])
    const paged = await get(w, '/v1/integrations/my-app/installations?limit=1')
    expect((await get(w, `/v1/integrations/my-app/installations?limit=1&page=${paged.body.next.page}`)).body.items[0].id).toBe(other.id)
    expectError(await get(w, '/v1/integrations/my-app/installations', w.tokens.rita), 403, 'admin role on this integration')
    expectError(await get(w, '/v1/integrations/my-app/installations', w.tokens.olga), 403, 'admin role on this integration')

    const byId = await get(w, `/v1/integrations/my-app/installations/${other.id}`, w.tokens.olga)
    expectOfficialResponse('getIntegrationInstallationById', 200, byId.body)
    expect(byId.body.id).toBe(other.id)
    expect((await get(w, `/v1/integrations/my-app/installations/${other.id}`)).status).toBe(200)
    expectError(await get(w, `/v1/integrations/my-app/installations/${w.installation.id}`, w.tokens.olga), 404, 'Organization not found')
    expectError(await get(w, `/v1/integrations/my-app/installations/${w.installation.id}`, w.tokens.rita), 403, 'admin role on this organization')
    expectError(await get(w, '/v1/integrations/my-app/installations/nope'), 404, 'Installation not found')
  })
})

describe('installations on spaces and sites', () => {
  it('enables an installation on a space (201): `spaces` counts its space installations, the list shows ids or spaces (`extended`)', async () => {
    const w = await installed()
    const res = await call(w.api, w.tokens.ada, 'POST', `${w.base}/spaces`, { space: w.space.id })
    expect(res.status).toBe(201)
    expectOfficialResponse('installIntegrationOnSpace', 201, res.body)
    expect(res.body).toMatchObject({ integration: 'my-app', installation: w.installation.id, status: 'active', space: w.space.id })
    expect(res.headers.get('location')).toBe(`http://localhost:4000/v1${`/integrations/my-app/installations/${w.installation.id}/spaces/${w.space.id}`}`)
    const extended = await call(w.api, w.tokens.ada, 'POST', `${w.base}/spaces?extended=true`, {
      space: (await w.api.fixtures.createSpace(w.org.id, { title: 'Second' })).id,
    })
    expect(extended.body.space).toMatchObject({ object: 'space', title: 'Second' })
    expect((await get(w, w.base)).body.spaces).toBe(2)

    const ids = await get(w, '/v1/integrations/my-app/spaces')
    expectOfficialResponse('listIntegrationSpaceInstallations', 200, ids.body)
    expect(ids.body.items.map((i: { space: string }) => i.space)).toEqual([w.space.id, extended.body.space.id])
    const objects = await get(w, '/v1/integrations/my-app/spaces?extended=true&limit=1')
    expectOfficialResponse('listIntegrationSpaceInstallations', 200, objects.body)
    expect(objects.body).toMatchObject({ count: 2, items: [{ space: { object: 'space', id: w.space.id } }], next: { page: expect.any(String) } })

    // A deleted space leaves the count and the list; restored, it is back.
    await call(w.api, w.tokens.ada, 'DELETE', `/v1/spaces/${w.space.id}`)
    expect((await get(w, w.base)).body.spaces).toBe(1)
    expect((await get(w, '/v1/integrations/my-app/spaces')).body.count).toBe(1)
    await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${w.space.id}/restore`)
    expect((await get(w, w.base)).body.spaces).toBe(2)
    expect((await get(w, '/v1/integrations/my-app/installations')).body.items[0].spaces).toBe(2)
  })

  it('refuses a second time (409), a space of another organization (400), a hidden space (404), a non-admin (403), a target without spaces (400)', async () => {
    const w = await installed()
    await call(w.api, w.tokens.ada, 'POST', `${w.base}/spaces`, { space: w.space.id })
    const post = (token: string, body: unknown, base = w.base) => expectNoChange(w, () => call(w.api, token, 'POST', `${base}/spaces`, body))
    expectError(await post(w.tokens.ada, { space: w.space.id }), 409, 'already enabled on space')
    const foreign = await w.api.fixtures.createSpace(w.globex.id, { title: 'Globex space' })
    await w.api.fixtures.addMember(w.globex.id, w.users.ada.id, 'admin')
    expectError(await post(w.tokens.ada, { space: foreign.id }), 400, "`space`: must be a space of the installation's organization")
    expectError(await post(w.tokens.ada, { space: 'nope' }), 404, 'Space not found')
    expectError(await post(w.tokens.rita, { space: w.space.id }), 403, 'admin role on this space')
    expectError(await post(w.tokens.gina, { space: w.space.id }), 404, 'Space not found')
    expectError(await post(w.tokens.olga, { space: w.space.id }), 404, 'Installation not found')
    expectError(await post(w.tokens.ada, { space: '' }), 400, '`space`: must not be empty')
    expectError(await post(w.tokens.ada, { space: w.space.id }, '/v1/integrations/my-app/installations/nope'), 404, 'Installation not found')
    await w.publish('sites-only', { visibility: 'public', target: 'site' })
    const siteOnly = await w.install('sites-only')
    expectError(
      await post(w.tokens.ada, { space: w.space.id }, `/v1/integrations/sites-only/installations/${siteOnly.id}`),
      400,
      'it is not installed on spaces',
    )
  })

  it('enables an installation on a site (201) for the organization admins; lists site installations with `extended`', async () => {
    const w = await installed()
    const res = await call(w.api, w.tokens.ada, 'POST', `${w.base}/sites`, { siteId: w.site.id })
    expect(res.status).toBe(201)
    expectOfficialResponse('installIntegrationOnSite', 201, res.body)
    expect(res.body).toMatchObject({ integration: 'my-app', installation: w.installation.id, site: w.site.id })
    const ids = await get(w, '/v1/integrations/my-app/sites')
    expectOfficialResponse('listIntegrationSiteInstallations', 200, ids.body)
    expect(ids.body.items.map((i: { site: string }) => i.site)).toEqual([w.site.id])
    const objects = await get(w, '/v1/integrations/my-app/sites?extended=true')
    expectOfficialResponse('listIntegrationSiteInstallations', 200, objects.body)
    expect(objects.body.items[0].site).toMatchObject({ object: 'site', id: w.site.id })
    expect((await get(w, '/v1/integrations/my-app/sites?externalId=x')).body.count).toBe(0)
    // Sites do not count in `spaces`.
    expect((await get(w, w.base)).body.spaces).toBe(0)

    const post = (token: string, body: unknown) => expectNoChange(w, () => call(w.api, token, 'POST', `${w.base}/sites`, body))
    expectError(await post(w.tokens.ada, { siteId: w.site.id }), 409, 'already enabled on site')
    expectError(await post(w.tokens.rita, { siteId: w.site.id }), 403, 'admin role on this site')
    expectError(await post(w.tokens.gina, { siteId: w.site.id }), 404, 'Site not found')
    expectError(await post(w.tokens.ada, { siteId: 'nope' }), 404, 'Site not found')
    expectError(await post(w.tokens.ada, {}), 400, '`siteId`')
    // A deleted site leaves the list.
    await call(w.api, w.tokens.ada, 'DELETE', `/v1/orgs/${w.org.id}/sites/${w.site.id}`)
    expect((await get(w, '/v1/integrations/my-app/sites')).body.items).toEqual([])
  })

  it('space and site installation lists are for the owner admins; unknown integrations are 404s', async () => {
    const w = await installed()
    for (const list of ['spaces', 'sites']) {
      expectError(await get(w, `/v1/integrations/my-app/${list}`, w.tokens.rita), 403, 'admin role on this integration')
      expectError(await get(w, `/v1/integrations/nope/${list}`), 404, 'Integration not found')
      expectError(await get(w, `/v1/integrations/my-app/${list}?extended=maybe`), 400, '`extended`: must be true or false')
      expectError(await call(w.api, undefined, 'GET', `/v1/integrations/my-app/${list}`), 401, '')
    }
  })
})
