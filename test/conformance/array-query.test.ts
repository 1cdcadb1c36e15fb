import { ChangeRequestStatus, SiteType, type GitBookAPI } from '@gitbook/api'
import { describe, expect, it } from 'vitest'
import { operations } from '../../src/domains/index.js'
import { call, createWorld, type World } from '../helpers.js'
import { expectOfficialResponse, officialQueryParameters } from './official.js'

/**
 * Every query parameter the official document declares as an array, on the operations the table
 * has, sent through the official client: `@gitbook/api` writes an array as repeated keys
 * (`?status=draft&status=open`), so each is tried with one value and with several, and the answer
 * is checked against the official schema. A new operation with an array parameter fails the
 * first test until it gets a case here.
 */

const implemented = new Set(operations.map((op) => op.id))

/** `operationId.parameter` of every official array query parameter of an implemented operation. */
const officialArrays = [...implemented]
  .flatMap((id) =>
    officialQueryParameters(id)
      .filter((p) => p.schema?.type === 'array')
      .map((p) => `${id}.${p.name}`),
  )
  .sort()

interface Scene extends World {
  gb: GitBookAPI
}

async function scene(): Promise<Scene> {
  const w = await createWorld()
  return { ...w, gb: w.client(w.tokens.ada) }
}

/** Three commenters (ada, cora, carl) who each post one comment in the space and one in a change request. */
async function comments(w: Scene) {
  const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Handbook' })
  const cr = (await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Review' })).body
  const users = { ada: { id: w.users.ada.id, gb: w.gb } } as Record<string, { id: string; gb: GitBookAPI }>
  for (const name of ['cora', 'carl']) {
    const user = await w.api.fixtures.createUser({ displayName: name, email: `${name}@acme.test` })
    await w.api.fixtures.addMember(w.org.id, user.id, 'comment')
    users[name] = { id: user.id, gb: w.client(await w.api.fixtures.createToken(user.id)) }
  }
  const inSpace: Record<string, string> = {}
  const inCr: Record<string, string> = {}
  for (const [name, user] of Object.entries(users)) {
    inSpace[name] = (await user.gb.spaces.postCommentInSpace(space.id, { body: { markdown: `From ${name}` } })).data.id
    inCr[name] = (await user.gb.spaces.postCommentInChangeRequest(space.id, cr.id, { body: { markdown: `From ${name}` } })).data.id
  }
  return { space, cr, users, inSpace, inCr }
}

const sortedIds = (items: Array<{ id: string }>) => items.map((i) => i.id).sort()

const CASES: Record<string, (w: Scene) => Promise<void>> = {
  'listCommentsInSpace.authors': async (w) => {
    const { space, users, inSpace } = await comments(w)
    const one = await w.gb.spaces.listCommentsInSpace(space.id, { authors: [users.cora!.id] })
    expectOfficialResponse('listCommentsInSpace', 200, one.data)
    expect(sortedIds(one.data.items)).toEqual([inSpace.cora])
    const two = await w.gb.spaces.listCommentsInSpace(space.id, { authors: [users.cora!.id, users.carl!.id] })
    expectOfficialResponse('listCommentsInSpace', 200, two.data)
    expect(sortedIds(two.data.items)).toEqual([inSpace.cora, inSpace.carl].sort())
    const three = await w.gb.spaces.listCommentsInSpace(space.id, { authors: [users.cora!.id, users.carl!.id, users.ada!.id] })
    expect(three.data.count).toBe(3)
  },

  'listCommentsInChangeRequest.authors': async (w) => {
    const { space, cr, users, inCr } = await comments(w)
    const one = await w.gb.spaces.listCommentsInChangeRequest(space.id, cr.id, { authors: [users.carl!.id] })
    expectOfficialResponse('listCommentsInChangeRequest', 200, one.data)
    expect(sortedIds(one.data.items)).toEqual([inCr.carl])
    const two = await w.gb.spaces.listCommentsInChangeRequest(space.id, cr.id, { authors: [users.ada!.id, users.carl!.id] })
    expectOfficialResponse('listCommentsInChangeRequest', 200, two.data)
    expect(sortedIds(two.data.items)).toEqual([inCr.ada, inCr.carl].sort())
  },

  'listChangeRequestsForOrganization.status': async (w) => {
    const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Handbook' })
    const byStatus: Record<string, string> = {}
    for (const status of ['open', 'draft', 'archived'] as const) {
      const cr = await w.gb.spaces.createChangeRequest(space.id, { subject: status })
      if (status !== 'open') await w.gb.spaces.updateChangeRequestById(space.id, cr.data.id, { status })
      byStatus[status] = cr.data.id
    }
    const one = await w.gb.orgs.listChangeRequestsForOrganization(w.org.id, { status: [ChangeRequestStatus.Draft] })
    expectOfficialResponse('listChangeRequestsForOrganization', 200, one.data)
    expect(sortedIds(one.data.items)).toEqual([byStatus.draft])
    const two = await w.gb.orgs.listChangeRequestsForOrganization(w.org.id, { status: [ChangeRequestStatus.Draft, ChangeRequestStatus.Archived] })
    expectOfficialResponse('listChangeRequestsForOrganization', 200, two.data)
    expect(sortedIds(two.data.items)).toEqual([byStatus.draft, byStatus.archived].sort())
    // Paging runs over the statuses together, newest update first.
    const page = await w.gb.orgs.listChangeRequestsForOrganization(w.org.id, {
      status: [ChangeRequestStatus.Open, ChangeRequestStatus.Archived, ChangeRequestStatus.Open],
      limit: 1,
    })
    expect(page.data.count).toBe(2)
    const next = await w.gb.orgs.listChangeRequestsForOrganization(w.org.id, {
      status: [ChangeRequestStatus.Open, ChangeRequestStatus.Archived],
      limit: 1,
      page: page.data.next!.page,
    })
    expect(sortedIds([...page.data.items, ...next.data.items])).toEqual([byStatus.open, byStatus.archived].sort())
    // Without `status`: the open ones (the official default).
    expect(sortedIds((await w.gb.orgs.listChangeRequestsForOrganization(w.org.id)).data.items)).toEqual([byStatus.open])
  },

  'listSites.type': async (w) => {
    const ids: Record<string, string> = {}
    for (const type of [SiteType.Basic, SiteType.Premium, SiteType.Ultimate]) ids[type] = (await w.gb.orgs.createSite(w.org.id, { type })).data.id
    const one = await w.gb.orgs.listSites(w.org.id, { type: [SiteType.Premium] })
    expectOfficialResponse('listSites', 200, one.data)
    expect(sortedIds(one.data.items)).toEqual([ids.premium])
    const two = await w.gb.orgs.listSites(w.org.id, { type: [SiteType.Basic, SiteType.Ultimate] })
    expectOfficialResponse('listSites', 200, two.data)
    expect(sortedIds(two.data.items)).toEqual([ids.basic, ids.ultimate].sort())
  },
}

describe('conformance: array query parameters through @gitbook/api (repeated keys)', () => {
  it('has a case for every array query parameter of the official document on an implemented operation', () => {
    expect(Object.keys(CASES).sort()).toEqual(officialArrays)
  })

  it.each(Object.keys(CASES))('%s: one value, and several', async (key) => {
    await CASES[key]!(await scene())
  })
})
