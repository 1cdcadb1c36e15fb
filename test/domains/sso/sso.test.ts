import { describe, expect, it, vi } from 'vitest'
import { createDocsApi } from '../../../src/index.js'
import { call, createWorld, expectError, type World } from '../../helpers.js'
import { CERTIFICATE, OTHER_CERTIFICATE, PUBLIC_KEY } from '../../fixtures/pem.js'

const derOf = (text: string) => Uint8Array.from(atob(text.replace(/-----[^-]+-----|\s/g, '')), (c) => c.charCodeAt(0))
const pem = (der: Uint8Array) => `-----BEGIN CERTIFICATE-----\n${btoa(String.fromCharCode(...der))}\n-----END CERTIFICATE-----`

const idp = { entityID: 'https://idp.acme.test/metadata', ssoURL: 'https://idp.acme.test/sso', certificate: CERTIFICATE }

async function setup() {
  const w = await createWorld()
  const team = await w.api.fixtures.createTeam(w.org.id, { title: 'Engineering' })
  const base = `/v1/orgs/${w.org.id}/saml`
  const create = (body: unknown, token = w.tokens.ada) => call(w.api, token, 'POST', base, body)
  return { ...w, team, base, create }
}

/** A request that fails leaves the whole store as it was. */
async function expectUnchanged(w: World, request: () => Promise<unknown>) {
  const before = w.api.dump()
  await request()
  expect(w.api.dump()).toEqual(before)
}

