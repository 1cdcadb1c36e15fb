import { createDocsApi, type DocsApi } from '../src/index.js'
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

/** Throw unless the response has `status`; returns its text (read as a client reads it). */
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

/** An API (in-memory store, default ids and clock) with an admin and an organization. */
export async function apiWorld(n: number): Promise<World & { api: DocsApi }> {
  const api = createDocsApi({ baseUrl: BASE })
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
