import { GitBookAPI, GitBookAPIError, IntegrationCategory } from '@gitbook/api'
import { describe, expect, it } from 'vitest'
import { call } from '../helpers.js'
import { integrationWorld, type IntegrationWorld } from '../domains/integrations/helpers.js'
import { expectOfficialResponse } from './official.js'

/**
 * The integration lists of an organization, a space and a site through the official client
 * (`@gitbook/api`), each answer checked against the official response schema of its operation.
 */

const client = (w: IntegrationWorld, token: string) =>
  new GitBookAPI({ endpoint: 'http://localhost:4000', authToken: token, serviceBinding: { fetch: w.api.fetch } })

/** The error a call fails with: its status and message. */
async function failure(request: Promise<unknown>): Promise<{ code: number; message: string }> {
  const error = await request.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(GitBookAPIError)
  return { code: (error as GitBookAPIError).code, message: (error as GitBookAPIError).message }
}

/**
 * Acme (Ada admin, Rita reader, Gina guest) publishes `my-app` (public, a block), `secret`
 * (private) and `tracker` (public, injects a site script with cookies and a CSP); Globex (Olga)
 * publishes `globex-private`, `globex-unlisted` (installed on Acme) and `globex-other` (unlisted,
 * not installed). Acme installs `my-app` (on a space and a site), `tracker` (on the site) and
 * `globex-unlisted` (on the space).
 */
async function world() {
  const w = await integrationWorld()
  const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Handbook' })
  const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs' })
  const globexSite = await w.api.fixtures.createSite(w.globex.id, { title: 'Globex docs' })
  await w.publish('my-app', {
    visibility: 'public',
    categories: ['content'],
    blocks: [{ id: 'embed', title: 'Embed', urlUnfurl: ['https://example.com'] }],
  })
  await w.publish('secret', { visibility: 'private' })
  await w.publish('tracker', {
    visibility: 'public',
    target: 'site',
    scopes: ['site:script:inject', 'site:script:cookies'],
    contentSecurityPolicy: { 'script-src': 'https://t.example', 'connect-src': 'https://t.example' },
  })
  const globex = { organization: w.globex.id }
  await w.publish('globex-private', { ...globex, visibility: 'private' }, w.tokens.olga)
  await w.publish('globex-unlisted', { ...globex, visibility: 'unlisted' }, w.tokens.olga)
  await w.publish('globex-other', { ...globex, visibility: 'unlisted' }, w.tokens.olga)
  const myApp = await w.install('my-app')
  const tracker = await w.install('tracker')
  const unlisted = await w.install('globex-unlisted')
  const enable = async (name: string, installation: string, kind: 'spaces' | 'sites', body: object) => {
    const res = await call(w.api, w.tokens.ada, 'POST', `/v1/integrations/${name}/installations/${installation}/${kind}`, body)
    expect(res.status, JSON.stringify(res.body)).toBe(201)
  }
  await enable('my-app', myApp.id, 'spaces', { space: space.id })
  await enable('globex-unlisted', unlisted.id, 'spaces', { space: space.id })
  await enable('my-app', myApp.id, 'sites', { siteId: site.id })
  await enable('tracker', tracker.id, 'sites', { siteId: site.id })
  return {
    ...w,
    space,
    site,
    globexSite,
    installations: { myApp, tracker, unlisted },
    gb: client(w, w.tokens.ada),
    rita: client(w, w.tokens.rita),
    gina: client(w, w.tokens.gina),
    olga: client(w, w.tokens.olga),
  }
}

const names = (items: Array<{ name: string }>) => items.map((i) => i.name)