describe('SAML providers', () => {
  it('create a complete provider: 201, active, its team and role, service URLs, Location', async () => {
    const w = await setup()
    const res = await w.create({ label: 'Okta', ...idp, defaultTeam: w.team.id, defaultRole: 'edit' })
    expect(res.status).toBe(201)
    const id = res.body.id
    expect(res.headers.get('location')).toBe(`http://localhost:4000/v1/orgs/${w.org.id}/saml/${id}`)
    expect(res.body).toMatchObject({
      object: 'saml-provider',
      label: 'Okta',
      ...idp,
      defaultTeam: { object: 'team', id: w.team.id, title: 'Engineering' },
      defaultRole: 'edit',
      createdAt: '2026-03-01T10:00:00.000Z',
      status: 'active',
      service: {
        acsURL: `http://localhost:4000/sso/${w.org.id}/saml/${id}/acs`,
        startURL: `http://localhost:4000/sso/${w.org.id}/saml/${id}/start`,
        entityID: `http://localhost:4000/sso/${w.org.id}/saml/${id}/metadata`,
      },
      urls: { location: `http://localhost:4000/v1/orgs/${w.org.id}/saml/${id}` },
    })
    expect((await call(w.api, w.tokens.ada, 'GET', `${w.base}/${id}`)).body).toEqual(res.body)
  })

  it('a provider given only a label is pending until entityID, ssoURL and certificate are all set', async () => {
    const w = await setup()
    const res = await w.create({ label: 'Later' })
    expect(res.body).toMatchObject({ status: 'pending', entityID: '', certificate: '', ssoURL: 'about:blank', defaultRole: null })
    expect(res.body.defaultTeam).toBeUndefined()
    const path = `${w.base}/${res.body.id}`
    expect((await call(w.api, w.tokens.ada, 'PATCH', path, { entityID: idp.entityID, ssoURL: idp.ssoURL })).body.status).toBe('pending')
    const done = await call(w.api, w.tokens.ada, 'PATCH', path, { certificate: CERTIFICATE })
    expect(done.status).toBe(200)
    expect(done.body).toMatchObject({ status: 'active', ...idp })
  })

  it('patch changes the fields given, keeps the others; {} changes nothing; defaultTeam null removes the team', async () => {
    const w = await setup()
    const id = (await w.create({ label: 'Okta', ...idp, defaultTeam: w.team.id })).body.id
    const path = `${w.base}/${id}`
    const before = w.api.dump()
    const same = await call(w.api, w.tokens.ada, 'PATCH', path, {})
    expect(same.status).toBe(200)
    expect(w.api.dump()).toEqual(before)
    const patched = await call(w.api, w.tokens.ada, 'PATCH', path, { label: 'Okta EU', certificate: OTHER_CERTIFICATE, defaultRole: null })
    expect(patched.body).toMatchObject({
      label: 'Okta EU',
      certificate: OTHER_CERTIFICATE,
      entityID: idp.entityID,
      defaultRole: null,
      defaultTeam: { id: w.team.id },
    })
    const noTeam = await call(w.api, w.tokens.ada, 'PATCH', path, { defaultTeam: null })
    expect(noTeam.body.defaultTeam).toBeUndefined()
    // A default team deleted afterwards is left out of answers.
    await call(w.api, w.tokens.ada, 'PATCH', path, { defaultTeam: w.team.id })
    await call(w.api, w.tokens.ada, 'DELETE', `/v1/orgs/${w.org.id}/teams/${w.team.id}`)
    expect((await call(w.api, w.tokens.ada, 'GET', path)).body.defaultTeam).toBeUndefined()
  })

  it('service URLs are stable, differ per provider, and follow the base URL', async () => {
    const w = await setup()
    const a = (await w.create({ label: 'A', ...idp })).body
    const b = (await w.create({ label: 'B', ...idp })).body
    expect((await call(w.api, w.tokens.ada, 'GET', `${w.base}/${a.id}`)).body.service).toEqual(a.service)
    for (const key of ['acsURL', 'startURL', 'entityID'] as const) expect(a.service[key]).not.toBe(b.service[key])
    const api = createDocsApi({ baseUrl: 'https://docs.example.com/api', basePath: '/api', seed: w.api.dump() })
    const ada = await api.fixtures.createToken(w.users.ada.id)
    const res = await api.fetch(new Request(`https://docs.example.com/api/v1/orgs/${w.org.id}/saml/${a.id}`, { headers: { authorization: `Bearer ${ada}` } }))
    expect((await res.json()).service.acsURL).toBe(`https://docs.example.com/api/sso/${w.org.id}/saml/${a.id}/acs`)
  })

  it('lists in creation order with paging', async () => {
    const w = await setup()
    const ids = []
    for (const label of ['A', 'B', 'C']) ids.push((await w.create({ label })).body.id)
    const first = await call(w.api, w.tokens.ada, 'GET', `${w.base}?limit=2`)
    expect(first.body.items.map((p: { id: string }) => p.id)).toEqual(ids.slice(0, 2))
    expect(first.body.count).toBe(3)
    const second = await call(w.api, w.tokens.ada, 'GET', `${w.base}?limit=2&page=${first.body.next.page}`)
    expect(second.body.items.map((p: { id: string }) => p.id)).toEqual([ids[2]])
    expect(second.body.next).toBeUndefined()
    // Another organization's providers are not listed, nor found by id.
    const other = await w.api.fixtures.createOrganization({ title: 'Other', members: [{ user: w.users.ada.id, role: 'admin' }] })
    const foreign = (await call(w.api, w.tokens.ada, 'POST', `/v1/orgs/${other.id}/saml`, { label: 'X' })).body.id
    expect((await call(w.api, w.tokens.ada, 'GET', w.base)).body.count).toBe(3)
    expectError(await call(w.api, w.tokens.ada, 'GET', `${w.base}/${foreign}`), 404, 'SAML provider not found')
  })

  it('delete answers 204 (the reference), also when there is nothing to delete', async () => {
    const w = await setup()
    const id = (await w.create({ label: 'Okta', ...idp })).body.id
    expect((await call(w.api, w.tokens.ada, 'DELETE', `${w.base}/${id}`)).status).toBe(204)
    expectError(await call(w.api, w.tokens.ada, 'GET', `${w.base}/${id}`), 404, 'SAML provider not found')
    expect((await call(w.api, w.tokens.ada, 'DELETE', `${w.base}/${id}`)).status).toBe(204)
    expect((await call(w.api, w.tokens.ada, 'DELETE', `${w.base}/never`)).status).toBe(204)
    expectError(await call(w.api, w.tokens.ada, 'PATCH', `${w.base}/${id}`, { label: 'X' }), 404, 'SAML provider not found')
  })
})

