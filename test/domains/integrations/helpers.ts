import { expect } from 'vitest'
import type { DocsApiOptions } from '../../../src/index.js'
import { call, createWorld, type Called } from '../../helpers.js'
import { createDocsApi } from '../../../src/index.js'
import { createClock, sequentialIds } from '../../../src/testing.js'
import { testStorage } from '../../test-storage.js'

/** A publish body with the required fields (the organization, title, description, script, scopes). */
export const manifest = (organization: string, extra: Record<string, unknown> = {}) => ({
  organization,
  title: 'My app',
  description: 'Does useful things',
  script: 'export default {}',
  scopes: ['space:content:read'],
  ...extra,
})

/**
 * The helpers' world (Ada admin, Rita reader, Gina guest, Olga outsider in Acme) over an API made
 * with `options` (integration handlers...), plus Globex where Olga is admin.
 */
export async function integrationWorld(options: DocsApiOptions = {}) {
  const base = await createWorld()
  const clock = createClock('2026-03-01T10:00:00.000Z')
  // Same users, tokens and organization, on an API with the given options (new ids: `n1`, `n2`...), on the test store (DOCS_TEST_STORE).
  const api = createDocsApi({
    ...(await testStorage()),
    baseUrl: 'http://localhost:4000',
    now: clock.now,
    ids: sequentialIds('n'),
    seed: base.api.dump(),
    ...options,
  })
  const globex = await api.fixtures.createOrganization({ title: 'Globex', members: [{ user: base.users.olga.id, role: 'admin' }] })
  const w = { ...base, api, clock, globex }
  const publish = async (name: string, extra: Record<string, unknown> = {}, token = w.tokens.ada) => {
    const res = await call(w.api, token, 'POST', `/v1/integrations/${name}`, manifest(w.org.id, extra))
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    return res.body
  }
  const install = async (name: string, organization = w.org.id, token = w.tokens.ada) => {
    const res = await call(w.api, token, 'POST', `/v1/integrations/${name}/installations`, { organization })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    return res.body
  }
  return { ...w, publish, install }
}
export type IntegrationWorld = Awaited<ReturnType<typeof integrationWorld>>

/** Expect a failed request to leave the store as it was (every collection, through `api.dump()`). */
export async function expectNoChange(w: { api: { dump(): unknown; idle(): Promise<void> } }, request: () => Promise<Called>): Promise<Called> {
  // Background work of earlier requests (a delivery) ends first: it is not this request's change.
  await w.api.idle()
  const before = w.api.dump()
  const res = await request()
  expect(w.api.dump()).toEqual(before)
  return res
}
