import { GitBookAPI, GitBookAPIError, IntegrationCategory, IntegrationScope, IntegrationTarget, IntegrationVisibility } from '@gitbook/api'
import { describe, expect, it } from 'vitest'
import { integrationWorld } from '../domains/integrations/helpers.js'
import { expectOfficialResponse } from './official.js'

/**
 * Every integration operation through the official client (`@gitbook/api`, `serviceBinding` to
 * `api.fetch`), each answer checked against the official response schema of its operation.
 */
describe('conformance: integrations through @gitbook/api', () => {
  it('publish, get, list, install on an organization, a space and a site, the lists, events with their trace, unpublish', async () => {
    const deliveries: string[] = []
    const w = await integrationWorld({
      integrations: {
        'my-app': async (request) => {
          deliveries.push(JSON.parse(String((await request.formData()).get('event'))).type)
          return new Response('OK')
        },
      },
      integrationDelivery: { retryDelays: [0] },
    })
    const gb = new GitBookAPI({ endpoint: 'http://localhost:4000', authToken: w.tokens.ada, serviceBinding: { fetch: w.api.fetch } })
    const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Handbook' })
    const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs' })

    const published = await gb.integrations.publishIntegration('my-app', {
      organization: w.org.id,
      title: 'My app',
      description: 'Does useful things',
      script: 'export default {}',
      scopes: [IntegrationScope.SpaceContentRead],
      visibility: IntegrationVisibility.Public,
      categories: [IntegrationCategory.Content],
      blocks: [{ id: 'embed', title: 'Embed', urlUnfurl: ['https://example.com'] }],
      externalLinks: [{ url: 'https://example.com', label: 'Home' }],
      configurations: { account: { properties: { token: { type: 'string', title: 'Token' } }, required: ['token'] } },
    })
    expect(published.status).toBe(200)
    expectOfficialResponse('publishIntegration', 200, published.data)
    expect(published.data).toMatchObject({ name: 'my-app', version: 1, target: 'all', verified: false })
    expect(
      (
        await gb.integrations.publishIntegration('my-app', {
          organization: w.org.id,
          title: 'My app',
          description: 'v2',
          script: 's',
          scopes: [],
          visibility: IntegrationVisibility.Public,
          blocks: [{ id: 'embed', title: 'Embed', urlUnfurl: ['https://example.com'] }],
        })
      ).data.version,
    ).toBe(2)

    const got = await gb.integrations.getIntegrationByName('my-app')
    expectOfficialResponse('getIntegrationByName', 200, got.data)
    const list = await gb.integrations.listIntegrations({
      search: 'my',
      blocks: true,
      blockDomain: 'example.com',
      owner: w.org.id,
      target: IntegrationTarget.Space,
      limit: 10,
    })
    expectOfficialResponse('listIntegrations', 200, list.data)
    expect(list.data.items.map((i) => i.name)).toEqual(['my-app'])

    const installation = await gb.integrations.installIntegration('my-app', { organization: w.org.id })
    expect(installation.status).toBe(201)
    expectOfficialResponse('installIntegration', 201, installation.data)
    const onSpace = await gb.integrations.installIntegrationOnSpace('my-app', installation.data.id, { space: space.id }, { extended: true })
    expect(onSpace.status).toBe(201)
    expectOfficialResponse('installIntegrationOnSpace', 201, onSpace.data)
    const onSite = await gb.integrations.installIntegrationOnSite('my-app', installation.data.id, { siteId: site.id })
    expect(onSite.status).toBe(201)
    expectOfficialResponse('installIntegrationOnSite', 201, onSite.data)

    const byId = await gb.integrations.getIntegrationInstallationById('my-app', installation.data.id)
    expectOfficialResponse('getIntegrationInstallationById', 200, byId.data)
    expect(byId.data.spaces).toBe(1)
    const installations = await gb.integrations.listIntegrationInstallations('my-app', { externalId: 'none' })
    expectOfficialResponse('listIntegrationInstallations', 200, installations.data)
    const all = await gb.integrations.listIntegrationInstallations('my-app')
    expectOfficialResponse('listIntegrationInstallations', 200, all.data)
    expect(all.data.items[0]!.spaces).toBe(1)
    for (const extended of [false, true]) {
      const spaces = await gb.integrations.listIntegrationSpaceInstallations('my-app', { extended })
      expectOfficialResponse('listIntegrationSpaceInstallations', 200, spaces.data)
      expect(spaces.data.count).toBe(1)
      const sites = await gb.integrations.listIntegrationSiteInstallations('my-app', { extended })
      expectOfficialResponse('listIntegrationSiteInstallations', 200, sites.data)
      expect(sites.data.count).toBe(1)
    }

    await w.api.idle()
    expect(deliveries).toEqual(['installation_setup', 'space_installation_setup', 'site_installation_setup'])
    const events = await gb.integrations.listIntegrationEvents('my-app', { limit: 10 })
    expectOfficialResponse('listIntegrationEvents', 200, events.data)
    expect(events.data.items.map((e) => e.status)).toEqual(['success', 'success', 'success'])
    const event = await gb.integrations.getIntegrationEvent('my-app', events.data.items[0]!.id)
    expectOfficialResponse('getIntegrationEvent', 200, event.data)
    expect(event.data.trace?.logs.at(-1)?.message).toBe('Delivered: the handler answered 200')

    const unpublished = await gb.integrations.unpublishIntegration('my-app')
    // The official document answers 205 for an actual removal; the reference answers 204.
    expect(unpublished.status).toBe(204)
    expectOfficialResponse('unpublishIntegration', 204, undefined)
    expect((await gb.integrations.unpublishIntegration('my-app')).status).toBe(204)
    const missing = await gb.integrations.getIntegrationByName('my-app').catch((error: unknown) => error)
    expect(missing).toBeInstanceOf(GitBookAPIError)
    expect((missing as GitBookAPIError).code).toBe(404)
  })
})