describe('SAML provider validation: a 400 naming the field and the rule, nothing written', () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['no label', { ...idp }, 'body field `label`'],
    ['empty label', { label: '' }, 'body field `label`: must be at least 1 character'],
    ['long label', { label: 'x'.repeat(31) }, 'body field `label`: must be at most 30 characters'],
    ['empty entityID', { label: 'A', entityID: '' }, 'body field `entityID`: must not be empty'],
    ['long entityID', { label: 'A', entityID: 'x'.repeat(1025) }, 'body field `entityID`: must be at most 1024 characters'],
    ['ssoURL not a URL', { label: 'A', ssoURL: 'not a url' }, 'body field `ssoURL`: must be a URL'],
    ['long ssoURL', { label: 'A', ssoURL: `https://idp.test/${'x'.repeat(2040)}` }, 'body field `ssoURL`: must be at most 2048 characters'],
    ['javascript: ssoURL', { label: 'A', ssoURL: 'javascript:alert(document.cookie)' }, 'body field `ssoURL`: must be an http or https URL (not javascript:)'],
    ['data: ssoURL', { label: 'A', ssoURL: 'data:text/html,<script>alert(1)</script>' }, 'body field `ssoURL`: must be an http or https URL (not data:)'],
    ['ftp: ssoURL', { label: 'A', ssoURL: 'ftp://idp.acme.test/sso' }, 'body field `ssoURL`: must be an http or https URL (not ftp:)'],
    ['plain-text certificate', { label: 'A', certificate: 'my certificate' }, 'body field `certificate`: must be an X.509 certificate in PEM form'],
    ['a public key', { label: 'A', certificate: PUBLIC_KEY }, 'body field `certificate`: must be an X.509 certificate, not a public key'],
    [
      'a private key',
      { label: 'A', certificate: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----' },
      'must be an X.509 certificate, not a private key',
    ],
    ['two certificates', { label: 'A', certificate: `${CERTIFICATE}\n${OTHER_CERTIFICATE}` }, 'must hold exactly one PEM certificate (found 2 PEM blocks)'],
    ['text around the certificate', { label: 'A', certificate: `Issuer: Okta\n${CERTIFICATE}` }, 'must hold one PEM certificate and nothing else'],
    ['a body that is not base64', { label: 'A', certificate: '-----BEGIN CERTIFICATE-----\nnot base64!\n-----END CERTIFICATE-----' }, 'whose body is base64'],
    [
      'a body that is not a certificate',
      { label: 'A', certificate: `-----BEGIN CERTIFICATE-----\n${btoa('hello, not DER')}\n-----END CERTIFICATE-----` },
      'must be a valid X.509 certificate',
    ],
    ['a certificate cut short', { label: 'A', certificate: pem(derOf(CERTIFICATE).slice(0, 400)) }, 'must be a valid X.509 certificate'],
    ['a certificate with bytes after it', { label: 'A', certificate: pem(new Uint8Array([...derOf(CERTIFICATE), 0, 0])) }, 'must be a valid X.509 certificate'],
    ['long certificate', { label: 'A', certificate: 'x'.repeat(10_001) }, 'body field `certificate`: must be at most 10000 characters'],
    ['bad defaultRole', { label: 'A', defaultRole: 'owner' }, 'body field `defaultRole`'],
  ]
  for (const [name, body, message] of cases) {
    it(`create: ${name}`, async () => {
      const w = await setup()
      await expectUnchanged(w, async () => expectError(await w.create(body), 400, message))
    })
  }

  it('defaultTeam must be a team of this organization (create and patch)', async () => {
    const w = await setup()
    const other = await w.api.fixtures.createOrganization({ title: 'Other', members: [{ user: w.users.ada.id, role: 'admin' }] })
    const foreignTeam = await w.api.fixtures.createTeam(other.id, { title: 'Foreign' })
    const id = (await w.create({ label: 'Okta' })).body.id
    for (const team of ['nope', foreignTeam.id]) {
      await expectUnchanged(w, async () =>
        expectError(await w.create({ label: 'B', defaultTeam: team }), 400, `body field \`defaultTeam\`: no team "${team}" in this organization`),
      )
      await expectUnchanged(w, async () =>
        expectError(await call(w.api, w.tokens.ada, 'PATCH', `${w.base}/${id}`, { defaultTeam: team }), 400, 'body field `defaultTeam`'),
      )
    }
  })

  it('patch applies the same rules; a request without a body is a 400', async () => {
    const w = await setup()
    const path = `${w.base}/${(await w.create({ label: 'Okta', ...idp })).body.id}`
    for (const [body, message] of [
      [{ certificate: PUBLIC_KEY }, 'not a public key'],
      [{ label: '' }, 'body field `label`'],
      [{ ssoURL: 'ftp//x' }, 'body field `ssoURL`: must be a URL'],
      [{ ssoURL: 'javascript:alert(1)' }, 'body field `ssoURL`: must be an http or https URL (not javascript:)'],
    ] as const) {
      await expectUnchanged(w, async () => expectError(await call(w.api, w.tokens.ada, 'PATCH', path, body), 400, message))
    }
    await expectUnchanged(w, async () => expect((await call(w.api, w.tokens.ada, 'PATCH', path)).status).toBe(400))
  })
})

