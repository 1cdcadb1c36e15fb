import { existsSync } from 'node:fs'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { allows, parentResources, permissionsFor, POLICY, type Resource } from '../../src/core/policy.js'
import { implement } from '../../src/domains/context.js'
import { ROLES, type Level } from '../../src/core/roles.js'
import { boundOperations, operations } from '../../src/domains/index.js'
import { COLLECTION_PERMISSION_KEYS } from '../../src/domains/collections/schemas.js'
import { ORGANIZATION_PERMISSION_KEYS } from '../../src/domains/organizations/schemas.js'
import { SPACE_PERMISSION_KEYS } from '../../src/domains/spaces/schemas.js'
import { TEAM_PERMISSION_KEYS } from '../../src/domains/teams/schemas.js'
import { SITE_PERMISSION_KEYS } from '../../src/domains/sites/schemas.js'

/**
 * Operations that declare no permission in the table because they check access themselves.
 * Each entry says why. A new operation with neither a permission nor an entry here fails the test.
 */
const CHECKS_ACCESS_ITSELF: Record<string, string> = {
  listOrganizationsForAuthenticatedUser: "lists only the caller's own memberships",
  joinOrganization: 'open to non-members: the rule is the verified email domain',
  joinOrganizationWithInvite: 'open to non-members: holding the invite link (its id) is the rule, refused while the organization disables invite links',
  getAuthenticatedUser: 'the caller themself',
  getUserById: 'visible to the caller and to people who share an organization with them',
  updateUserById: 'the caller themself (another user they can see is a 403, one they cannot a 404)',
  createUserNotificationsToken: "the caller's own token, bound to them",
  getApiInformation: 'any user: the version followed and when the API was made, nothing stored',
  createOrganization: 'any user (a site token gets 401): the caller becomes the admin of a new organization',
  getOrganizationsForEmailDomain: "the caller's own verified email domain only (another is a 403)",
  resolvePublishedContentByUrl: "open to anyone: resolves a published site's URL and issues the site token that reads it (published/answer.ts)",
  getPublishedContentByUrl: 'open to anyone: the GET form of resolvePublishedContentByUrl',
  getContentByUrl: 'any user: the content the URL names, each part checked as its own read would be (published/content-url.ts)',
  listSSOProviderLoginsInOrganization:
    'any authenticated caller, member or not (the sign-in choices of an organization one may join): labels and start URLs only',
  listIntegrations: 'lists public integrations, and the others of organizations where the caller has a role',
  publishIntegration: 'the organization is in the body (its admins publish); the name may not exist yet',
  downloadFile: "open to anyone: the URL's blob key is the capability (unguessable, naming bytes a file row still names)",
  downloadFileByKey: "open to anyone: the URL's blob key is the capability (unguessable, naming bytes a file row still names)",
  downloadChangeRequestPDF:
    "open to anyone for an hour: the URL's ticket is the capability (issued by getChangeRequestPDF to a caller who may view the change request)",
  getEmbedByUrl: 'any user (a site token gets 401): it reads nothing stored, the URL is resolved by the embeds resolver (embeds/resolver.ts)',
  trackEventsInSiteById:
    "open to anyone, as the renderer sends visitors' events without a token: the site must be published, or the caller one of its members (insights/model.ts trackedSite)",
}

describe('policy: every operation is guarded', () => {
  it('has a permission from the policy table, or checks access itself (listed above)', () => {
    const unguarded = operations.filter((op) => !op.permission && !(op.id in CHECKS_ACCESS_ITSELF)).map((op) => op.id)
    expect(unguarded, 'operations without a permission: add one from POLICY, or list them with the reason').toEqual([])
  })

  it('lists only existing operations that really declare no permission', () => {
    const byId = new Map(operations.map((op) => [op.id, op]))
    for (const id of Object.keys(CHECKS_ACCESS_ITSELF)) {
      expect(byId.has(id), `${id} is not an operation`).toBe(true)
      expect(byId.get(id)!.permission, `${id} declares a permission: remove it from the list`).toBeUndefined()
    }
  })

  it('names actions that exist in POLICY, on a path parameter the operation has', () => {
    for (const op of operations) {
      if (!op.permission) continue
      const { resource, action, param } = op.permission
      expect(POLICY[resource], `${op.id}: resource ${resource}`).toBeDefined()
      expect((POLICY[resource] as Record<string, Level>)[action], `${op.id}: ${resource}.${action}`).toBeDefined()
      expect(op.path, `${op.id}: no {${param ?? `${resource}Id`}} in its path`).toContain(`{${param ?? `${resource}Id`}}`)
      expect(op.params?.shape, `${op.id}: params schema`).toHaveProperty(param ?? `${resource}Id`)
    }
  })
})

