import { GitBookAPI, GitBookAPIError, IntegrationInstallationSpaceSelection, IntegrationScope, IntegrationVisibility } from '@gitbook/api'
import { describe, expect, it } from 'vitest'
import { createDocsApi } from '../../src/index.js'
import { call } from '../helpers.js'
import { expectNoChange, integrationWorld, type IntegrationWorld } from '../domains/integrations/helpers.js'
import { expectOfficialResponse } from './official.js'

const DAY = 24 * 60 * 60 * 1000

/** The status and message of a call through the official client that must fail. */
async function failure(promise: Promise<unknown>): Promise<{ code: number; message: string }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(GitBookAPIError)
  return { code: (error as GitBookAPIError).code, message: (error as GitBookAPIError).message }
}

/**
 * Globex (Olga admin) publishes a public `my-app` declaring a configuration for each target; Acme
 * (Ada admin) installs it and enables it on a space and a site.
 */
async function installed(w: IntegrationWorld) {
  const client = (token: string) => new GitBookAPI({ endpoint: 'http://localhost:4000', authToken: token, serviceBinding: { fetch: w.api.fetch } })
  const ada = client(w.tokens.ada)
  const olga = client(w.tokens.olga)
  const rita = client(w.tokens.rita)
  await olga.integrations.publishIntegration('my-app', {
    organization: w.globex.id,
    title: 'My app',
    description: 'Does useful things',
    script: 'export default {}',
    scopes: [IntegrationScope.SpaceContentRead],
    visibility: IntegrationVisibility.Public,
    configurations: {
      account: {
        properties: { token: { type: 'string', title: 'Token' }, mode: { type: 'string', enum: ['fast', 'safe'] }, retries: { type: 'number' } },
        required: ['token'],
      },
      space: { properties: { channel: { type: 'string' }, notify: { type: 'boolean' } }, required: ['channel'] },
      site: { componentId: 'site-config' },
    },
  })
  const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Handbook' })
  const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs' })
  const installation = (await ada.integrations.installIntegration('my-app', { organization: w.org.id })).data
  await ada.integrations.installIntegrationOnSpace('my-app', installation.id, { space: space.id })
  await ada.integrations.installIntegrationOnSite('my-app', installation.id, { siteId: site.id })
  return { ada, olga, rita, space, site, installation }
}

