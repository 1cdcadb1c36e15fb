import { schema } from '../../src/index.js'
import type { FuzzWorld } from './world.js'

/**
 * Candidate ids for a path parameter. A name the world does not know (a new area) falls back to
 * the ids of every row of every store collection (the arbitraries add random ids), so a new
 * operation is fuzzed without editing this file.
 */
export function candidatesFor(world: FuzzWorld, name: string): string[] {
  const known = world.candidates[name]
  if (known) return known
  return world.api.store.read((tx) => Object.keys(schema).flatMap((c) => tx.all(c as keyof typeof schema).map((row) => (row as { id: string }).id)))
}

/**
 * Body and query fields that hold ids, by the path parameter whose ids they take. Generated
 * bodies then name real resources often enough to get past "not found" into the handlers.
 * A field not listed whose name ends in `Id`/`Ids` gets every id of the world.
 */
const FIELD_PARAM: Record<string, string> = {
  spaceId: 'spaceId',
  space: 'spaceId',
  spaces: 'spaceId',
  sectionId: 'siteSectionId',
  siteSectionId: 'siteSectionId',
  siteSpaceId: 'siteSpaceId',
  siteSection: 'siteSectionId',
  sections: 'siteSectionId',
  defaultSiteSection: 'siteSectionId',
  siteSectionGroupId: 'siteSectionGroupId',
  parentSectionGroupId: 'siteSectionGroupId',
  siteSpace: 'siteSpaceId',
  defaultSiteSpace: 'siteSpaceId',
  collection: 'collectionId',
  organization: 'organizationId',
  users: 'userId',
  members: 'userId',
  owner: 'userId',
  teams: 'teamId',
  site: 'siteId',
  shareKey: 'shareKey',
  authors: 'userId',
  targetPage: 'pageId',
  defaultTeam: 'teamId',
  cluster: 'clusterId',
  conversation: 'conversationId',
}

/** Row fields that point at a parent, by the path parameter naming that parent. */
const PARENT_FIELDS: Record<string, string> = {
  organization: 'organizationId',
  site: 'siteId',
  space: 'spaceId',
  section: 'siteSectionId',
  sectionGroup: 'siteSectionGroupId',
  parent: 'collectionId',
  team: 'teamId',
  changeRequest: 'changeRequestId',
  comment: 'commentId',
}

/**
 * The parents a stored row names (`organization`, `site`, `section`...), by path parameter name:
 * generated paths put a resource under its own parents most of the time, so they reach handlers
 * instead of all ending in "not found". Read from the store, so a new area's rows work as they are.
 */
export function parentsOf(world: FuzzWorld, id: string): Record<string, string> {
  return world.api.store.read((tx) => {
    for (const name of Object.keys(schema)) {
      const row = tx.get(name as keyof typeof schema, id) as Record<string, unknown> | undefined
      if (!row) continue
      const out: Record<string, string> = {}
      for (const [field, param] of Object.entries(PARENT_FIELDS)) if (typeof row[field] === 'string') out[param] = row[field] as string
      return out
    }
    return {}
  })
}

/** Candidate ids for a body or query field (undefined: not an id field). */
export function idsForField(world: FuzzWorld, field: string): string[] | undefined {
  if (field === 'parent') return [...world.candidates.collectionId!, ...world.candidates.siteSectionGroupId!]
  if (field === 'id' || field === 'item') return [...new Set(Object.values(world.candidates).flat())]
  if (field === 'page') return world.cursors
  const param = FIELD_PARAM[field] ?? (/Ids?$/.test(field) ? field.replace(/s$/, '') : undefined)
  return param ? candidatesFor(world, param) : undefined
}

/** The matrix target a body field names (the same resource as the path parameter of that kind). */
export function targetForField(world: FuzzWorld, field: string): string | undefined {
  // A parent collection other than the target collection, which cannot move into itself.
  if (field === 'parent') return world.collections.parent
  const param = FIELD_PARAM[field]
  return param ? world.targets[param] : undefined
}
