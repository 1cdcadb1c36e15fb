import { GitBookAPI, GitBookAPIError, IntegrationScope } from '@gitbook/api'
import { describe, expect, it } from 'vitest'
import { createDocsApi } from '../../src/index.js'
import { API_CORE } from '../../src/http/api-core.js'
import { inSystemTransaction } from '../../src/core/execute.js'
import { removeRow } from '../../src/domains/ownership.js'
import { integrationWorld, type IntegrationWorld } from '../domains/integrations/helpers.js'
import { INSTALLATION_TOKENS_KEPT } from '../../src/domains/integrations/tokens-model.js'
import { expectOfficialResponse } from './official.js'

const ENDPOINT = 'http://localhost:4000'

/**
 * `@gitbook/runtime` ships its TypeScript source, which needs the Workers types to typecheck: it is
 * imported by a name the typecheck does not follow, typed with what this test uses of it.
 */
const RUNTIME = '@gitbook/runtime'
interface RuntimeContext {
  api: GitBookAPI
}
interface Runtime {
  createIntegration(definition: { events: Record<string, (event: { spaceId: string }, context: RuntimeContext) => Promise<void>> }): {
    fetch(request: Request, env: unknown, ctx: unknown): Promise<Response>
  }
}
const client = (w: IntegrationWorld, token: string) => new GitBookAPI({ endpoint: ENDPOINT, authToken: token, serviceBinding: { fetch: w.api.fetch } })

/** The status and message of a call the client rejects (GitBookAPIError), or the status of its success. */
async function outcome(p: Promise<{ status: number }>): Promise<{ status: number; message?: string }> {
  try {
    return { status: (await p).status }
  } catch (error) {
    if (!(error instanceof GitBookAPIError)) throw error
    return { status: error.code, message: error.errorMessage }
  }
}

/** Ada's app, reading and writing space content, installed on Acme and enabled on one space and one site. */
async function installedApp(scopes: IntegrationScope[] = [IntegrationScope.SpaceContentRead, IntegrationScope.SpaceContentWrite]) {
  const w = await integrationWorld()
  const ada = client(w, w.tokens.ada)
  const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Handbook' })
  const other = await w.api.fixtures.createSpace(w.org.id, { title: 'Elsewhere' })
  const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs' })
  await ada.integrations.publishIntegration('my-app', { organization: w.org.id, title: 'My app', description: 'd', script: 's', scopes })
  const installation = (await ada.integrations.installIntegration('my-app', { organization: w.org.id })).data
  await ada.integrations.installIntegrationOnSpace('my-app', installation.id, { space: space.id })
  await ada.integrations.installIntegrationOnSite('my-app', installation.id, { siteId: site.id })
  return { w, ada, space, other, site, installation }
}

