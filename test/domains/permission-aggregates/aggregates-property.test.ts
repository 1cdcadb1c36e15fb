import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ROLES, type Level, type Role } from '../../../src/core/roles.js'
import { collectionLevelOf, siteLevelOf, spaceLevelOf } from '../../../src/domains/access/levels.js'
import { call, createWorld } from '../../helpers.js'

/**
 * The aggregates against the policy: a generated organization (admins, members of every role,
 * guests, disabled members, non-members; teams; nested collections with default levels; spaces in
 * and out of collections with every visibility; sites; grants to users and teams on all of them),
 * then, for every space, collection and site, the aggregate read through the API (every page, at
 * small limits) compared for every user with the policy's level (the *LevelOf functions the access
 * check runs), and probed: a user listed with a role GETs the resource, one not listed gets a 404.
 */

const role = fc.constantFrom<Role>(...ROLES)
const defaultLevel = fc.constantFrom<Role | null | 'inherit'>(null, 'inherit', 'read', 'comment', 'edit', 'admin')
type Membership = Role | 'guest' | 'disabled' | 'none'
const membership = fc.constantFrom<Membership>('admin', 'read', 'comment', 'edit', 'review', 'create', 'guest', 'guest', 'disabled', 'none')
const grant = (users: number, teams: number) =>
  fc.record({
    principal:
      teams > 0
        ? fc.oneof(
            fc.nat(users - 1).map((u) => ({ user: u })),
            fc.nat(teams - 1).map((t) => ({ team: t })),
          )
        : fc.nat(users - 1).map((u) => ({ user: u })),
    role,
  })

const organization = fc
  .record({
    users: fc.array(membership, { minLength: 2, maxLength: 8 }),
    teams: fc.nat(3),
    collections: fc.nat(3),
    spaces: fc.integer({ min: 1, max: 4 }),
    sites: fc.nat(2),
  })
  .chain((shape) => {
    // createWorld's four users (ada admin, rita reader, gina guest, olga outsider), then the generated ones.
    const users = shape.users.length + 4
    const principalGrants = fc.array(grant(users, shape.teams), { maxLength: 4 })
    return fc.record({
      users: fc.constant(shape.users),
      teams: fc.array(fc.subarray(Array.from({ length: users }, (_, i) => i)), { minLength: shape.teams, maxLength: shape.teams }),
      collections: fc.array(fc.record({ parent: fc.nat(), defaultLevel, grants: principalGrants }), {
        minLength: shape.collections,
        maxLength: shape.collections,
      }),
      spaces: fc.array(
        fc.record({
          parent: fc.option(fc.nat(), { nil: undefined }),
          visibility: fc.constantFrom('private', 'public', 'unlisted', 'in-collection'),
          defaultLevel,
          grants: principalGrants,
        }),
        { minLength: shape.spaces, maxLength: shape.spaces },
      ),
      sites: fc.array(principalGrants, { minLength: shape.sites, maxLength: shape.sites }),
      limit: fc.integer({ min: 1, max: 3 }),
    })
  })

type Org = typeof organization extends fc.Arbitrary<infer T> ? T : never

