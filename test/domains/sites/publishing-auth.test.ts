import { describe, expect, it } from 'vitest'
import { createDocsApi } from '../../../src/index.js'
import { visitorAuthOf } from '../../../src/domains/sites/publishing-auth.js'
import { BASE, call, createWorld, expectError } from '../../helpers.js'

/** Visitor authentication of a site (docs/behaviour/sites.md). */

const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')
const text = (s: string) => base64url(new TextEncoder().encode(s))
const hmac = (key: string) => crypto.subtle.importKey('raw', new TextEncoder().encode(key), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify'])

/** A visitor token as GitBook's guides make one (`jwt.sign(claims, key)`: HS256, the key's text as the secret). */
async function signVisitorToken(key: string, claims: object): Promise<string> {
  const input = `${text(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${text(JSON.stringify(claims))}`
  const signature = new Uint8Array(await crypto.subtle.sign('HMAC', await hmac(key), new TextEncoder().encode(input)))
  return `${input}.${base64url(signature)}`
}

/** Whether a token's HS256 signature verifies with `key`. */
async function verifies(token: string, key: string): Promise<boolean> {
  const [header, payload, signature] = token.split('.') as [string, string, string]
  const bytes = Uint8Array.from(atob(signature.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0))
  return crypto.subtle.verify('HMAC', await hmac(key), bytes, new TextEncoder().encode(`${header}.${payload}`))
}

async function setup() {
  const w = await createWorld()
  const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs', visibility: 'visitor-auth' })
  const path = `/v1/orgs/${w.org.id}/sites/${site.id}/publishing/auth`
  const auth = () => w.api.store.read((tx) => visitorAuthOf(tx, site.id))
  return { ...w, site, path, auth }
}

describe('site visitor authentication', () => {
  it('every site has a private key from its creation: 256 random bits, different for each site', async () => {
    const w = await setup()
    const other = await w.api.fixtures.createSite(w.org.id, { title: 'Other' })
    const a = (await call(w.api, w.tokens.ada, 'GET', w.path)).body
    const b = (await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}/sites/${other.id}/publishing/auth`)).body
    expect(a.privateKey).toMatch(/^[0-9a-f]{64}$/)
    expect(b.privateKey).toMatch(/^[0-9a-f]{64}$/)
    expect(a.privateKey).not.toBe(b.privateKey)
    // Reading it again reads the same key.
    expect((await call(w.api, w.tokens.ada, 'GET', w.path)).body).toEqual(a)
    expect(w.auth()).toEqual({ key: a.privateKey, backend: 'custom' })
  })

  it('regenerating replaces the key: a token signed with the old one no longer verifies, one signed with the new one does', async () => {
    const w = await setup()
    await call(w.api, w.tokens.ada, 'PATCH', w.path, { fallbackURL: 'https://acme.test/login' })
    const old = w.auth()!
    const token = await signVisitorToken(old.key, { role: 'beta' })
    expect(await verifies(token, old.key)).toBe(true)
    const res = await call(w.api, w.tokens.ada, 'POST', `${w.path}/regenerate`)
    expect(res.status).toBe(200)
    const now = w.auth()!
    expect(now).toEqual({ key: res.body.privateKey, backend: 'custom', fallbackURL: 'https://acme.test/login' })
    expect(now.key).not.toBe(old.key)
    expect(await verifies(token, now.key)).toBe(false)
    expect(await verifies(await signVisitorToken(now.key, { role: 'beta' }), now.key)).toBe(true)
  })

  it('the patch changes what it names (null removes a URL) and keeps the key', async () => {
    const w = await setup()
    const key = w.auth()!.key
    await call(w.api, w.tokens.ada, 'PATCH', w.path, { backend: 'integration', fallbackURL: 'https://acme.test/login', logoutURL: 'https://acme.test/out' })
    expect(w.auth()).toEqual({ key, backend: 'integration', fallbackURL: 'https://acme.test/login', logoutURL: 'https://acme.test/out' })
    await call(w.api, w.tokens.ada, 'PATCH', w.path, { fallbackURL: null })
    expect(w.auth()).toEqual({ key, backend: 'integration', logoutURL: 'https://acme.test/out' })
    await call(w.api, w.tokens.ada, 'PATCH', w.path, {})
    expect(w.auth()).toEqual({ key, backend: 'integration', logoutURL: 'https://acme.test/out' })
  })

  it('a failed request changes nothing', async () => {
    const w = await setup()
    await call(w.api, w.tokens.ada, 'PATCH', w.path, { fallbackURL: 'https://acme.test/login' })
    const before = w.api.store.read((tx) => tx.all('sitePublishingAuth'))
    const editor = await w.api.fixtures.createUser({ displayName: 'Eddie', email: 'eddie@acme.test' })
    await w.api.fixtures.addMember(w.org.id, editor.id, 'edit')
    const eddie = await w.api.fixtures.createToken(editor.id)
    for (const [token, method, path, body, status] of [
      [w.tokens.ada, 'PATCH', w.path, { backend: 'saml', fallbackURL: 'https://acme.test/other' }, 400],
      [w.tokens.ada, 'PATCH', w.path, { fallbackURL: 'ftp://acme.test/login' }, 400],
      [w.tokens.ada, 'PATCH', w.path, { fallbackURL: 'https://acme.test/x', logoutURL: 'data:text/html,hi' }, 400],
      [eddie, 'PATCH', w.path, { fallbackURL: 'https://evil.test' }, 403],
      [eddie, 'POST', `${w.path}/regenerate`, undefined, 403],
      [w.tokens.rita, 'POST', `${w.path}/regenerate`, undefined, 403],
      [w.tokens.olga, 'POST', `${w.path}/regenerate`, undefined, 404],
      [undefined, 'POST', `${w.path}/regenerate`, undefined, 401],
    ] as const) {
      expect((await call(w.api, token, method, path, body)).status).toBe(status)
      expect(w.api.store.read((tx) => tx.all('sitePublishingAuth'))).toEqual(before)
    }
    expectError(
      await call(w.api, w.tokens.ada, 'PATCH', w.path, { fallbackURL: 'ftp://acme.test/login' }),
      400,
      'body field `fallbackURL`: must be an http or https URL',
    )
  })

  it('goes with its site', async () => {
    const w = await setup()
    expect(w.auth()).toBeDefined()
    expect((await call(w.api, w.tokens.ada, 'DELETE', `/v1/orgs/${w.org.id}/sites/${w.site.id}`)).status).toBe(204)
    expect(w.auth()).toBeUndefined()
    expect(w.api.store.read((tx) => tx.all('sitePublishingAuth'))).toEqual([])
  })

  it('a loaded state keeps the keys it holds, and gives a site loaded without one a new key', () => {
    const seed = {
      users: [{ id: 'ada', displayName: 'Ada' }],
      tokens: [{ id: 'gb_api_ada_token', user: 'ada' }],
      organizations: [{ id: 'acme', title: 'Acme' }],
      members: [{ organization: 'acme', user: 'ada', role: 'admin' }],
      sites: [
        { id: 'kept', organization: 'acme' },
        { id: 'made', organization: 'acme' },
      ],
      sitePublishingAuth: [{ id: 'auth1', site: 'kept', privateKey: 'k'.repeat(40), fallbackURL: 'https://acme.test/login' }],
    }
    const api = createDocsApi({ baseUrl: BASE, seed: seed as any })
    const rows = api.store.read((tx) => tx.all('sitePublishingAuth'))
    expect(rows).toEqual([
      { id: 'auth1', site: 'kept', organization: 'acme', privateKey: 'k'.repeat(40), backend: 'custom', fallbackURL: 'https://acme.test/login' },
      { id: expect.any(String), site: 'made', organization: 'acme', privateKey: expect.stringMatching(/^[0-9a-f]{64}$/), backend: 'custom' },
    ])
    const twice = { ...seed, sitePublishingAuth: [...seed.sitePublishingAuth, { id: 'auth2', site: 'kept' }] }
    expect(() => createDocsApi({ baseUrl: BASE, seed: twice as any })).toThrow(
      '`sitePublishingAuth[0].site`: site "kept" has another row of sitePublishingAuth',
    )
    const short = { ...seed, sitePublishingAuth: [{ id: 'auth1', site: 'kept', privateKey: 'short' }] }
    expect(() => createDocsApi({ baseUrl: BASE, seed: short as any })).toThrow('`sitePublishingAuth[0].privateKey`: must be at least 32 characters')
  })
})
