import { z } from 'zod'
import { ApiError } from './core/errors.js'
import type { Role } from './core/roles.js'
import { parseInput as parse, type System } from './domains/common/fixture-kit.js'
import { RoleOrGuestSchema } from './domains/common/schemas.js'
import { collectionFixtures } from './domains/collections/fixtures.js'
import { spacePermissionFixtures } from './domains/space-permissions/fixtures.js'
import { collectionPermissionFixtures } from './domains/collection-permissions/fixtures.js'
import { spaceFixtures } from './domains/spaces/fixtures.js'
import { siteFixtures } from './domains/sites/fixtures.js'
import { siteStructureFixtures } from './domains/site-structure/fixtures.js'
import { teamFixtures } from './domains/teams/fixtures.js'
import { addMember } from './domains/members/model.js'
import { encodeOrganization } from './domains/organizations/encode.js'
import { createOrganization } from './domains/organizations/model.js'
import { createInviteLink } from './domains/organizations/invites.js'
import { CreateOrganizationSchema } from './domains/organizations/schemas.js'
import { encodeUser } from './domains/users/encode.js'
import { resumers, seedRules } from './domains/index.js'
import { resumeWork } from './core/resume.js'
import { loadState, type CollectionName } from './state/seed.js'
import { preloadFor } from './domains/preload.js'
import type { StateDocumentInput } from './domains/seed-input.js'
import type { BlobPort } from './storage/blobs.js'

const CreateUserSchema = z.object({
  displayName: z.string().min(1, 'must not be empty').max(255, 'must be at most 255 characters'),
  email: z.email({ error: 'must be an email address' }).optional(),
  emailVerified: z.boolean().default(true),
  photoURL: z.url().optional(),
})

const MemberInputSchema = z.object({ user: z.string().min(1), role: RoleOrGuestSchema })

/**
 * Builds state through the same domain rules as the API: no raw insert bypasses an invariant.
 * Each helper runs in one transaction, so a failing helper leaves nothing behind.
 */
export function createFixtures(system: System, blobs: BlobPort) {
  return {
    ...teamFixtures(system),
    ...collectionFixtures(system),
    ...spaceFixtures(system),
    ...spacePermissionFixtures(system),
    ...collectionPermissionFixtures(system),
    ...siteFixtures(system),
    ...siteStructureFixtures(system),
    /** Create a user (email verified unless `emailVerified: false`). */
    async createUser(input: z.input<typeof CreateUserSchema>) {
      const data = parse(CreateUserSchema, input, 'user')
      return system((ctx) => {
        const row = ctx.tx.insert('users', {
          id: ctx.newId(),
          displayName: data.displayName,
          emailVerified: data.emailVerified,
          ...(data.email !== undefined && { email: data.email }),
          ...(data.photoURL !== undefined && { photoURL: data.photoURL }),
        })
        return encodeUser(ctx, row)
      })
    },

    /** Create an access token for a user; returns the token string for `Authorization: Bearer`. */
    async createToken(userId: string, token?: string) {
      return system((ctx) => {
        if (!ctx.tx.get('users', userId)) throw new ApiError('NOT_FOUND', `User ${userId} not found`)
        return ctx.tx.insert('tokens', { id: token ?? `gb_api_${ctx.newId()}`, user: userId, createdAt: ctx.nowIso() }).id
      })
    },

    /** Create an organization with its members. */
    async createOrganization(input: z.input<typeof CreateOrganizationSchema> & { members?: Array<{ user: string; role: Role | null }> }) {
      const { members = [], ...rest } = input
      const data = parse(CreateOrganizationSchema, rest, 'organization')
      const list = members.map((m) => parse(MemberInputSchema, m, 'member'))
      return system((ctx) => encodeOrganization(ctx, createOrganization(ctx, data, list), 'admin'))
    },

    /** Add a user to an organization with a role (null: guest). */
    async addMember(organizationId: string, userId: string, role: Role | null) {
      parse(RoleOrGuestSchema, role, 'role')
      return system((ctx) => {
        if (!ctx.tx.get('organizations', organizationId)) throw new ApiError('NOT_FOUND', 'Organization not found')
        return addMember(ctx, organizationId, userId, role)
      })
    },

    /**
     * Add the rows of a state document (what `api.dump()` writes) to the store, checked by the
     * same rules the domain keeps: every reference resolves, uniqueness and one-default rules
     * hold, fields are valid (defaults filled in where left out). All or nothing: a 400 naming the
     * row and field (``Invalid seed: `spaces[2].parent`: no collection "c9" ...``) loads nothing.
     */
    async load(doc: StateDocumentInput): Promise<void> {
      // Libraries some rows are checked with (SAML certificates, comment bodies), loaded on first use.
      await preloadFor(doc)
      system((ctx) => {
        const loaded = loadState(ctx, doc, seedRules, blobs)
        // The loaded rows' unfinished work starts (the API's other rows have their jobs already).
        resumeWork(ctx, resumers, (collection, id) => loaded.get(collection as CollectionName)?.has(id) ?? false)
      })
    },

    /** Create an invite link in an organization. */
    async createInviteLink(organizationId: string, role: Role | null = 'read') {
      return system((ctx) => createInviteLink(ctx, organizationId, role))
    },
  }
}

export type Fixtures = ReturnType<typeof createFixtures>