describe('policy: the permissions booleans come from the same table', () => {
  const require = createRequire(import.meta.url)
  const spec = JSON.parse(readFileSync(require.resolve('@gitbook/api/spec/openapi.json'), 'utf8'))
  const officialKeys = (schema: string): string[] => Object.keys(spec.components.schemas[schema].properties.permissions.properties)

  // ownTeam is not a role threshold: it says whether the caller owns a team of the organization.
  const NOT_A_POLICY_ACTION = new Set(['ownTeam'])

  it.each<[Resource, readonly string[], string]>([
    ['space', SPACE_PERMISSION_KEYS, 'Space'],
    ['collection', COLLECTION_PERMISSION_KEYS, 'Collection'],
    ['organization', ORGANIZATION_PERMISSION_KEYS, 'Organization'],
    ['team', TEAM_PERMISSION_KEYS, 'OrganizationTeam'],
    ['site', SITE_PERMISSION_KEYS, 'Site'],
  ])('every %s permission key maps to a POLICY action, and covers the official keys', (resource, keys, schema) => {
    for (const key of keys) expect(POLICY[resource], `${resource}.${key}`).toHaveProperty(key)
    for (const key of officialKeys(schema)) {
      if (NOT_A_POLICY_ACTION.has(key)) continue
      expect(keys, `official ${schema}.permissions.${key}`).toContain(key)
    }
  })

  it('permissionsFor answers allows() for every level, and nothing without access', () => {
    for (const level of [null, 'guest', ...ROLES] as Array<Level | null>) {
      const booleans = permissionsFor('space', level, SPACE_PERMISSION_KEYS)
      for (const key of SPACE_PERMISSION_KEYS) expect(booleans[key], `${level}:${key}`).toBe(allows('space', level, key))
      expect(Object.isFrozen(booleans)).toBe(true)
    }
    expect(Object.values(permissionsFor('space', null, SPACE_PERMISSION_KEYS)).some(Boolean)).toBe(false)
    expect(Object.values(permissionsFor('space', 'admin', SPACE_PERMISSION_KEYS)).every(Boolean)).toBe(true)
  })

  it('is monotonic: a higher role can do everything a lower role can', () => {
    const levels: Level[] = ['guest', ...ROLES]
    for (const resource of Object.keys(POLICY) as Resource[]) {
      for (const action of Object.keys(POLICY[resource])) {
        let allowed = false
        for (const level of levels) {
          const now = allows(resource, level, action as never)
          expect(!allowed || now, `${resource}.${action} allowed below ${level} but not at it`).toBe(true)
          allowed = now
        }
      }
    }
  })

  it('view is the lowest threshold of each resource (a resource you cannot see allows nothing)', () => {
    for (const resource of Object.keys(POLICY) as Resource[]) {
      const view = (POLICY[resource] as Record<string, Level>).view!
      for (const [action, min] of Object.entries(POLICY[resource] as Record<string, Level>)) {
        expect(allows(resource, min, 'view' as never), `${resource}.${action} (${min}) below view (${view})`).toBe(true)
      }
    }
  })
})