describe('conformance: installation tokens through @gitbook/api', () => {
  it("creates a token that reads and writes the space it is installed on, within the integration's scopes", async () => {
    const { w, ada, space, installation } = await installedApp()
    const created = await ada.integrations.createIntegrationInstallationToken('my-app', installation.id)
    expect(created.status).toBe(200)
    expectOfficialResponse('createIntegrationInstallationToken', 200, created.data)
    const { token, expiresAt } = created.data as { token: string; expiresAt: string }
    expect(token).toMatch(/^gb_inst_/)
    // An hour by the API's clock.
    expect(Date.parse(expiresAt) - w.clock.now().getTime()).toBe(60 * 60 * 1000)

    const app = client(w, token)
    const before = await app.spaces.listPages(space.id)
    expectOfficialResponse('listPages', 200, before.data)
    // Write through a change request, merged.
    const cr = await app.spaces.createChangeRequest(space.id, { subject: 'From the app' })
    expect(cr.status).toBe(201)
    expectOfficialResponse('createChangeRequest', 201, cr.data)
    const changed = await app.spaces.updateChangeRequestContent(space.id, cr.data.id, {
      changes: [{ operation: 'insert_page', title: 'Written by the app', document: {} } as never],
    })
    expect(changed.status).toBe(200)
    const merged = await app.spaces.mergeChangeRequest(space.id, cr.data.id)
    expectOfficialResponse('mergeChangeRequest', 200, merged.data)
    expect(merged.data.result).toBe('merge')
    const after = await client(w, w.tokens.ada).spaces.listPages(space.id)
    expect(after.data.pages.map((p) => p.title)).toContain('Written by the app')
    expect(after.data.pages.length).toBe(before.data.pages.length + 1)
    // What it wrote names the integration's own user (no member of the organization).
    expect(cr.data.createdBy.displayName).toBe('My app')
    expect((await client(w, w.tokens.ada).orgs.listMembersInOrganizationById(w.org.id)).data.items.map((m) => m.user.id)).not.toContain(cr.data.createdBy.id)
    // The state, token included, saves and loads: the token works on the API that loaded it.
    const loaded = createDocsApi({ baseUrl: ENDPOINT, now: w.clock.now, seed: w.api.dump() })
    const reloaded = new GitBookAPI({ endpoint: ENDPOINT, authToken: token, serviceBinding: { fetch: loaded.fetch } })
    expect((await reloaded.spaces.listPages(space.id)).data.pages.map((p) => p.title)).toContain('Written by the app')
  })

  it('refuses what its scopes do not allow (403) and what is not a target of its installation (404)', async () => {
    const { w, ada, space, other, site, installation } = await installedApp([IntegrationScope.SpaceContentRead])
    const { token } = (await ada.integrations.createIntegrationInstallationToken('my-app', installation.id)).data
    const app = client(w, token)
    // Installed on the space, without the write scope.
    const write = await outcome(app.spaces.createChangeRequest(space.id, { subject: 'No' }))
    expect(write.status).toBe(403)
    expect(write.message).toContain('space:content:write')
    // The space's metadata needs its own scope.
    expect((await outcome(app.spaces.getSpaceById(space.id))).status).toBe(403)
    // On the site, without a site scope.
    expect((await outcome(app.orgs.getSiteById(w.org.id, site.id))).status).toBe(403)
    // Operations installation tokens never call (people's business).
    expect((await outcome(app.orgs.listMembersInOrganizationById(w.org.id))).status).toBe(403)
    expect((await outcome(app.user.getAuthenticatedUser())).status).toBe(403)
    // A space of the organization the installation is not enabled on: as for a non-member.
    const outside = await outcome(app.spaces.listPages(other.id))
    expect(outside.status).toBe(404)
    expect((await outcome(app.orgs.getSiteById(w.globex.id, site.id))).status).toBe(404)
  })

  it('is refused once expired, once its installation is gone, once the integration is unpublished', async () => {
    const { w, ada, space, installation } = await installedApp()
    const first = (await ada.integrations.createIntegrationInstallationToken('my-app', installation.id)).data.token
    const app = client(w, first)
    expect((await app.spaces.listPages(space.id)).status).toBe(200)
    // Expiry, by the API's clock.
    w.clock.advance(60 * 60 * 1000 - 1)
    expect((await app.spaces.listPages(space.id)).status).toBe(200)
    w.clock.advance(1)
    const expired = await outcome(app.spaces.listPages(space.id))
    expect(expired.status).toBe(401)

    // The space installation removed (as uninstallIntegrationFromSpace does): the space is no longer a target.
    const second = (await ada.integrations.createIntegrationInstallationToken('my-app', installation.id)).data.token
    const rt = w.api[API_CORE].runtime
    inSystemTransaction(rt, (ctx) => removeRow(ctx as never, 'integrationSpaceInstallations', `${installation.id}/${space.id}`))
    expect((await outcome(client(w, second).spaces.listPages(space.id))).status).toBe(404)
    // The installation removed (as uninstallIntegration does): the token is no bearer any more.
    inSystemTransaction(rt, (ctx) => removeRow(ctx as never, 'integrationInstallations', installation.id))
    expect((await outcome(client(w, second).spaces.listPages(space.id))).status).toBe(401)
    expect(w.api.store.read((tx) => tx.all('integrationInstallationTokens'))).toEqual([])

    // Unpublished: every token of its installations stops.
    const again = (await ada.integrations.installIntegration('my-app', { organization: w.org.id })).data
    await ada.integrations.installIntegrationOnSpace('my-app', again.id, { space: space.id })
    const third = (await ada.integrations.createIntegrationInstallationToken('my-app', again.id)).data.token
    expect((await client(w, third).spaces.listPages(space.id)).status).toBe(200)
    await ada.integrations.unpublishIntegration('my-app')
    expect((await outcome(client(w, third).spaces.listPages(space.id))).status).toBe(401)
  })

  it('keeps at most INSTALLATION_TOKENS_KEPT live tokens per installation: one more issued makes the oldest a 401', async () => {
    const { w, ada, space, installation } = await installedApp()
    const issue = async () => (await ada.integrations.createIntegrationInstallationToken('my-app', installation.id)).data.token
    const oldest = await issue()
    w.clock.advance(1000)
    const second = await issue()
    for (let i = 2; i < INSTALLATION_TOKENS_KEPT; i++) await issue()
    const count = () => w.api.store.read((tx) => tx.all('integrationInstallationTokens').length)
    expect(count()).toBe(INSTALLATION_TOKENS_KEPT)
    expect((await client(w, oldest).spaces.listPages(space.id)).status).toBe(200)
    await issue()
    expect(count()).toBe(INSTALLATION_TOKENS_KEPT)
    expect((await outcome(client(w, oldest).spaces.listPages(space.id))).status).toBe(401)
    expect((await client(w, second).spaces.listPages(space.id)).status).toBe(200)
  })

  it('answers 404 for an unknown installation or integration, 403 to a non-admin, 404 to an outsider', async () => {
    const { w, ada, installation } = await installedApp()
    const unknown = await outcome(ada.integrations.createIntegrationInstallationToken('my-app', 'nope'))
    expect(unknown.status).toBe(404)
    expect(unknown.message).toContain('Installation not found')
    expect((await outcome(ada.integrations.createIntegrationInstallationToken('no-app', installation.id))).status).toBe(404)
    // A reader of the owner organization sees the (private) integration: 403.
    const reader = await outcome(client(w, w.tokens.rita).integrations.createIntegrationInstallationToken('my-app', installation.id))
    expect(reader.status).toBe(403)
    // An outsider does not see it.
    expect((await outcome(client(w, w.tokens.olga).integrations.createIntegrationInstallationToken('my-app', installation.id))).status).toBe(404)
    // An installation token cannot make tokens.
    const { token } = (await ada.integrations.createIntegrationInstallationToken('my-app', installation.id)).data
    expect((await outcome(client(w, token).integrations.createIntegrationInstallationToken('my-app', installation.id))).status).toBe(403)
  })

  it("gives the delivered event's handler a real installation token it can call back with", async () => {
    const seen: number[] = []
    const tokens: string[] = []
    const w = await integrationWorld({
      integrations: {
        'my-app': async (request) => {
          const form = await request.formData()
          const event = JSON.parse(String(form.get('event'))) as { type: string; spaceId?: string }
          const environment = JSON.parse(String(form.get('environment'))) as { apiTokens: { installation: string }; apiEndpoint: string }
          tokens.push(environment.apiTokens.installation)
          if (event.type === 'space_installation_setup') {
            const app = new GitBookAPI({
              endpoint: environment.apiEndpoint,
              authToken: environment.apiTokens.installation,
              serviceBinding: { fetch: w.api.fetch },
            })
            seen.push((await app.spaces.listPages(event.spaceId!)).status)
          }
          return new Response('OK')
        },
      },
      integrationDelivery: { retryDelays: [0] },
    })
    const ada = client(w, w.tokens.ada)
    const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Handbook' })
    await ada.integrations.publishIntegration('my-app', {
      organization: w.org.id,
      title: 'My app',
      description: 'd',
      script: 's',
      scopes: [IntegrationScope.SpaceContentRead],
    })
    const installation = (await ada.integrations.installIntegration('my-app', { organization: w.org.id })).data
    await ada.integrations.installIntegrationOnSpace('my-app', installation.id, { space: space.id })
    await w.api.idle()
    expect(seen).toEqual([200])
    // The two deliveries share one token (the newest while it has half its hour left), not a row each.
    expect(tokens).toHaveLength(2)
    expect(new Set(tokens).size).toBe(1)
    expect(w.api.store.read((tx) => tx.count('integrationInstallationTokens', 'byInstallation', installation.id))).toBe(1)
    // Past half its hour, the next delivery gets a new one.
    w.clock.advance(31 * 60 * 1000)
    await ada.integrations.updateIntegrationInstallation('my-app', installation.id, { configuration: {} })
    await w.api.idle()
    expect(tokens).toHaveLength(3)
    expect(tokens[2]).not.toBe(tokens[0])
  })
})

