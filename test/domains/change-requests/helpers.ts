import { expect } from 'vitest'
import { schema } from '../../../src/index.js'
import { call, createWorld, type World } from '../../helpers.js'

/** Shared by the change request suites: a world with one space, and the calls they make most. */

export async function setup() {
  const w = await createWorld()
  const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Handbook' })
  const base = `/v1/spaces/${space.id}`
  return { ...w, space, base }
}

export type CrWorld = Awaited<ReturnType<typeof setup>>

export const counters = (w: World, spaceId: string) =>
  w.api.store.read((tx) => {
    const s = tx.get('spaces', spaceId)!
    return { total: s.changeRequests, open: s.changeRequestsOpen, draft: s.changeRequestsDraft }
  })

export async function openCr(w: CrWorld, subject = 'Edit', token = w.tokens.ada) {
  const res = await call(w.api, token, 'POST', `${w.base}/change-requests`, { subject })
  expect(res.status).toBe(201)
  return res.body
}

export async function edit(w: CrWorld, cr: string, changes: unknown[], token = w.tokens.ada) {
  return call(w.api, token, 'POST', `${w.base}/change-requests/${cr}/content?compat=false`, { changes })
}

export async function merge(w: CrWorld, cr: string, token = w.tokens.ada) {
  return call(w.api, token, 'POST', `${w.base}/change-requests/${cr}/merge`)
}

/** Add a member with a role to the world's organization; returns the user and their token. */
export async function addMember(w: World, name: string, role: 'read' | 'comment' | 'edit' | 'review' | 'create' | 'admin') {
  const user = await w.api.fixtures.createUser({ displayName: name, email: `${name.toLowerCase().replace(/\W+/g, '.')}@acme.test` })
  await w.api.fixtures.addMember(w.org.id, user.id, role)
  return { user, token: await w.api.fixtures.createToken(user.id) }
}

/** How many rows of each collection name `spaceId` in their `space` field (collections without one are left out). */
export function rowsOfSpace(w: World, spaceId: string): Record<string, number> {
  return w.api.store.read((tx) => {
    const out: Record<string, number> = {}
    for (const name of Object.keys(schema) as Array<keyof typeof schema>) {
      const n = tx.all(name).filter((row) => (row as { space?: unknown }).space === spaceId).length
      if (n > 0) out[name] = n
    }
    return out
  })
}