describe('conformance: integration lists through @gitbook/api', () => {
  it('listOrganizationIntegrations: the public ones, its own and the ones installed on it, with the filters of listIntegrations', async () => {
    const w = await world()
    const all = await w.rita.orgs.listOrganizationIntegrations(w.org.id)
    expectOfficialResponse('listOrganizationIntegrations', 200, all.data)
    expect(names(all.data.items)).toEqual(['globex-unlisted', 'my-app', 'secret', 'tracker'])
    // Globex sees its own and the public ones, not Acme's private one.
    expect(names((await w.olga.orgs.listOrganizationIntegrations(w.globex.id)).data.items)).toEqual([
      'globex-other',
      'globex-private',
      'globex-unlisted',
      'my-app',
      'tracker',
    ])

    const filtered = await w.gb.orgs.listOrganizationIntegrations(w.org.id, { search: 'APP', blocks: true, blockDomain: 'example.com', owner: w.org.id })
    expectOfficialResponse('listOrganizationIntegrations', 200, filtered.data)
    expect(names(filtered.data.items)).toEqual(['my-app'])
    expect(names((await w.gb.orgs.listOrganizationIntegrations(w.org.id, { category: IntegrationCategory.Content })).data.items)).toEqual(['my-app'])
    expect(names((await w.gb.orgs.listOrganizationIntegrations(w.org.id, { owner: w.globex.id })).data.items)).toEqual(['globex-unlisted'])
    expect(names((await w.gb.orgs.listOrganizationIntegrations(w.org.id, { scope: 'site:script:inject' as never })).data.items)).toEqual(['tracker'])

    const first = await w.gb.orgs.listOrganizationIntegrations(w.org.id, { limit: 2 })
    expect(names(first.data.items)).toEqual(['globex-unlisted', 'my-app'])
    expect(first.data.count).toBe(4)
    const second = await w.gb.orgs.listOrganizationIntegrations(w.org.id, { limit: 2, page: first.data.next!.page })
    expectOfficialResponse('listOrganizationIntegrations', 200, second.data)
    expect(names(second.data.items)).toEqual(['secret', 'tracker'])
    expect(second.data.next).toBeUndefined()

    const bad = await failure(w.gb.orgs.listOrganizationIntegrations(w.org.id, { category: 'nope' as never }))
    expect(bad.code).toBe(400)
    expect(bad.message).toContain('`category`')
    expect((await failure(w.gb.orgs.listOrganizationIntegrations(w.org.id, { limit: 1001 }))).message).toContain('`limit`')
    // A guest of the organization: 403; an outsider: 404.
    expect((await failure(w.gina.orgs.listOrganizationIntegrations(w.org.id))).code).toBe(403)
    expect((await failure(w.olga.orgs.listOrganizationIntegrations(w.org.id))).code).toBe(404)
  })

  it('listOrganizationInstallations: installations with their integrations, oldest first, `search`; admins only; hidden integrations left out', async () => {
    const w = await world()
    const list = await w.gb.orgs.listOrganizationInstallations(w.org.id)
    expectOfficialResponse('listOrganizationInstallations', 200, list.data)
    expect(list.data.items.map((i) => [i.integration.name, i.installation.id])).toEqual([
      ['my-app', w.installations.myApp.id],
      ['tracker', w.installations.tracker.id],
      ['globex-unlisted', w.installations.unlisted.id],
    ])
    expect(list.data.items[0]!.installation).toMatchObject({ status: 'active', spaces: 1, target: { organization: w.org.id } })

    // `search`: part of the integration's name or title, any case.
    const searched = await w.gb.orgs.listOrganizationInstallations(w.org.id, { search: 'GLOB' })
    expectOfficialResponse('listOrganizationInstallations', 200, searched.data)
    expect(searched.data.items.map((i) => i.integration.name)).toEqual(['globex-unlisted'])
    expect((await w.gb.orgs.listOrganizationInstallations(w.org.id, { search: 'nothing like it' })).data.items).toEqual([])
    const paged = await w.gb.orgs.listOrganizationInstallations(w.org.id, { limit: 1 })
    expect(paged.data.items).toHaveLength(1)
    expect(paged.data.next).toBeDefined()

    // Globex makes its integration private: Acme's members no longer see it, nor its installation.
    await w.publish('globex-unlisted', { organization: w.globex.id, visibility: 'private' }, w.tokens.olga)
    expect((await w.gb.orgs.listOrganizationInstallations(w.org.id)).data.items.map((i) => i.integration.name)).toEqual(['my-app', 'tracker'])

    const bad = await failure(w.gb.orgs.listOrganizationInstallations(w.org.id, { limit: -1 }))
    expect(bad.code).toBe(400)
    expect(bad.message).toContain('`limit`')
    expect((await failure(w.rita.orgs.listOrganizationInstallations(w.org.id))).code).toBe(403)
    expect((await failure(w.olga.orgs.listOrganizationInstallations(w.org.id))).code).toBe(404)
  })

  it('getOrganizationIntegrationStatus: the installation status, `pending` when not installed, 404 for an unknown or hidden integration', async () => {
    const w = await world()
    const installed = await w.rita.orgs.getOrganizationIntegrationStatus(w.org.id, 'my-app')
    expectOfficialResponse('getOrganizationIntegrationStatus', 200, installed.data)
    expect(installed.data).toEqual({ status: 'active' })
    const notInstalled = await w.rita.orgs.getOrganizationIntegrationStatus(w.org.id, 'secret')
    expectOfficialResponse('getOrganizationIntegrationStatus', 200, notInstalled.data)
    expect(notInstalled.data).toEqual({ status: 'pending' })

    for (const name of ['nope', 'globex-private', 'bad name!']) {
      const missing = await failure(w.gb.orgs.getOrganizationIntegrationStatus(w.org.id, name))
      expect(missing.code, name).toBe(404)
      expect(missing.message).toContain('Integration not found')
    }
    expect((await failure(w.gina.orgs.getOrganizationIntegrationStatus(w.org.id, 'my-app'))).code).toBe(403)
    expect((await failure(w.olga.orgs.getOrganizationIntegrationStatus(w.org.id, 'my-app'))).code).toBe(404)
  })

  it('listOrganizationIntegrationsStatus: by target (organization by default, space, site), one space or site, the fields checked', async () => {
    const w = await world()
    const orgLevel = await w.rita.orgs.listOrganizationIntegrationsStatus(w.org.id)
    expectOfficialResponse('listOrganizationIntegrationsStatus', 200, orgLevel.data)
    expect(orgLevel.data.items.map((i) => [i.integration.name, i.status, i.target])).toEqual([
      ['my-app', 'active', { type: 'organization', organizationId: w.org.id }],
      ['tracker', 'active', { type: 'organization', organizationId: w.org.id }],
      ['globex-unlisted', 'active', { type: 'organization', organizationId: w.org.id }],
    ])

    const spaces = await w.rita.orgs.listOrganizationIntegrationsStatus(w.org.id, { target: 'space' })
    expectOfficialResponse('listOrganizationIntegrationsStatus', 200, spaces.data)
    expect(spaces.data.items.map((i) => [i.integration.name, i.target])).toEqual([
      ['my-app', { type: 'space', spaceId: w.space.id }],
      ['globex-unlisted', { type: 'space', spaceId: w.space.id }],
    ])
    const oneSpace = await w.rita.orgs.listOrganizationIntegrationsStatus(w.org.id, { target: 'space', space: w.space.id, limit: 1 })
    expect(oneSpace.data.items.map((i) => i.integration.name)).toEqual(['my-app'])
    expect(oneSpace.data.count).toBe(2)

    const sites = await w.rita.orgs.listOrganizationIntegrationsStatus(w.org.id, { target: 'site', site: w.site.id })
    expectOfficialResponse('listOrganizationIntegrationsStatus', 200, sites.data)
    expect(sites.data.items.map((i) => [i.integration.name, i.target])).toEqual([
      ['my-app', { type: 'site', siteId: w.site.id }],
      ['tracker', { type: 'site', siteId: w.site.id }],
    ])

    const siteWithoutTarget = await failure(w.gb.orgs.listOrganizationIntegrationsStatus(w.org.id, { site: w.site.id }))
    expect(siteWithoutTarget.code).toBe(400)
    expect(siteWithoutTarget.message).toContain('`site`')
    expect((await failure(w.gb.orgs.listOrganizationIntegrationsStatus(w.org.id, { target: 'site', space: w.space.id }))).message).toContain('`space`')
    const otherSite = await failure(w.gb.orgs.listOrganizationIntegrationsStatus(w.org.id, { target: 'site', site: w.globexSite.id }))
    expect(otherSite.code).toBe(400)
    expect(otherSite.message).toContain('`site`')
    const badTarget = await failure(w.gb.orgs.listOrganizationIntegrationsStatus(w.org.id, { target: 'everything' as never }))
    expect(badTarget.code).toBe(400)
    expect(badTarget.message).toContain('`target`')
    expect((await failure(w.gina.orgs.listOrganizationIntegrationsStatus(w.org.id))).code).toBe(403)
    expect((await failure(w.olga.orgs.listOrganizationIntegrationsStatus(w.org.id))).code).toBe(404)
  })

  it('listSpaceIntegrations and listSpaceIntegrationsBlocks: what is installed on the space, for its readers', async () => {
    const w = await world()
    const list = await w.rita.spaces.listSpaceIntegrations(w.space.id)
    expectOfficialResponse('listSpaceIntegrations', 200, list.data)
    expect(names(list.data.items)).toEqual(['my-app', 'globex-unlisted'])
    const searched = await w.rita.spaces.listSpaceIntegrations(w.space.id, { search: 'UNLISTED' })
    expectOfficialResponse('listSpaceIntegrations', 200, searched.data)
    expect(names(searched.data.items)).toEqual(['globex-unlisted'])

    const blocks = await w.rita.spaces.listSpaceIntegrationsBlocks(w.space.id)
    expectOfficialResponse('listSpaceIntegrationsBlocks', 200, blocks.data)
    // globex-unlisted declares no block.
    expect(blocks.data).toEqual([{ name: 'my-app', blocks: [{ id: 'embed', title: 'Embed', urlUnfurl: ['https://example.com'] }] }])

    // A private integration installed here is hidden from those who may not see it.
    await w.publish('globex-unlisted', { organization: w.globex.id, visibility: 'private' }, w.tokens.olga)
    expect(names((await w.rita.spaces.listSpaceIntegrations(w.space.id)).data.items)).toEqual(['my-app'])

    const bad = await call(w.api, w.tokens.rita, 'GET', `/v1/spaces/${w.space.id}/integrations?limit=ten`)
    expect(bad.status).toBe(400)
    expect(bad.body.error.message).toContain('`limit`')
    for (const c of [w.gina, w.olga]) {
      expect((await failure(c.spaces.listSpaceIntegrations(w.space.id))).code).toBe(404)
      expect((await failure(c.spaces.listSpaceIntegrationsBlocks(w.space.id))).code).toBe(404)
    }
    expect((await failure(w.gb.spaces.listSpaceIntegrationsBlocks('no-such-space'))).code).toBe(404)
  })

  it('listSiteIntegrations and listSiteIntegrationScripts: what is installed on the site, the scripts of the integrations that inject one', async () => {
    const w = await world()
    const list = await w.rita.orgs.listSiteIntegrations(w.org.id, w.site.id)
    expectOfficialResponse('listSiteIntegrations', 200, list.data)
    expect(names(list.data.items)).toEqual(['my-app', 'tracker'])
    expect(names((await w.rita.orgs.listSiteIntegrations(w.org.id, w.site.id, { search: 'track' })).data.items)).toEqual(['tracker'])

    const scripts = await w.rita.orgs.listSiteIntegrationScripts(w.org.id, w.site.id)
    expectOfficialResponse('listSiteIntegrationScripts', 200, scripts.data)
    expect(scripts.data).toEqual([
      {
        script: `http://localhost:4000/integrations/tracker/installations/${w.installations.tracker.id}/sites/${w.site.id}/script.js`,
        contentSecurityPolicy: 'script-src https://t.example; connect-src https://t.example',
        cookies: true,
      },
    ])
    // Published again without the cookies scope: `cookies` is false.
    await w.publish('tracker', { visibility: 'public', target: 'site', scopes: ['site:script:inject'] })
    expect((await w.rita.orgs.listSiteIntegrationScripts(w.org.id, w.site.id)).data).toEqual([
      { script: expect.stringMatching(/\/script\.js$/), cookies: false },
    ])

    const bad = await call(w.api, w.tokens.rita, 'GET', `/v1/orgs/${w.org.id}/sites/${w.site.id}/integrations?limit=0.5`)
    expect(bad.status).toBe(400)
    expect(bad.body.error.message).toContain('`limit`')
    // A site of another organization under this one, a guest, an outsider: not found.
    expect((await failure(w.gb.orgs.listSiteIntegrations(w.org.id, w.globexSite.id))).code).toBe(404)
    expect((await failure(w.gb.orgs.listSiteIntegrationScripts(w.org.id, w.globexSite.id))).code).toBe(404)
    for (const c of [w.gina, w.olga]) {
      expect((await failure(c.orgs.listSiteIntegrations(w.org.id, w.site.id))).code).toBe(404)
      expect((await failure(c.orgs.listSiteIntegrationScripts(w.org.id, w.site.id))).code).toBe(404)
    }
  })

  it('the lists of an unknown integration are 404, never an empty 200', async () => {
    const w = await world()
    const gb = w.gb.integrations
    for (const request of [
      gb.listIntegrationInstallations('nope'),
      gb.listIntegrationSpaceInstallations('nope'),
      gb.listIntegrationSiteInstallations('nope'),
      gb.listIntegrationEvents('nope'),
      // A private integration of another organization is unknown to Acme's admin.
      gb.listIntegrationInstallations('globex-private'),
    ]) {
      const res = await failure(request)
      expect(res.code).toBe(404)
      expect(res.message).toContain('Integration not found')
    }
  })
})