describe('an integration written with @gitbook/runtime writes content through its installation token', () => {
  it("reacts to space_installation_setup by adding a page to that space (context.api: the environment's installation token)", async () => {
    const { createIntegration } = (await import(/* @vite-ignore */ RUNTIME)) as Runtime
    const integration = createIntegration({
      events: {
        // Handled so that its delivery succeeds (the runtime refuses an event it has no handler for).
        installation_setup: async () => {},
        space_installation_setup: async (event, context) => {
          const cr = await context.api.spaces.createChangeRequest(event.spaceId, { subject: 'Welcome page' })
          await context.api.spaces.updateChangeRequestContent(event.spaceId, cr.data.id, {
            changes: [{ operation: 'insert_page', title: 'Welcome from the app', document: {} } as never],
          })
          await context.api.spaces.mergeChangeRequest(event.spaceId, cr.data.id)
        },
      },
    })
    const w = await integrationWorld({
      integrations: { 'my-app': (request, env, ctx) => integration.fetch(request, env, ctx) },
      integrationDelivery: { retryDelays: [0] },
    })
    // The runtime's client calls the API endpoint with the global fetch: route it to this API. The
    // runtime reads the global `MODE` that `gitbook publish` defines when it bundles a script.
    const original = globalThis.fetch
    const global = globalThis as { MODE?: string }
    global.MODE = 'production'
    globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init)
      return request.url.startsWith(ENDPOINT) ? w.api.fetch(request) : original(request)
    }) as typeof fetch
    try {
      const ada = client(w, w.tokens.ada)
      const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Handbook' })
      await ada.integrations.publishIntegration('my-app', {
        organization: w.org.id,
        title: 'My app',
        description: 'd',
        script: 's',
        scopes: [IntegrationScope.SpaceContentWrite],
      })
      const installation = (await ada.integrations.installIntegration('my-app', { organization: w.org.id })).data
      await ada.integrations.installIntegrationOnSpace('my-app', installation.id, { space: space.id })
      await w.api.idle()
      const pages = (await ada.spaces.listPages(space.id)).data.pages
      expect(pages.map((p) => p.title)).toContain('Welcome from the app')
      // Written by the integration's own user, through the token of the delivery's environment.
      const merged = (await ada.spaces.listChangeRequestsForSpace(space.id, { status: 'merged' as never })).data.items
      expect(merged.map((c) => [c.subject, c.createdBy.displayName])).toEqual([['Welcome page', 'My app']])
    } finally {
      globalThis.fetch = original
      delete global.MODE
    }
  })
})
