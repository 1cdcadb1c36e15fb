import { describe, expect, it } from 'vitest'
import { expectOfficialResponse } from '../../conformance/official.js'
import { call, expectError } from '../../helpers.js'
import { expectNoChange, integrationWorld, manifest } from './helpers.js'

/**
 * Publishing, reading, listing and unpublishing integrations through `api.fetch`. Ada is admin of
 * Acme, Rita reads, Gina is a guest; Olga is outside Acme and admin of Globex.
 */
const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='
const full = {
  runtime: 'v2',
  icon: png,
  summary: '# My app\nLong text',
  previewImages: [png],
  visibility: 'public',
  target: 'space',
  scopes: ['space:content:read', 'site:views:read'],
  categories: ['analytics', 'content'],
  blocks: [
    {
      id: 'embed',
      title: 'Embed',
      description: 'An embed',
      urlUnfurl: ['https://*.example.com/embed', 'https://example.org/x'],
      markdown: { codeblock: 'embed', body: 'url' },
    },
  ],
  contentSources: [{ id: 'importer', title: 'Importer', configuration: { componentId: 'configure' } }],
  externalLinks: [{ url: 'https://example.com/docs', label: 'Docs' }],
  configurations: {
    account: {
      properties: { token: { type: 'string', title: 'Token', description: 'API token' }, retries: { type: 'number', default: 3 } },
      required: ['token'],
    },
    space: { componentId: 'space-config' },
  },
  secrets: { KEY: 'secret' },
  contentSecurityPolicy: { 'script-src': "'self'" },
}

