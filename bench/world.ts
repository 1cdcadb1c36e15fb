import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createDocsApi, type DocsApi } from '../src/index.js'
import { openDataDir, type DataDir } from '../src/sqlite.js'
import { createBaseline } from './baseline.js'

/**
 * The two contenders, filled the way a user fills them: one admin, one organization, and `n`
 * spaces created by `POST /v1/orgs/{id}/spaces` through each contender's own fetch function.
 */

export const BASE = 'http://localhost:4000'

export type Fetch = (request: Request) => Promise<Response>

/** A contender and the credentials and organization to call it with. */
export interface Client {
  fetch: Fetch
  token: string
  organization: string
}

export interface World extends Client {
  /** Ids of the spaces created so far, in creation order. */
  ids: string[]
}

export const auth = (w: Client) => ({ authorization: `Bearer ${w.token}` })

/** The URL of a page of 100 spaces of the list (`page`: the cursor, none for the first). */
export const pageUrl = (w: Client, page: string | undefined) =>
  `${BASE}/v1/orgs/${w.organization}/spaces?limit=100${page ? `&page=${encodeURIComponent(page)}` : ''}`

/** The `next.page` cursor at the end of a page's text (both put `next` last), without parsing the page. */
export function nextCursor(text: string): string | undefined {
  const at = text.lastIndexOf('"next":{"page":"')
  return at === -1 ? undefined : text.slice(at + 16, text.indexOf('"', at + 16))
}

/** Throw unless the response has `status`; returns its text (read as a client reads it). */
/** Before timing a walk: a full walk of the list, parsed, must serve every space of the world once, in order. */
export async function checkWalk(w: World): Promise<void> {
  const seen: string[] = []
  let page: string | undefined
  do {
    const body = JSON.parse(await expectStatus(await w.fetch(new Request(pageUrl(w, page), { headers: auth(w) })), 200))
    seen.push(...body.items.map((s: { id: string }) => s.id))
    page = body.next?.page
  } while (page)
  if (seen.join() !== w.ids.join()) throw new Error(`a walk served ${seen.length} spaces, not the ${w.ids.length} there`)
}

/** One walk of the list, page by page (what the list measures time). */
export const walkList = (w: Client) => async (): Promise<void> => {
  let page: string | undefined
  do page = nextCursor(await expectStatus(await w.fetch(new Request(pageUrl(w, page), { headers: auth(w) })), 200))
  while (page)
}

export async function expectStatus(response: Response, status: number): Promise<string> {
  const text = await response.text()
  if (response.status !== status) throw new Error(`${response.status} ${text.slice(0, 160)}`)
  return text
}

export const createRequest = (world: Client, i: number): Request =>
  new Request(`${BASE}/v1/orgs/${world.organization}/spaces`, {
    method: 'POST',
    headers: { authorization: `Bearer ${world.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ title: `Space ${i}` }),
  })

/** Create `n` spaces through `world.fetch`, recording their ids. */
export async function seed(world: World, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const text = await expectStatus(await world.fetch(createRequest(world, world.ids.length)), 201)
    world.ids.push((JSON.parse(text) as { id: string }).id)
  }
}

/**
 * A SQLite store and file blobs in a fresh temporary directory (`openDataDir`, what `serve --data`
 * uses), removed when the process exits.
 */
export function sqliteData(): DataDir {
  const dir = mkdtempSync(join(tmpdir(), 'docs-content-api-bench-'))
  const data = openDataDir(dir)
  process.once('exit', () => {
    data.close()
    rmSync(dir, { recursive: true, force: true })
  })
  return data
}

/**
 * An API (default ids and clock) with an admin and an organization: on the in-memory store, or
 * on a SQLite file on disk (`storage: 'sqlite'`).
 */
export async function apiWorld(n: number, storage: 'memory' | 'sqlite' = 'memory'): Promise<World & { api: DocsApi }> {
  const data = storage === 'sqlite' ? sqliteData() : undefined
  const api = createDocsApi({ baseUrl: BASE, ...(data && { store: data.store, blobs: data.blobs }) })
  const user = await api.fixtures.createUser({ displayName: 'Bench', email: 'bench@bench.test' })
  const token = await api.fixtures.createToken(user.id)
  const org = await api.fixtures.createOrganization({ title: 'Bench', members: [{ user: user.id, role: 'admin' }] })
  const world = { api, fetch: (r: Request) => api.fetch(r), token, organization: org.id, ids: [] }
  await seed(world, n)
  return world
}

/** The baseline handler with one token and one organization (ids shaped like the API's). */
export async function baselineWorld(n: number): Promise<World> {
  const token = 'gb_api_baselinebaselinebaseline'
  const organization = 'BaselineOrganization'
  const world = { fetch: createBaseline({ baseUrl: BASE, tokens: [token], organizations: [organization] }), token, organization, ids: [] }
  await seed(world, n)
  return world
}
