import { expect } from 'vitest'
import { GitBookAPI } from '@gitbook/api'
import { createDocsApi, type DocsApi, type DocsApiOptions } from '../src/index.js'
import { createClock, sequentialIds } from '../src/testing.js'
import { testStorage } from './test-storage.js'

export const BASE = 'http://localhost:4000'

export interface Called<T = any> {
  status: number
  body: T
  headers: Headers
}

/** Call the API through its fetch adapter, as an HTTP client would. */
export async function call<T = any>(
  api: DocsApi,
  token: string | undefined,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Called<T>> {
  const init: RequestInit = { method, headers: { ...headers } }
  if (token) (init.headers as Record<string, string>).authorization = `Bearer ${token}`
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body)
    ;(init.headers as Record<string, string>)['content-type'] ??= 'application/json'
  }
  const res = await api.fetch(new Request(`${BASE}${path}`, init))
  const text = await res.text()
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers }
}

/** Expect the API's error body with the given status (and a message matching `message`). */
export function errorOf(res: Called): { code: number; message: string } {
  return res.body?.error
}

/**
 * A small world: an organization "Acme" where ada is admin, rita a reader, gina a guest;
 * olga is in no organization. Time is frozen and ids are sequential; `options` adds to the API's
 * (a fake `fetch`, say). In memory, or on SQLite under DOCS_TEST_STORE=sqlite (test/test-storage.ts).
 */
export async function createWorld(options: Omit<DocsApiOptions, 'baseUrl' | 'now' | 'ids'> = {}) {
  const clock = createClock('2026-03-01T10:00:00.000Z')
  const api = createDocsApi({ ...(await testStorage()), ...options, baseUrl: BASE, now: clock.now, ids: sequentialIds('id') })
  const ada = await api.fixtures.createUser({ displayName: 'Ada Lovelace', email: 'ada@acme.test' })
  const rita = await api.fixtures.createUser({ displayName: 'Rita Reader', email: 'rita@acme.test' })
  const gina = await api.fixtures.createUser({ displayName: 'Gina Guest', email: 'gina@elsewhere.test' })
  const olga = await api.fixtures.createUser({ displayName: 'Olga Outsider', email: 'olga@acme.test' })
  const org = await api.fixtures.createOrganization({
    title: 'Acme',
    emailDomains: ['acme.test'],
    members: [
      { user: ada.id, role: 'admin' },
      { user: rita.id, role: 'read' },
      { user: gina.id, role: null },
    ],
  })
  const tokens = {
    ada: await api.fixtures.createToken(ada.id),
    rita: await api.fixtures.createToken(rita.id),
    gina: await api.fixtures.createToken(gina.id),
    olga: await api.fixtures.createToken(olga.id),
  }
  const client = (token: string) => new GitBookAPI({ endpoint: BASE, authToken: token, serviceBinding: { fetch: api.fetch } })
  return { api, clock, org, users: { ada, rita, gina, olga }, tokens, client }
}

export type World = Awaited<ReturnType<typeof createWorld>>

/**
 * An admin with a token, an organization and one space, on the in-memory store whatever
 * DOCS_TEST_STORE says, and `call` answering the raw Response for a path under /v1 (a string body
 * is sent as is): the world of the tests of large bodies and answers and of heavy work.
 */
export async function spaceWorld(options: Omit<DocsApiOptions, 'now' | 'ids'> = {}) {
  const api = createDocsApi({ now: createClock('2026-01-01T00:00:00Z').now, ids: sequentialIds('id'), ...options })
  const ada = await api.fixtures.createUser({ displayName: 'Ada', email: 'ada@acme.test' })
  const token = await api.fixtures.createToken(ada.id)
  const org = await api.fixtures.createOrganization({ title: 'Acme', members: [{ user: ada.id, role: 'admin' }] })
  const space = await api.fixtures.createSpace(org.id, { title: 'Docs' })
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
  const call = (method: string, path: string, body?: unknown) =>
    api.fetch(
      new Request(`http://x/v1${path}`, { method, headers, ...(body !== undefined && { body: typeof body === 'string' ? body : JSON.stringify(body) }) }),
    )
  return { api, org, space, call }
}