describe('integrations: publish', () => {
  it('publishes version 1 owned by the organization in the body, keeps the manifest, and answers the official shape', async () => {
    const w = await integrationWorld()
    const res = await call(w.api, w.tokens.ada, 'POST', '/v1/integrations/my-app', manifest(w.org.id, full))
    expect(res.status).toBe(200)
    expectOfficialResponse('publishIntegration', 200, res.body)
    expect(res.body).toMatchObject({
      object: 'integration',
      name: 'my-app',
      version: 1,
      title: 'My app',
      description: 'Does useful things',
      summary: full.summary,
      target: 'space',
      visibility: 'public',
      verified: false,
      scopes: full.scopes,
      categories: full.categories,
      blocks: full.blocks,
      contentSources: full.contentSources,
      externalLinks: full.externalLinks,
      configurations: full.configurations,
      contentSecurityPolicy: full.contentSecurityPolicy,
      owner: { object: 'organization', id: w.org.id },
      permissions: { admin: true },
      previewImages: [`data:image/png;base64,${png}`],
      urls: { location: 'http://localhost:4000/v1/integrations/my-app', icon: `data:image/png;base64,${png}` },
    })
    // Secrets and the script are kept, never answered.
    expect(JSON.stringify(res.body)).not.toContain('secret')
    expect(w.api.store.read((tx) => tx.get('integrations', 'my-app'))).toMatchObject({ secrets: { KEY: 'secret' }, script: 'export default {}', runtime: 'v2' })
  })

  it('defaults: target all, visibility private, empty lists; publishing again is version + 1 with the new manifest', async () => {
    const w = await integrationWorld()
    const first = await w.publish('my-app')
    expect(first).toMatchObject({
      version: 1,
      target: 'all',
      visibility: 'private',
      categories: [],
      blocks: [],
      contentSources: [],
      externalLinks: [],
      previewImages: [],
      configurations: {},
    })
    w.clock.advance(60_000)
    const second = await w.publish('my-app', { title: 'Renamed', categories: ['other'] })
    expect(second).toMatchObject({ version: 2, title: 'Renamed', categories: ['other'], createdAt: first.createdAt, updatedAt: '2026-03-01T10:01:00.000Z' })
    expect((await w.publish('my-app')).version).toBe(3)
  })

  it('names the organization by id or by hostname (subdomain)', async () => {
    const w = await integrationWorld()
    expect((await call(w.api, w.tokens.ada, 'PATCH', `/v1/orgs/${w.org.id}`, { hostname: 'acme' })).status).toBe(200)
    const res = await call(w.api, w.tokens.ada, 'POST', '/v1/integrations/by-host', manifest('acme'))
    expect(res.status).toBe(200)
    expect(res.body.owner.id).toBe(w.org.id)
  })

  it('permissions.admin says whether the caller administrates it (the owner organization admins)', async () => {
    const w = await integrationWorld()
    await w.publish('my-app', { visibility: 'public' })
    expect((await call(w.api, w.tokens.rita, 'GET', '/v1/integrations/my-app')).body.permissions).toEqual({ admin: false })
    expect((await call(w.api, w.tokens.olga, 'GET', '/v1/integrations/my-app')).body.permissions).toEqual({ admin: false })
    expect((await call(w.api, w.tokens.ada, 'GET', '/v1/integrations/my-app')).body.permissions).toEqual({ admin: true })
  })

  it.each<[string, string, Record<string, unknown>, string]>([
    ['a name outside the pattern', '/v1/integrations/my%20app', {}, 'path parameter `integrationName`: must be letters, digits, "-", "_" or "."'],
    ['a name of 101 characters', `/v1/integrations/${'n'.repeat(101)}`, {}, '`integrationName`: must be at most 100 characters'],
    ['a title of 1 character', '/v1/integrations/x', { title: 'A' }, '`title`: must be at least 2 characters'],
    ['a title of 31 characters', '/v1/integrations/x', { title: 'A'.repeat(31) }, '`title`: must be at most 30 characters'],
    ['a description of 101 characters', '/v1/integrations/x', { description: 'd'.repeat(101) }, '`description`: must be at most 100 characters'],
    ['an unknown scope', '/v1/integrations/x', { scopes: ['space:everything'] }, 'scopes[0]'],
    ['an unknown category', '/v1/integrations/x', { categories: ['games'] }, 'categories[0]'],
    ['an unknown target', '/v1/integrations/x', { target: 'page' }, 'target'],
    ['an unknown visibility', '/v1/integrations/x', { visibility: 'secret' }, 'visibility'],
    ['a missing script', '/v1/integrations/x', { script: undefined }, 'script'],
    ['a missing organization', '/v1/integrations/x', { organization: undefined }, 'organization'],
    ['an icon that is not base64', '/v1/integrations/x', { icon: 'not base64!' }, '`icon`: must be base64 content'],
    ['4 preview images', '/v1/integrations/x', { previewImages: [png, png, png, png] }, '`previewImages`: must hold at most 3 images'],
    [
      '6 external links',
      '/v1/integrations/x',
      { externalLinks: Array.from({ length: 6 }, () => ({ url: 'https://a.test', label: 'a' })) },
      '`externalLinks`: must hold at most 5 links',
    ],
    ['an external link that is not a URL', '/v1/integrations/x', { externalLinks: [{ url: 'nope', label: 'a' }] }, '`externalLinks[0].url`: must be a URL'],
    ['a block title of 1 character', '/v1/integrations/x', { blocks: [{ id: 'b', title: 'B' }] }, '`blocks[0].title`: must be at least 2 characters'],
    [
      'two blocks with one id',
      '/v1/integrations/x',
      {
        blocks: [
          { id: 'b', title: 'Bb' },
          { id: 'b', title: 'Cc' },
        ],
      },
      '`blocks[1].id`: "b" is the id of another block',
    ],
    ['a content source without configuration', '/v1/integrations/x', { contentSources: [{ id: 's', title: 'Src' }] }, 'contentSources[0].configuration'],
    [
      'a required property that is not one',
      '/v1/integrations/x',
      { configurations: { account: { properties: {}, required: ['token'] } } },
      '`configurations.account.required[0]`: "token" is not one of the configuration\'s properties',
    ],
    [
      '21 secrets',
      '/v1/integrations/x',
      { secrets: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`K${i}`, 'v'])) },
      '`secrets`: must hold at most 20 secrets',
    ],
  ])('refuses %s (400 naming the field and rule), changing nothing', async (_what, path, extra, message) => {
    const w = await integrationWorld()
    const res = await expectNoChange(w, () => call(w.api, w.tokens.ada, 'POST', path, manifest(w.org.id, extra)))
    expectError(res, 400, message)
  })

  it('needs a token (401), the organization admin role (403), an organization of the caller (404); a name of another organization is a 409', async () => {
    const w = await integrationWorld()
    expectError(await expectNoChange(w, () => call(w.api, undefined, 'POST', '/v1/integrations/x', manifest(w.org.id))), 401, '')
    expectError(await expectNoChange(w, () => call(w.api, w.tokens.rita, 'POST', '/v1/integrations/x', manifest(w.org.id))), 403, 'admin role')
    expectError(await expectNoChange(w, () => call(w.api, w.tokens.gina, 'POST', '/v1/integrations/x', manifest(w.org.id))), 403, 'admin role')
    expectError(await expectNoChange(w, () => call(w.api, w.tokens.olga, 'POST', '/v1/integrations/x', manifest(w.org.id))), 404, 'Organization not found')
    expectError(await expectNoChange(w, () => call(w.api, w.tokens.ada, 'POST', '/v1/integrations/x', manifest('nope'))), 404, 'Organization not found')
    await w.publish('taken')
    const res = await expectNoChange(w, () => call(w.api, w.tokens.olga, 'POST', '/v1/integrations/taken', manifest(w.globex.id)))
    expectError(res, 409, 'taken by another organization')
  })
})