describe('SAML provider access: organization admins only', () => {
  it('readers and guests 403, outsiders 404, no token 401, on every operation; nothing written', async () => {
    const w = await setup()
    const id = (await w.create({ label: 'Okta', ...idp })).body.id
    const requests: Array<[string, string, unknown?]> = [
      ['GET', w.base],
      ['POST', w.base, { label: 'New' }],
      ['GET', `${w.base}/${id}`],
      ['PATCH', `${w.base}/${id}`, { label: 'Renamed' }],
      ['DELETE', `${w.base}/${id}`],
      ['DELETE', `${w.base}/missing`],
    ]
    for (const [method, path, body] of requests) {
      for (const token of [w.tokens.rita, w.tokens.gina]) {
        await expectUnchanged(w, async () => expectError(await call(w.api, token, method, path, body), 403, 'You need the admin role on this organization'))
      }
      await expectUnchanged(w, async () => expectError(await call(w.api, w.tokens.olga, method, path, body), 404, 'Organization not found'))
      await expectUnchanged(w, async () => expectError(await call(w.api, undefined, method, path, body), 401, ''))
    }
  })
})

describe('GET /v1/orgs/{id}/sso: sign-in choices', () => {
  it('any authenticated caller, member or not: id, label and startURL of each active provider, following patches and deletes', async () => {
    const w = await setup()
    const path = `/v1/orgs/${w.org.id}/sso`
    expect((await call(w.api, w.tokens.olga, 'GET', path)).body).toEqual({ items: [] })
    const a = (await w.create({ label: 'Okta', ...idp })).body
    const pending = (await w.create({ label: 'Pending' })).body
    const b = (await w.create({ label: 'Azure', ...idp })).body
    const logins = await call(w.api, w.tokens.olga, 'GET', path)
    expect(logins.status).toBe(200)
    expect(logins.body).toEqual({ items: [a, b].map((p) => ({ id: p.id, label: p.label, startURL: p.service.startURL })) })
    await call(w.api, w.tokens.ada, 'PATCH', `${w.base}/${a.id}`, { label: 'Okta SSO' })
    await call(w.api, w.tokens.ada, 'PATCH', `${w.base}/${pending.id}`, idp)
    await call(w.api, w.tokens.ada, 'DELETE', `${w.base}/${b.id}`)
    for (const token of [w.tokens.ada, w.tokens.olga, w.tokens.rita]) {
      expect((await call(w.api, token, 'GET', path)).body.items.map((i: { label: string }) => i.label)).toEqual(['Okta SSO', 'Pending'])
    }
  })

  it('an unknown organization is a 404; no token or a bad one a 401 (every request carries a token, the reference says)', async () => {
    const w = await setup()
    await w.create({ label: 'Okta', ...idp })
    expectError(await call(w.api, w.tokens.olga, 'GET', '/v1/orgs/nope/sso'), 404, 'Organization not found')
    expectError(await call(w.api, undefined, 'GET', `/v1/orgs/${w.org.id}/sso`), 401, '')
    expectError(await call(w.api, undefined, 'GET', '/v1/orgs/nope/sso'), 401, '')
    expectError(await call(w.api, 'gb_api_bad', 'GET', `/v1/orgs/${w.org.id}/sso`), 401, '')
  })
})