/** Add an editor (role `edit`, the lowest that may change sites) to the world's organization; returns their token. */
export async function addEditor(w: World): Promise<string> {
  const eddie = await w.api.fixtures.createUser({ displayName: 'Eddie Editor', email: 'eddie@acme.test' })
  await w.api.fixtures.addMember(w.org.id, eddie.id, 'edit')
  return w.api.fixtures.createToken(eddie.id)
}

/** Expect an error answer: the status, the same code in the body, and a message containing `message`. */
export function expectError(res: Called, status: number, message: string): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status)
  expect(res.body.error.code).toBe(status)
  expect(res.body.error.message).toContain(message)
}

/** Everything a site request may touch: a failed request must leave all of it as it was. */
export const siteSnapshot = (w: { api: DocsApi }) =>
  w.api.store.read((tx) => ({
    sites: tx.all('sites'),
    siteSpaces: tx.all('siteSpaces'),
    siteSections: tx.all('siteSections'),
    siteSectionGroups: tx.all('siteSectionGroups'),
    shareLinks: tx.all('shareLinks'),
    siteRedirects: tx.all('siteRedirects'),
    spaces: tx.all('spaces'),
    organizations: tx.all('organizations'),
    sequences: tx.all('sequences'),
  }))

/** One request of an access matrix: [operation id, method, path, body, the editor's expected status]. */
export type MatrixRow = readonly [string, string, string, unknown, number]

/**
 * The site access matrix of operations under a site, request by request: a reader reads and gets
 * 403 on changes; a guest gets 404 for the site and an outsider 404 for the organization (a hidden
 * parent is a 404 for every method, deletes included); no token is a 401; none of them changes the
 * store; then the editor's request gets `status`.
 */
export async function expectSiteAccessMatrix(w: World, editor: string, rows: readonly MatrixRow[]): Promise<void> {
  for (const [id, method, path, body, status] of rows) {
    const before = siteSnapshot(w)
    const reader = await call(w.api, w.tokens.rita, method, path, body)
    if (method === 'GET') expect(reader.status, id).toBe(200)
    else expectError(reader, 403, 'You need the edit role on this site to do this')
    expect(siteSnapshot(w), id).toEqual(before)
    for (const [token, hidden] of [
      [w.tokens.gina, 'Site'],
      [w.tokens.olga, 'Organization'],
    ] as const) {
      expectError(await call(w.api, token, method, path, body), 404, `${hidden} not found`)
      expect(siteSnapshot(w), id).toEqual(before)
    }
    expectError(await call(w.api, undefined, method, path, body), 401, '')
    expect(siteSnapshot(w), id).toEqual(before)
    const res = await call(w.api, editor, method, path, body)
    expect(res.status, `${id}: ${JSON.stringify(res.body)}`).toBe(status)
  }
}

/**
 * Resolve a published URL as GitBook's renderer does (`POST /v1/urls/published`, no token): the
 * answer (status and body). Its `apiToken` is the site token that reads what the URL names.
 */
export async function resolveUrl(api: DocsApi, url: string, body: Record<string, unknown> = {}): Promise<Called> {
  return call(api, undefined, 'POST', '/v1/urls/published', { url, ...body })
}

/** The site token of a published URL (which must resolve): what a visitor of the site reads with. */
export async function siteToken(api: DocsApi, url: string): Promise<string> {
  const res = await resolveUrl(api, url)
  expect(res.status, `resolving ${url}: ${JSON.stringify(res.body)}`).toBe(200)
  expect(res.body.apiToken).toEqual(expect.any(String))
  return res.body.apiToken as string
}