describe('integrations: get and unpublish', () => {
  it('a private integration is seen by members with a role only; public and unlisted ones by anyone signed in', async () => {
    const w = await integrationWorld()
    await w.publish('private-app')
    await w.publish('unlisted-app', { visibility: 'unlisted' })
    expectOfficialResponse('getIntegrationByName', 200, (await call(w.api, w.tokens.rita, 'GET', '/v1/integrations/private-app')).body)
    expectError(await call(w.api, w.tokens.gina, 'GET', '/v1/integrations/private-app'), 404, 'Integration not found')
    expectError(await call(w.api, w.tokens.olga, 'GET', '/v1/integrations/private-app'), 404, 'Integration not found')
    expect((await call(w.api, w.tokens.olga, 'GET', '/v1/integrations/unlisted-app')).status).toBe(200)
    expectError(await call(w.api, undefined, 'GET', '/v1/integrations/unlisted-app'), 401, '')
    expectError(await call(w.api, w.tokens.ada, 'GET', '/v1/integrations/nope'), 404, 'Integration not found')
    // A name no publish accepts is simply not there.
    expectError(await call(w.api, w.tokens.ada, 'GET', '/v1/integrations/no%20such'), 404, 'Integration not found')
  })

  it('unpublishes (204) with its installations and events, then 404; again 204; only the owner admins', async () => {
    const w = await integrationWorld()
    await w.publish('my-app', { visibility: 'public' })
    await w.install('my-app')
    await w.api.idle()
    expectError(await expectNoChange(w, () => call(w.api, w.tokens.rita, 'DELETE', '/v1/integrations/my-app')), 403, 'admin role on this integration')
    expectError(await expectNoChange(w, () => call(w.api, w.tokens.olga, 'DELETE', '/v1/integrations/my-app')), 403, 'admin role on this integration')
    expectError(await expectNoChange(w, () => call(w.api, undefined, 'DELETE', '/v1/integrations/my-app')), 401, '')
    const res = await call(w.api, w.tokens.ada, 'DELETE', '/v1/integrations/my-app')
    expect(res.status).toBe(204)
    expect(res.body).toBeUndefined()
    expectError(await call(w.api, w.tokens.ada, 'GET', '/v1/integrations/my-app'), 404, 'Integration not found')
    expect(w.api.store.read((tx) => [tx.all('integrationInstallations'), tx.all('integrationEvents')])).toEqual([[], []])
    expect((await call(w.api, w.tokens.ada, 'DELETE', '/v1/integrations/my-app')).status).toBe(204)
    // Published again under the same name: version 1, a new integration id.
    const again = await w.publish('my-app')
    expect(again.version).toBe(1)
  })

  it('a private integration is unpublished for outsiders as if it did not exist (204, nothing changes)', async () => {
    const w = await integrationWorld()
    await w.publish('my-app')
    expect((await expectNoChange(w, () => call(w.api, w.tokens.olga, 'DELETE', '/v1/integrations/my-app'))).status).toBe(204)
  })
})