describe('SAML providers in state documents', () => {
  it('a dump loads into a new API that answers the same', async () => {
    const w = await setup()
    const p = (await w.create({ label: 'Okta', ...idp, defaultTeam: w.team.id, defaultRole: 'read' })).body
    const api = createDocsApi({ seed: w.api.dump() })
    const token = await api.fixtures.createToken(w.users.ada.id)
    const res = await api.fetch(new Request(`http://localhost:4000/v1/orgs/${w.org.id}/saml/${p.id}`, { headers: { authorization: `Bearer ${token}` } }))
    expect(await res.json()).toEqual(p)
  })

  it('a row that breaks a rule is refused, naming it', async () => {
    const w = await setup()
    const doc = w.api.dump()
    const seed = (row: object) => () => createDocsApi({ seed: { ...doc, samlProviders: [{ id: 'p1', organization: w.org.id, label: 'X', ...row } as never] } })
    expect(seed({ certificate: PUBLIC_KEY })).toThrow('Invalid seed: `samlProviders[0].certificate`: must be an X.509 certificate, not a public key')
    expect(seed({ defaultTeam: 'nope' })).toThrow('Invalid seed: `samlProviders[0].defaultTeam`')
    expect(seed({ ssoURL: 'javascript:alert(1)' })).toThrow('Invalid seed: `samlProviders[0].ssoURL`: must be an http or https URL (not javascript:)')
    expect(seed({ organization: 'nope' })).toThrow('Invalid seed: `samlProviders[0].organization`')
  })

  it('a seed with a certificate, in a process that has not loaded pkijs yet, asks for `await preload()`; after it the seed loads', async () => {
    const w = await setup()
    await w.create({ label: 'Okta', ...idp })
    const doc = w.api.dump()
    // A fresh copy of the package: its certificate check has loaded nothing yet.
    vi.resetModules()
    const fresh = await import('../../../src/index.js')
    expect(() => fresh.createDocsApi({ seed: doc })).toThrow('`await preload()`')
    await fresh.preload()
    expect((fresh.createDocsApi({ seed: doc }).dump() as { samlProviders: unknown }).samlProviders).toEqual((doc as { samlProviders: unknown }).samlProviders)
  })

  it('a request that sets a certificate loads the check itself (a fresh copy of the package, nothing preloaded)', async () => {
    vi.resetModules()
    const fresh = await import('../../../src/index.js')
    const api = fresh.createDocsApi()
    const user = await api.fixtures.createUser({ displayName: 'Ada', email: 'ada@acme.test' })
    const org = await api.fixtures.createOrganization({ title: 'Acme', members: [{ user: user.id, role: 'admin' }] })
    const token = await api.fixtures.createToken(user.id)
    const post = (body: object) =>
      api.fetch(
        new Request(`http://localhost:4000/v1/orgs/${org.id}/saml`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
      )
    expect((await post({ label: 'Okta', ...idp })).status).toBe(201)
    const refused = await post({ label: 'Bad', certificate: pem(derOf(CERTIFICATE).slice(0, 40)) })
    expect(refused.status).toBe(400)
    expect(JSON.stringify(await refused.json())).toContain('must be a valid X.509 certificate')
  })
})
