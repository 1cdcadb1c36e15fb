import { readdirSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { areas, boundOperations, seedRules } from '../../src/domains/index.js'
import { schema } from '../../src/domains/schema.js'
import { removeRow } from '../../src/domains/ownership.js'
import { richWorld } from '../toolkit/rich-world.js'

/**
 * The area modules (src/domains/<area>/index.ts) and what is derived from their list
 * (src/domains/index.ts): the storage schema, the operation table, the seed rules and the
 * ownership rules that purging a space, deleting a site or removing an organization walks.
 */
const DOMAINS = resolve(dirname(fileURLToPath(import.meta.url)), '../../src/domains')

describe('area modules', () => {
  it('every area folder has its area module, listed once, named for its folder', () => {
    const folders = readdirSync(DOMAINS, { withFileTypes: true })
      .filter((e) => e.isDirectory() && e.name !== 'access')
      .map((e) => e.name)
      .sort()
    expect(areas.map((a) => a.name).sort()).toEqual(folders)
    expect(new Set(areas.map((a) => a.name)).size).toBe(areas.length)
  })

  it("the storage schema is every area's collections, each collection in exactly one area", () => {
    const owners = new Map<string, string[]>()
    for (const area of areas) {
      for (const [name, def] of Object.entries(area.collections)) {
        owners.set(name, [...(owners.get(name) ?? []), area.name])
        expect(schema[name as keyof typeof schema], `${area.name}.${name}`).toBe(def)
      }
    }
    expect([...owners.keys()].sort()).toEqual(Object.keys(schema).sort())
    expect([...owners].filter(([, list]) => list.length > 1)).toEqual([])
  })

  it('an area loads only its own collections from a state document, and lists only its own operations', () => {
    for (const area of areas) {
      for (const rule of area.seed ?? []) expect(Object.keys(area.collections), `${area.name} seeds ${rule.collection}`).toContain(rule.collection)
    }
    expect(seedRules.map((r) => r.collection).sort()).toEqual(Object.keys(schema).sort())
    expect(boundOperations.length).toBe(areas.reduce((n, a) => n + (a.operations?.length ?? 0), 0))
  })
})

describe('ownership: what removing a row removes (src/domains/ownership.ts)', () => {
  const owned = areas.flatMap((a) => (a.owned ?? []).map((rule) => ({ area: a.name, rule })))

  it('each rule is declared by the area that stores its collections, and names real indexes', () => {
    for (const { area, rule } of owned) {
      const mine = Object.keys(areas.find((a) => a.name === area)!.collections)
      for (const c of rule.collections) expect(mine, `${area} declares an ownership rule for ${c}`).toContain(c)
      expect(Object.keys(schema)).toContain(rule.owner)
      if (rule.index) expect(Object.keys(schema[rule.collections[0]!].indexes), `${rule.collections[0]}.${rule.index}`).toContain(rule.index)
      expect(rule.index !== undefined || rule.remove !== undefined, `${area}: a rule removes by index or by function`).toBe(true)
    }
  })

  it('every collection whose rows name a space, a site or an organization has an owner rule', async () => {
    const w = await richWorld()
    const doc = w.api.dump() as unknown as Record<string, Array<Record<string, unknown>>>
    const ruled = new Set(owned.flatMap(({ rule }) => rule.collections))
    const missing = Object.keys(schema)
      .filter((c) => c !== 'spaces' && c !== 'sites' && c !== 'organizations')
      .filter((c) => doc[c]!.some((row) => 'space' in row || 'site' in row || 'organization' in row))
      .filter((c) => !ruled.has(c as never))
    expect(missing).toEqual([])
    for (const owner of ['spaces', 'sites', 'organizations']) expect(owner === 'organizations' || ruled.has(owner as never), owner).toBe(true)
  })

  it('removing an organization through the registry leaves no row of it, of its spaces or of its sites', async () => {
    const w = await richWorld()
    // A second organization with a member, a team, a space and a site of its own: removing the first leaves them.
    const other = await w.api.fixtures.createOrganization({ title: 'Other', members: [{ user: w.users.ada.id, role: 'admin' }] })
    await w.api.fixtures.createTeam(other.id, { title: 'Others', members: [w.users.ada.id] })
    const otherSpace = await w.api.fixtures.createSpace(other.id, { title: 'Elsewhere' })
    await w.api.fixtures.createSite(other.id, { title: 'Elsewhere', spaces: [otherSpace.id] })
    const before = w.api.dump() as unknown as Record<string, Array<Record<string, unknown>>>
    const spaces = new Set(before.spaces!.filter((s) => s.organization === w.org.id).map((s) => s.id))
    const sites = new Set(before.sites!.filter((s) => s.organization === w.org.id).map((s) => s.id))
    expect(spaces.size).toBeGreaterThan(0)
    expect(sites.size).toBeGreaterThan(0)
    const others = Object.fromEntries(
      Object.entries(before)
        .filter(([k]) => k !== 'blobs' && Array.isArray(before[k]))
        .map(([k, rows]) => [k, rows.filter((r) => r.organization !== undefined && r.organization !== w.org.id).length]),
    )
    w.api.system((ctx) => removeRow(ctx, 'organizations', w.org.id))
    const after = w.api.dump() as unknown as Record<string, Array<Record<string, unknown>>>
    const left = Object.entries(after)
      .filter(([, rows]) => Array.isArray(rows))
      .flatMap(([c, rows]) =>
        rows
          .filter(
            (r) =>
              r.organization === w.org.id ||
              (r.id === w.org.id && c === 'organizations') ||
              spaces.has(r.space as string) ||
              sites.has(r.site as string) ||
              (c === 'spaces' && spaces.has(r.id as string)),
          )
          .map((r) => `${c}/${String(r.id)}`),
      )
    expect(left).toEqual([])
    // Rows of the other organization stay, its space's site-space among them.
    for (const c of ['members', 'teams', 'spaces', 'sites']) expect(others[c], c).toBeGreaterThan(0)
    for (const [c, n] of Object.entries(others)) expect(after[c]!.filter((r) => r.organization !== undefined).length, c).toBe(n)
    expect(after.siteSpaces!.filter((r) => r.space === otherSpace.id)).toHaveLength(1)
    expect(after.organizations!.map((o) => o.id)).toEqual([other.id])
  })
})