describe('integrations: list', () => {
  async function catalogue() {
    const w = await integrationWorld()
    await w.publish('alpha', { visibility: 'public', title: 'Alpha analytics', categories: ['analytics'], scopes: ['site:views:read'], target: 'site' })
    await w.publish('beta', {
      visibility: 'public',
      title: 'Beta blocks',
      blocks: [{ id: 'b', title: 'Block', urlUnfurl: ['https://*.figma.com/file', 'https://miro.com/app'] }],
      target: 'space',
    })
    await w.publish('gamma', {
      visibility: 'public',
      title: 'Gamma sources',
      contentSources: [{ id: 's', title: 'Source', configuration: { componentId: 'c' } }],
    })
    await w.publish('delta-private', { title: 'Delta' })
    await w.publish('epsilon-unlisted', { visibility: 'unlisted', title: 'Epsilon' })
    const globex = await call(
      w.api,
      w.tokens.olga,
      'POST',
      '/v1/integrations/zeta',
      manifest(w.globex.id, { visibility: 'public', title: 'Zeta', categories: ['other'] }),
    )
    expect(globex.status).toBe(200)
    return w
  }
  const names = async (w: Awaited<ReturnType<typeof catalogue>>, query: string, token = w.tokens.ada) => {
    const res = await call(w.api, token, 'GET', `/v1/integrations${query}`)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expectOfficialResponse('listIntegrations', 200, res.body)
    return res.body.items.map((i: { name: string }) => i.name)
  }

  it('lists by name: public ones to anyone, private and unlisted ones to members of their organization with a role', async () => {
    const w = await catalogue()
    expect(await names(w, '')).toEqual(['alpha', 'beta', 'delta-private', 'epsilon-unlisted', 'gamma', 'zeta'])
    expect(await names(w, '', w.tokens.rita)).toEqual(['alpha', 'beta', 'delta-private', 'epsilon-unlisted', 'gamma', 'zeta'])
    expect(await names(w, '', w.tokens.gina)).toEqual(['alpha', 'beta', 'gamma', 'zeta'])
    expect(await names(w, '', w.tokens.olga)).toEqual(['alpha', 'beta', 'gamma', 'zeta'])
    expectError(await call(w.api, undefined, 'GET', '/v1/integrations'), 401, '')
  })

  it('filters by search, category, blockDomain, blocks, contentSources, owner, scope and target', async () => {
    const w = await catalogue()
    expect(await names(w, '?search=BLOCK')).toEqual(['beta'])
    expect(await names(w, '?search=delta')).toEqual(['delta-private'])
    expect(await names(w, '?category=analytics')).toEqual(['alpha'])
    expect(await names(w, '?blockDomain=figma.com')).toEqual(['beta'])
    expect(await names(w, '?blockDomain=miro.com')).toEqual(['beta'])
    expect(await names(w, '?blockDomain=example.com')).toEqual([])
    expect(await names(w, '?blocks=true')).toEqual(['beta'])
    expect(await names(w, '?blocks=false')).toEqual(['alpha', 'delta-private', 'epsilon-unlisted', 'gamma', 'zeta'])
    expect(await names(w, '?contentSources=true')).toEqual(['gamma'])
    expect(await names(w, '?contentSources=false&blocks=false')).toEqual(['alpha', 'delta-private', 'epsilon-unlisted', 'zeta'])
    expect(await names(w, `?owner=${w.globex.id}`)).toEqual(['zeta'])
    expect(await names(w, `?owner=${w.org.id}`, w.tokens.olga)).toEqual(['alpha', 'beta', 'gamma'])
    expect(await names(w, '?scope=site:views:read')).toEqual(['alpha'])
    expect(await names(w, '?target=site')).toEqual(['alpha', 'delta-private', 'epsilon-unlisted', 'gamma', 'zeta'])
    expect(await names(w, '?target=all')).toEqual(['delta-private', 'epsilon-unlisted', 'gamma', 'zeta'])
  })

  it('pages with limit and next.page', async () => {
    const w = await catalogue()
    const first = await call(w.api, w.tokens.ada, 'GET', '/v1/integrations?limit=4')
    expect(first.body.items.map((i: { name: string }) => i.name)).toEqual(['alpha', 'beta', 'delta-private', 'epsilon-unlisted'])
    expect(first.body.count).toBe(6)
    const second = await call(w.api, w.tokens.ada, 'GET', `/v1/integrations?limit=4&page=${first.body.next.page}`)
    expect(second.body.items.map((i: { name: string }) => i.name)).toEqual(['gamma', 'zeta'])
    expect(second.body.next).toBeUndefined()
  })

  it.each([
    ['?category=games', 'category'],
    ['?blocks=yes', '`blocks`: must be true or false'],
    ['?scope=everything', 'scope'],
    ['?target=page', 'target'],
    ['?blockDomain=a/b', 'blockDomain'],
    ['?limit=1001', '`limit`: must be at most 1000'],
    ['?page=nope', 'page'],
  ])('refuses %s (400 naming %s)', async (query, message) => {
    const w = await catalogue()
    expectError(await call(w.api, w.tokens.ada, 'GET', `/v1/integrations${query}`), 400, message)
  })
})