describe('conformance: completing installations through @gitbook/api', () => {
  it('configure, read and uninstall on an organization, a space and a site: official answers, events recorded and delivered', async () => {
    const deliveries: Array<Record<string, unknown>> = []
    const w = await integrationWorld({
      integrations: {
        'my-app': async (request) => {
          deliveries.push(JSON.parse(String((await request.formData()).get('event'))))
          return new Response('OK')
        },
      },
      integrationDelivery: { retryDelays: [0] },
    })
    const { ada, olga, space, site, installation } = await installed(w)

    const updated = await ada.integrations.updateIntegrationInstallation('my-app', installation.id, {
      configuration: { token: 'secret', mode: 'fast', retries: 3, extra: { kept: true } },
      externalIds: ['acme-1'],
      space_selection: IntegrationInstallationSpaceSelection.Selected,
    })
    expect(updated.status).toBe(200)
    expectOfficialResponse('updateIntegrationInstallation', 200, updated.data)
    expect(updated.data).toMatchObject({ configuration: { token: 'secret', mode: 'fast', retries: 3, extra: { kept: true } }, externalIds: ['acme-1'] })
    expect((await olga.integrations.listIntegrationInstallations('my-app', { externalId: 'acme-1' })).data.count).toBe(1)
    // externalIds alone: no event.
    await ada.integrations.updateIntegrationInstallation('my-app', installation.id, { externalIds: ['acme-1', 'acme-2'] })

    for (const reader of [ada, olga]) {
      for (const extended of [false, true]) {
        const spaces = await reader.integrations.listIntegrationInstallationSpaces('my-app', installation.id, { extended })
        expectOfficialResponse('listIntegrationInstallationSpaces', 200, spaces.data)
        expect(spaces.data.items.map((i) => (typeof i.space === 'string' ? i.space : i.space.id))).toEqual([space.id])
        const sites = await reader.integrations.listIntegrationInstallationSites('my-app', installation.id, { extended })
        expectOfficialResponse('listIntegrationInstallationSites', 200, sites.data)
        expect(sites.data.count).toBe(1)
      }
    }
    const onSpace = await olga.integrations.getIntegrationSpaceInstallation('my-app', installation.id, space.id, { extended: true })
    expectOfficialResponse('getIntegrationSpaceInstallation', 200, onSpace.data)
    const onSite = await ada.integrations.getIntegrationSiteInstallation('my-app', installation.id, site.id)
    expectOfficialResponse('getIntegrationSiteInstallation', 200, onSite.data)
    expect(onSite.data.site).toBe(site.id)

    const spaceUpdated = await ada.integrations.updateIntegrationSpaceInstallation(
      'my-app',
      installation.id,
      space.id,
      { configuration: { channel: '#docs', notify: true }, externalIds: ['chan'] },
      { extended: false },
    )
    expectOfficialResponse('updateIntegrationSpaceInstallation', 200, spaceUpdated.data)
    expect(spaceUpdated.data).toMatchObject({ space: space.id, configuration: { channel: '#docs', notify: true }, externalIds: ['chan'] })
    // A ContentKit configuration (componentId) is the integration's own: anything is kept.
    const siteUpdated = await ada.integrations.updateIntegrationSiteInstallation('my-app', installation.id, site.id, { configuration: { anything: [1, 2] } })
    expectOfficialResponse('updateIntegrationSiteInstallation', 200, siteUpdated.data)
    expect(siteUpdated.data.configuration).toEqual({ anything: [1, 2] })

    const fromSpace = await ada.integrations.uninstallIntegrationFromSpace('my-app', installation.id, space.id)
    expect(fromSpace.status).toBe(205)
    expectOfficialResponse('uninstallIntegrationFromSpace', 205, undefined)
    expect((await ada.integrations.uninstallIntegrationFromSpace('my-app', installation.id, space.id)).status).toBe(204)
    expect((await failure(ada.integrations.getIntegrationSpaceInstallation('my-app', installation.id, space.id))).code).toBe(404)
    expect((await ada.integrations.getIntegrationInstallationById('my-app', installation.id)).data.spaces).toBe(0)
    // Enabled again on the space, it is uninstalled with its installation below.
    await ada.integrations.installIntegrationOnSpace('my-app', installation.id, { space: space.id })

    const uninstalled = await ada.integrations.uninstallIntegration('my-app', installation.id)
    expect(uninstalled.status).toBe(205)
    expectOfficialResponse('uninstallIntegration', 205, undefined)
    expect((await ada.integrations.uninstallIntegration('my-app', installation.id)).status).toBe(204)
    expect((await failure(ada.integrations.getIntegrationInstallationById('my-app', installation.id))).code).toBe(404)
    expect((await olga.integrations.listIntegrationSpaceInstallations('my-app')).data.count).toBe(0)
    expect((await olga.integrations.listIntegrationSiteInstallations('my-app')).data.count).toBe(0)
    // The organization may install it again, as new.
    expect((await ada.integrations.installIntegration('my-app', { organization: w.org.id })).status).toBe(201)

    await w.api.idle()
    // Each event is delivered by a job of its own, and jobs run side by side (a delivery signs its
    // body with WebCrypto, whose answers may come in another order on a busy machine): every event
    // once, in whatever order.
    expect(deliveries.map((e) => e.type).sort()).toEqual(
      [
        'installation_setup',
        'space_installation_setup',
        'site_installation_setup',
        'installation_setup',
        'space_installation_setup',
        'site_installation_setup',
        'space_installation_deleted',
        'space_installation_setup',
        'installation_deleted',
        'installation_setup',
      ].sort(),
    )
    // The second installation_setup: the configuration update, which says what it was before.
    expect(deliveries.filter((e) => e.type === 'installation_setup')[1]).toMatchObject({
      installationId: installation.id,
      status: 'active',
      previous: { status: 'active', configuration: {} },
    })
    expect(deliveries.filter((e) => e.type === 'space_installation_setup')[1]).toMatchObject({
      spaceId: space.id,
      status: 'active',
      previous: { status: 'active', configuration: {} },
    })
    expect(deliveries.find((e) => e.type === 'space_installation_deleted')).toEqual({
      eventId: expect.any(String),
      type: 'space_installation_deleted',
      spaceId: space.id,
      installationId: installation.id,
      previous: { configuration: { channel: '#docs', notify: true } },
    })
    expect(deliveries.find((e) => e.type === 'installation_deleted')).toMatchObject({
      type: 'installation_deleted',
      installationId: installation.id,
      previous: { configuration: { token: 'secret', mode: 'fast', retries: 3, extra: { kept: true } } },
    })
    const events = await olga.integrations.listIntegrationEvents('my-app', { limit: 20 })
    expectOfficialResponse('listIntegrationEvents', 200, events.data)
    expect(events.data.items.map((e) => e.status)).toEqual(Array(10).fill('success'))

    // A state document keeps the events of the uninstalled installation (its installation_deleted event vouches for it).
    const state = w.api.dump()
    const copy = createDocsApi({ baseUrl: 'http://localhost:4000', seed: state })
    expect(copy.dump().integrationEvents).toEqual(state.integrationEvents)
    // Without that event, an event naming a missing installation is refused, naming the field.
    const orphan = { ...state, integrationEvents: state.integrationEvents!.filter((e) => e.payload.type !== 'installation_deleted') }
    expect(() => createDocsApi({ seed: orphan })).toThrow(/integrationEvents\[\d+\]\.installation.*installation_deleted/)
  })

  it('bad input: a configuration off its schema, too many external ids, `all` selections: a 400 naming the field, and nothing changes', async () => {
    const w = await integrationWorld()
    const { installation, space } = await installed(w)
    const path = `/v1/integrations/my-app/installations/${installation.id}`
    const cases: Array<[string, Record<string, unknown>, string]> = [
      [path, { configuration: { token: 5 } }, '`configuration.token`: must be a string'],
      [path, { configuration: { token: 'x', mode: 'slow' } }, '`configuration.mode`: must be one of "fast", "safe"'],
      [path, { configuration: { mode: 'fast' } }, '`configuration.token`: is required'],
      [path, { configuration: { token: 'x', retries: '3' } }, '`configuration.retries`: must be a number'],
      [path, { externalIds: ['1', '2', '3', '4', '5', '6'] }, 'externalIds'],
      [path, { space_selection: 'all' }, '`space_selection`: only "selected"'],
      [path, { configuration: 'nope' }, 'configuration'],
      [`${path}/spaces/${space.id}`, { configuration: { channel: '#x', notify: 'yes' } }, '`configuration.notify`: must be a boolean'],
      [`${path}/spaces/${space.id}`, { configuration: { notify: true } }, '`configuration.channel`: is required'],
    ]
    for (const [url, body, message] of cases) {
      const res = await expectNoChange(w, () => call(w.api, w.tokens.ada, 'PATCH', url, body))
      expect(res.status, JSON.stringify(body)).toBe(400)
      // The official document declares no 400 for these operations: the API's error shape.
      expect(res.body.error.code).toBe(400)
      expect(res.body.error.message).toContain(message)
    }
    // Unknown integration, installation, space or site installation: 404.
    for (const [method, url] of [
      ['PATCH', `/v1/integrations/nope/installations/${installation.id}`],
      ['PATCH', `/v1/integrations/my-app/installations/missing`],
      ['GET', `/v1/integrations/my-app/installations/missing/spaces`],
      ['GET', `/v1/integrations/my-app/installations/missing/sites`],
      ['GET', `/v1/integrations/nope/installations/${installation.id}/sites`],
      ['GET', `${path}/spaces/missing`],
      ['PATCH', `${path}/sites/missing`],
      ['DELETE', `/v1/integrations/nope/installations/${installation.id}`],
    ] as const) {
      const res = await expectNoChange(w, () => call(w.api, w.tokens.ada, method, url, method === 'PATCH' ? { externalIds: [] } : undefined))
      expect(res.status, `${method} ${url}`).toBe(404)
    }
  })

  it("permissions: the installing organization's admins manage; the owner's admins read; others get a 403 or a 404, and nothing changes", async () => {
    const w = await integrationWorld()
    const { olga, rita, installation, space, site } = await installed(w)
    const forbidden = [
      [olga, 'updateIntegrationInstallation', () => olga.integrations.updateIntegrationInstallation('my-app', installation.id, { externalIds: ['x'] })],
      [olga, 'uninstallIntegration', () => olga.integrations.uninstallIntegration('my-app', installation.id)],
      [olga, 'updateIntegrationSpaceInstallation', () => olga.integrations.updateIntegrationSpaceInstallation('my-app', installation.id, space.id, {})],
      [olga, 'uninstallIntegrationFromSite', () => olga.integrations.uninstallIntegrationFromSite('my-app', installation.id, site.id)],
      [rita, 'updateIntegrationInstallation', () => rita.integrations.updateIntegrationInstallation('my-app', installation.id, { externalIds: ['x'] })],
      [rita, 'uninstallIntegration', () => rita.integrations.uninstallIntegration('my-app', installation.id)],
      [rita, 'listIntegrationInstallationSpaces', () => rita.integrations.listIntegrationInstallationSpaces('my-app', installation.id)],
      [rita, 'listIntegrationInstallationSites', () => rita.integrations.listIntegrationInstallationSites('my-app', installation.id)],
      [rita, 'getIntegrationSpaceInstallation', () => rita.integrations.getIntegrationSpaceInstallation('my-app', installation.id, space.id)],
      [rita, 'getIntegrationSiteInstallation', () => rita.integrations.getIntegrationSiteInstallation('my-app', installation.id, site.id)],
      [rita, 'updateIntegrationSpaceInstallation', () => rita.integrations.updateIntegrationSpaceInstallation('my-app', installation.id, space.id, {})],
      [rita, 'updateIntegrationSiteInstallation', () => rita.integrations.updateIntegrationSiteInstallation('my-app', installation.id, site.id, {})],
      [rita, 'uninstallIntegrationFromSpace', () => rita.integrations.uninstallIntegrationFromSpace('my-app', installation.id, space.id)],
      [rita, 'uninstallIntegrationFromSite', () => rita.integrations.uninstallIntegrationFromSite('my-app', installation.id, site.id)],
    ] as const
    for (const [, id, request] of forbidden) {
      // Deliveries of earlier requests end first: they are not this request's change.
      await w.api.idle()
      const before = w.api.dump()
      const { code, message } = await failure(request())
      expect(code, id).toBe(403)
      expect(message.length).toBeGreaterThan(0)
      expect(w.api.dump()).toEqual(before)
    }
    // A user of neither organization does not see the installation (404); a delete of it answers 204 and removes nothing.
    const sam = await w.api.fixtures.createUser({ displayName: 'Sam' })
    const stranger = { token: await w.api.fixtures.createToken(sam.id) }
    const path = `/v1/integrations/my-app/installations/${installation.id}`
    for (const [method, url, status] of [
      ['PATCH', path, 404],
      ['GET', `${path}/spaces`, 404],
      ['GET', `${path}/sites/${site.id}`, 404],
      ['DELETE', path, 204],
      ['DELETE', `${path}/spaces/${space.id}`, 204],
    ] as const) {
      const res = await expectNoChange(w, () => call(w.api, stranger.token, method, url, method === 'PATCH' ? {} : undefined))
      expect(res.status, `${method} ${url}`).toBe(status)
    }
    const res = await call(w.api, w.tokens.ada, 'GET', `${path}/spaces/${space.id}`)
    expect(res.status).toBe(200)
  })

  it('a purged space and a deleted site take their installations with them', async () => {
    const w = await integrationWorld()
    const { ada, olga, installation, space, site } = await installed(w)
    await ada.spaces.deleteSpaceById(space.id)
    w.clock.advance(8 * DAY)
    // A restore past the window purges the space.
    expect((await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/restore`)).status).toBe(404)
    expect(w.api.dump().integrationSpaceInstallations).toEqual([])
    expect((await olga.integrations.listIntegrationSpaceInstallations('my-app')).data.count).toBe(0)
    await ada.orgs.deleteSiteById(w.org.id, site.id)
    expect(w.api.dump().integrationSiteInstallations).toEqual([])
    expect((await ada.integrations.getIntegrationInstallationById('my-app', installation.id)).data.spaces).toBe(0)
  })
})
