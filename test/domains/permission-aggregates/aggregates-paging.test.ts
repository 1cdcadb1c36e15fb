import { describe, expect, it } from 'vitest'
import { createUrls } from '../../../src/core/context.js'
import type { ReadContext, ReadTx } from '../../../src/domains/context.js'
import { spaceAggregate } from '../../../src/domains/permission-aggregates/handlers.js'
import { scanBudget } from '../../../src/domains/permission-aggregates/walk.js'
import { call, createWorld } from '../../helpers.js'

describe('permission aggregates of spaces and collections: bounded pages', () => {
  it('a page looks at no more than its budget of members: short (even empty) with `next` while members remain', async () => {
    const w = await createWorld()
    // 600 guests after ada, rita and gina: none reaches the space but the last, through a grant.
    let last = ''
    for (let i = 0; i < 600; i++) {
      const user = await w.api.fixtures.createUser({ displayName: `Guest ${i}`, email: `g${i}@elsewhere.test` })
      await w.api.fixtures.addMember(w.org.id, user.id, null)
      last = user.id
    }
    const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Private' })
    await w.api.fixtures.grantSpace(space.id, { user: last }, 'edit')
    expect(scanBudget(10)).toBe(250)
    const pages: string[][] = []
    let page: string | undefined
    do {
      const res = await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${space.id}/permissions/aggregate?limit=10${page ? `&page=${page}` : ''}`)
      expect(res.status).toBe(200)
      pages.push(res.body.items.map((i: { user: { id: string } }) => i.user.id))
      page = res.body.next?.page
    } while (page)
    // 604 members, 250 a page: three pages; the middle one is empty and still leads on.
    expect(pages).toEqual([[w.users.ada.id, w.users.rita.id], [], [last]])
    // A role filter is bounded the same way: never a scan of the whole organization in one page.
    const admins = await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${space.id}/permissions/aggregate?limit=10&role=edit`)
    expect(admins.body.items).toEqual([])
    expect(admins.body.next?.page).toEqual(expect.any(String))
  })

  it('a full page stops at its last item: the next page starts right after it', async () => {
    const w = await createWorld()
    const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Open' })
    const first = await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${space.id}/permissions/aggregate?limit=1`)
    expect(first.body.items.map((i: { user: { id: string } }) => i.user.id)).toEqual([w.users.ada.id])
    const second = await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${space.id}/permissions/aggregate?limit=1&page=${first.body.next.page}`)
    // gina (a guest) is not listed: a guest level gives nothing on a space.
    expect(second.body.items.map((i: { user: { id: string } }) => i.user.id)).toEqual([w.users.rita.id])
    expect(second.body.next).toBeDefined()
    const third = await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${space.id}/permissions/aggregate?limit=1&page=${second.body.next.page}`)
    expect(third.body).toEqual({ items: [] })
    // limit=0: an empty page, no cursor.
    expect((await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${space.id}/permissions/aggregate?limit=0`)).body).toEqual({ items: [] })
  })
})

/** A transaction counting the reads made through it. */
function counting(tx: ReadTx): { tx: ReadTx; reads: () => number } {
  let reads = 0
  const counted = new Proxy(tx, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver)
      if (typeof value !== 'function') return value
      return (...args: unknown[]) => {
        reads++
        return value.apply(target, args)
      }
    },
  })
  return { tx: counted, reads: () => reads }
}

/** An organization of `members` readers in `teams` teams, a space in a collection with team grants on both; the store reads of a page of 20. */
async function readsOfAPage(members: number, teams: number) {
  const w = await createWorld()
  const byTeam: string[][] = Array.from({ length: teams }, () => [])
  for (let i = 0; i < members; i++) {
    const user = await w.api.fixtures.createUser({ displayName: `M ${i}`, email: `m${i}@acme.test` })
    await w.api.fixtures.addMember(w.org.id, user.id, i % 5 === 0 ? null : 'read')
    byTeam[i % teams]!.push(user.id)
  }
  const teamIds: string[] = []
  for (const [t, who] of byTeam.entries()) teamIds.push((await w.api.fixtures.createTeam(w.org.id, { title: `T ${t}`, members: who })).id)
  const collection = await w.api.fixtures.createCollection(w.org.id, { title: 'C' })
  const space = await w.api.fixtures.createSpace(w.org.id, { title: 'S', parent: collection.id })
  for (const team of teamIds.slice(0, 3)) await w.api.fixtures.grantSpace(space.id, { team }, 'edit')
  for (const team of teamIds.slice(3, 6)) await w.api.fixtures.grantCollection(collection.id, { team }, 'comment')
  return w.api.store.read((tx) => {
    const c = counting(tx as ReadTx)
    const ctx = { tx: c.tx, actor: { user: '' }, urls: createUrls('http://localhost:4000'), services: {} } as unknown as ReadContext
    const first = spaceAggregate(ctx, tx.get('spaces', space.id)!, { limit: 20 })
    const before = c.reads()
    const second = spaceAggregate(ctx, tx.get('spaces', space.id)!, { limit: 20, page: first.next!.page })
    return { items: [first.items.length, second.items.length], reads: [before, c.reads() - before] }
  })
}

describe('permission aggregates: the cost of a page', () => {
  it('is the same number of store reads in an organization of 1,000 members and 20 teams as of 60 members', async () => {
    const small = await readsOfAPage(60, 20)
    const large = await readsOfAPage(1000, 20)
    expect(small.items).toEqual([20, 20])
    expect(large.items).toEqual([20, 20])
    // The members the page looked at, each with his level: never the organization.
    expect(large.reads).toEqual(small.reads)
  })
})