describe('policy: parents in the path', () => {
  it('are the resource parameters above the addressed one, other than the one the permission checks', () => {
    const edit = { resource: 'site', action: 'edit', param: 'siteId' } as const
    expect(parentResources('/v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}', edit)).toEqual([
      { resource: 'organization', param: 'organizationId' },
    ])
    expect(parentResources('/v1/orgs/{organizationId}/sites/{siteId}', { ...edit, missingIsSuccess: true })).toEqual([
      { resource: 'organization', param: 'organizationId' },
    ])
    // The addressed resource (the last parameter) is never a parent, even when it names a resource.
    expect(parentResources('/v1/spaces/{spaceId}/permissions/teams/{teamId}', { resource: 'space', action: 'managePermissions' })).toEqual([])
    expect(parentResources('/v1/orgs/{organizationId}/members/{userId}', { resource: 'organization', action: 'view' })).toEqual([])
    // Operations without a permission check access themselves.
    expect(parentResources('/v1/orgs/{organizationId}/sites/{siteId}/published', undefined)).toEqual([])
  })

  it('every bound operation carries its parents, and missingIsSuccess is only on the addressed resource', () => {
    for (const op of boundOperations) {
      expect(op.parents, op.def.id).toEqual(parentResources(op.def.path, op.def.permission))
      const p = op.def.permission
      if (p?.missingIsSuccess) expect(op.def.path.endsWith(`{${p.param ?? `${p.resource}Id`}}`), op.def.id).toBe(true)
    }
    const def = {
      id: 'deleteThing',
      method: 'DELETE',
      path: '/v1/spaces/{spaceId}/things/{thingId}',
      summary: 'x',
      tag: 'x',
      status: 204,
      errors: [],
      permission: { resource: 'space', action: 'admin', missingIsSuccess: true },
    } as const
    expect(() => implement({ deleteThing: def }, { deleteThing: () => undefined })).toThrow('missingIsSuccess is only for the resource the path addresses')
  })

  it('a prepare step on a path naming what no access check covers says what must exist first', () => {
    const def = {
      id: 'importThing',
      method: 'POST',
      path: '/v1/spaces/{spaceId}/things/{thingId}/import',
      summary: 'x',
      tag: 'x',
      status: 204,
      errors: [],
      permission: { resource: 'space', action: 'edit' },
    } as const
    const run = async () => ({ value: undefined, undo: () => undefined })
    expect(() => implement({ importThing: def }, { importThing: () => undefined }, { importThing: run })).toThrow('no access check covers {thingId}')
    const [bound] = implement({ importThing: def }, { importThing: () => undefined }, { importThing: { requires: () => undefined, run } })
    expect(bound!.prepare!.run).toBe(run)
    // The API's own prepare steps pass that rule: `boundOperations` (imported above) is built by implement().
  })
})

/**
 * The table written out, one line per action and one per operation, compared with a committed,
 * reviewed file. The authorization matrix (test/fuzz) derives its expectations from POLICY, so a
 * wrong level there passes it: this file is where a change of who may do what shows as a diff.
 * After a reviewed change of the table: `npx vitest run test/core/policy.test.ts -u`, and commit
 * the file with the change.
 */
function policyText(): string {
  const levels = (Object.keys(POLICY) as Resource[]).flatMap((resource) =>
    Object.entries(POLICY[resource] as Record<string, Level>).map(([action, level]) => `${`${resource}.${action}`.padEnd(40)} ${level}`),
  )
  const byPath = [...operations].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method))
  const lines = byPath.map((op) => {
    const where = `${op.id.padEnd(42)} ${op.method.padEnd(6)} ${op.path.padEnd(100)}`
    const p = op.permission
    if (!p) return `${where} checks access itself`
    const level = (POLICY[p.resource] as Record<string, Level>)[p.action]
    const extras = [p.param && `on {${p.param}}`, p.missingIsSuccess && 'missing is success'].filter(Boolean)
    return `${where} ${`${p.resource}.${p.action}`.padEnd(40)} ${level}${extras.length ? `  (${extras.join(', ')})` : ''}`.trimEnd()
  })
  return [
    '# POLICY (src/core/policy.ts): the minimum level of each action',
    ...levels,
    '',
    '# Operations: the permission checked before the handler, and the level it needs',
    ...lines.map((l) => l.replace(/ +$/, '')),
    '',
  ].join('\n')
}

describe('policy: the reviewed table', () => {
  it('matches test/core/policy.snapshot.txt (after a reviewed change: run this file with -u and commit it)', async () => {
    // The file must exist: a missing snapshot would be written by this run and pass, reviewing nothing.
    expect(existsSync(new URL('./policy.snapshot.txt', import.meta.url)), 'test/core/policy.snapshot.txt is missing').toBe(true)
    await expect(policyText()).toMatchFileSnapshot('./policy.snapshot.txt')
  })
})