async function build(spec: Org) {
  const w = await createWorld()
  const api = w.api
  // createWorld's ada (admin, the caller), rita (read), gina (guest) and olga (no member), then new users.
  const ids = [w.users.ada.id, w.users.rita.id, w.users.gina.id, w.users.olga.id]
  const tokens = [w.tokens.ada, w.tokens.rita, w.tokens.gina, w.tokens.olga]
  for (const [i, m] of spec.users.entries()) {
    const user = await api.fixtures.createUser({ displayName: `User ${i}`, email: `user${i}@acme.test` })
    ids.push(user.id)
    tokens.push(await api.fixtures.createToken(user.id))
    if (m !== 'none') await api.fixtures.addMember(w.org.id, user.id, m === 'guest' || m === 'disabled' ? null : m)
  }
  // A disabled member keeps a role: he was a reader (grants and teams still name him).
  const members = ids.filter((_, i) => (i < 4 ? i !== 3 : spec.users[i - 4] !== 'none'))
  const teams: string[] = []
  for (const [i, who] of spec.teams.entries()) {
    teams.push((await api.fixtures.createTeam(w.org.id, { title: `Team ${i}`, members: who.map((u) => ids[u]!).filter((u) => members.includes(u)) })).id)
  }
  const principal = (p: { user: number } | { team: number }) => ('user' in p ? { user: ids[p.user]! } : { team: teams[p.team]! })
  const granted = (p: { user: number } | { team: number }) => !('user' in p) || members.includes(ids[p.user]!)
  const collections: string[] = []
  for (const [i, c] of spec.collections.entries()) {
    const parent = i > 0 && c.parent % 2 === 0 ? collections[c.parent % i] : undefined
    const row = await api.fixtures.createCollection(w.org.id, { title: `Collection ${i}`, ...(parent && { parent }) })
    collections.push(row.id)
    api.system((ctx) => ctx.tx.update('collections', { ...ctx.tx.get('collections', row.id)!, defaultLevel: c.defaultLevel }))
    for (const g of c.grants) if (granted(g.principal)) await api.fixtures.grantCollection(row.id, principal(g.principal), g.role)
  }
  const spaces: string[] = []
  for (const [i, s] of spec.spaces.entries()) {
    const parent = s.parent !== undefined && collections.length > 0 ? collections[s.parent % collections.length] : undefined
    const visibility = s.visibility === 'in-collection' && !parent ? 'private' : s.visibility
    const row = await api.fixtures.createSpace(w.org.id, { title: `Space ${i}`, visibility: visibility as 'private', ...(parent && { parent }) })
    spaces.push(row.id)
    api.system((ctx) => ctx.tx.update('spaces', { ...ctx.tx.get('spaces', row.id)!, defaultLevel: s.defaultLevel }))
    for (const g of s.grants) if (granted(g.principal)) await api.fixtures.grantSpace(row.id, principal(g.principal), g.role)
  }
  const sites: string[] = []
  for (const [i, grants] of spec.sites.entries()) {
    const site = await api.fixtures.createSite(w.org.id, { title: `Site ${i}` })
    sites.push(site.id)
    for (const g of grants) {
      if (!granted(g.principal)) continue
      const p = principal(g.principal)
      const path = 'user' in p ? `users/${p.user}` : `teams/${p.team}`
      expect((await call(api, w.tokens.ada, 'PATCH', `/v1/orgs/${w.org.id}/sites/${site.id}/permissions/${path}`, { role: g.role })).status).toBe(204)
    }
  }
  // Disable the disabled members last: grants and teams were given while they were enabled.
  api.system((ctx) => {
    for (const [i, m] of spec.users.entries()) {
      if (m === 'disabled') ctx.tx.update('members', { ...ctx.tx.get('members', `${w.org.id}/${ids[i + 4]}`)!, disabled: true })
    }
  })
  return { w, ids, tokens, collections, spaces, sites }
}

/** Every item of an aggregate, by user id, following `next.page` (a page may be short). */
async function aggregate(w: Awaited<ReturnType<typeof createWorld>>, path: string, limit: number) {
  const byUser = new Map<string, { permission: Role | null; origin: unknown }>()
  let page: string | undefined
  for (let n = 0; n < 1000; n++) {
    const res = await call(w.api, w.tokens.ada, 'GET', `${path}?limit=${limit}${page ? `&page=${page}` : ''}`)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.items.length).toBeLessThanOrEqual(limit)
    for (const item of res.body.items) {
      expect(byUser.has(item.user.id), `${item.user.id} listed twice`).toBe(false)
      byUser.set(item.user.id, { permission: item.permission, origin: item.origin })
    }
    page = res.body.next?.page
    if (!page) break
  }
  if (page) throw new Error('too many pages')
  return byUser
}

type Origin =
  { type: 'organization' } | { type: 'space' | 'collection' | 'site'; space?: string; collection?: string; site?: string; reason: string; team?: string }

