import { expect } from 'vitest'
import { call, createWorld, type World } from '../../helpers.js'

/** The search tests' world: the usual organization and a space "Handbook" with no content yet. */
export async function searchWorld() {
  const w = await createWorld()
  const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Handbook' })
  return { ...w, space }
}

/**
 * Edit a space's main content as a user does: a change request, one batch of `changes`
 * (`compat=false`), a merge. Returns the answer of the batch (its `changes`, with page ids).
 */
export async function publish(w: World, spaceId: string, changes: unknown[], token = w.tokens.ada) {
  const base = `/v1/spaces/${spaceId}/change-requests`
  const cr = await call(w.api, token, 'POST', base, { subject: 'Edit' })
  expect(cr.status, JSON.stringify(cr.body)).toBe(201)
  const edit = await call(w.api, token, 'POST', `${base}/${cr.body.id}/content?compat=false`, { changes })
  expect(edit.status, JSON.stringify(edit.body)).toBe(200)
  const merged = await call(w.api, token, 'POST', `${base}/${cr.body.id}/merge`)
  expect(merged.body.result, JSON.stringify(merged.body)).toBe('merge')
  return { ...edit.body, changeRequest: cr.body.id as string }
}

/** A page with markdown. */
export const page = (title: string, markdown: string, extra: object = {}) => ({ operation: 'insert_page', title, document: { markdown }, ...extra })

/** `GET /v1/spaces/{id}/search?query=` (more parameters in `extra`). */
export const searchSpace = (w: World, token: string | undefined, spaceId: string, query: string, extra = '') =>
  call(w.api, token, 'GET', `/v1/spaces/${spaceId}/search?query=${encodeURIComponent(query)}${extra}`)

/** `GET /v1/orgs/{id}/search?query=`. */
export const searchOrg = (w: World, token: string | undefined, orgId: string, query: string, extra = '') =>
  call(w.api, token, 'GET', `/v1/orgs/${orgId}/search?query=${encodeURIComponent(query)}${extra}`)

/** The titles of the pages a space search found, best first. */
export const titles = (body: { items: Array<{ title: string }> }) => body.items.map((p) => p.title)
