import { describe, expect, it } from 'vitest'
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