/** An origin checked against the rows themselves: it names a source that gives exactly that level. */
function expectOrigin(w: Awaited<ReturnType<typeof createWorld>>, user: string, level: Level, origin: Origin) {
  w.api.store.read((tx) => {
    if (origin.type === 'organization') {
      expect(tx.get('members', `${w.org.id}/${user}`)?.role ?? 'guest').toBe(level)
      return
    }
    const id = origin.space ?? origin.collection ?? origin.site!
    const grant = (key: string) =>
      origin.type === 'space'
        ? tx.get('spaceGrants', key)?.role
        : origin.type === 'collection'
          ? tx.get('collectionGrants', key)?.role
          : tx.get('siteGrants', key)?.role
    if (origin.reason === 'member') expect(grant(`${id}/user:${user}`)).toBe(level)
    else if (origin.reason === 'team') {
      expect(grant(`${id}/team:${origin.team}`)).toBe(level)
      expect(tx.scan('teamMembers', 'byTeam', origin.team!).some((e) => e.row.user === user)).toBe(true)
    } else {
      expect(origin.reason).toBe('default')
      expect(origin.type === 'space' ? tx.get('spaces', id)?.defaultLevel : tx.get('collections', id)?.defaultLevel).toBe(level)
    }
  })
}

const isRole = (level: Level | null | undefined): level is Role => (ROLES as readonly string[]).includes(level ?? '')

describe('permission aggregates agree with the policy', () => {
  it('for every space, collection and site, every user: listed iff the policy gives a role, with that role; the probe agrees', async () => {
    await fc.assert(
      fc.asyncProperty(organization, async (spec) => {
        const { w, ids, tokens, collections, spaces, sites } = await build(spec)
        const tx = <T>(fn: Parameters<typeof w.api.store.read<T>>[0]) => w.api.store.read(fn)
        for (const id of spaces) {
          const listed = await aggregate(w, `/v1/spaces/${id}/permissions/aggregate`, spec.limit)
          for (const [user, item] of listed) {
            expect(ids).toContain(user)
            expectOrigin(w, user, item.permission!, item.origin as Origin)
          }
          for (const [i, user] of ids.entries()) {
            const level = tx((t) => spaceLevelOf(t, t.get('spaces', id)!, user))
            expect(listed.get(user)?.permission, `space ${id}, user ${user}: level ${level}`).toBe(isRole(level) ? level : undefined)
            const get = await call(w.api, tokens[i], 'GET', `/v1/spaces/${id}`)
            if (listed.has(user)) expect(get.status).toBe(200)
            else expect(get.status).toBe(level === 'visitor' ? 200 : 404)
          }
        }
        for (const id of collections) {
          const listed = await aggregate(w, `/v1/collections/${id}/permissions/aggregate`, spec.limit)
          for (const [user, item] of listed) {
            expect(ids).toContain(user)
            expectOrigin(w, user, item.permission!, item.origin as Origin)
          }
          for (const [i, user] of ids.entries()) {
            const level = tx((t) => collectionLevelOf(t, t.get('collections', id)!, user))
            expect(listed.get(user)?.permission, `collection ${id}, user ${user}: level ${level}`).toBe(isRole(level) ? level : undefined)
            expect((await call(w.api, tokens[i], 'GET', `/v1/collections/${id}`)).status).toBe(listed.has(user) ? 200 : 404)
          }
        }
        for (const id of sites) {
          const listed = await aggregate(w, `/v1/orgs/${w.org.id}/sites/${id}/permissions/aggregate`, spec.limit)
          for (const [user, item] of listed) {
            expect(ids).toContain(user)
            expectOrigin(w, user, item.permission ?? 'guest', item.origin as Origin)
          }
          for (const [i, user] of ids.entries()) {
            const level = tx((t) => siteLevelOf(t, t.get('sites', id)!, user))
            // Every member the policy knows on the site is listed: a guest with permission null.
            expect(listed.has(user), `site ${id}, user ${user}: level ${level}`).toBe(Boolean(level))
            if (level) expect(listed.get(user)!.permission).toBe(isRole(level) ? level : null)
            const role = listed.get(user)?.permission
            expect((await call(w.api, tokens[i], 'GET', `/v1/orgs/${w.org.id}/sites/${id}`)).status).toBe(role ? 200 : 404)
          }
        }
      }),
      { numRuns: 25, seed: 23 },
    )
  }, 120_000)
})
