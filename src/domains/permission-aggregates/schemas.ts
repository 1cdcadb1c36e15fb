import { z } from 'zod'
import { listOrder, listQuery } from '../../core/paging.js'
import { ROLES } from '../../core/roles.js'
import { RoleOrGuestSchema, RoleSchema, TimestampSchema, UserSchema } from '../common/schemas.js'
import { MEMBER_SORTS } from '../members/schemas.js'

const roleFilter = z
  .enum(ROLES, { error: `must be one of ${ROLES.join(', ')}` })
  .optional()
  .meta({ description: 'Only the users whose effective role is this one.' })

/** The query of the space and collection aggregates: paging and a role filter. */
export const ContentAggregateQuerySchema = listQuery.extend({ role: roleFilter })

const SITE_ROLES = [...ROLES, 'guest'] as const

/** The query of the site aggregate: the member list's (role, search, sort, order) and a team. */
export const SiteAggregateQuerySchema = listQuery.extend({
  order: listOrder.meta({ description: 'Sort direction (default `desc`).' }),
  role: z
    .enum(SITE_ROLES, { error: `must be one of ${SITE_ROLES.join(', ')}` })
    .optional()
    .meta({ description: 'Only the users whose effective permission is this one (`guest`: null).' }),
  search: z.string().optional().meta({ description: 'Case-insensitive text matched against display name and email.' }),
  sort: z
    .enum(MEMBER_SORTS, { error: `must be one of ${MEMBER_SORTS.join(', ')}` })
    .default('joinedAt')
    .meta({ description: 'Sort key (default `joinedAt`); `lastSeenAt` lists only members seen at least once.' }),
  team: z.string().min(1, 'must not be empty').optional().meta({ description: 'Only the members of this team of the organization.' }),
})

const reason = z.enum(['member', 'team', 'default'])

/** Where a level on a space or collection comes from (beyond the official `UserContentPermission`). */
export const ContentPermissionOriginSchema = z
  .union([
    z.object({ type: z.literal('organization'), organization: z.string() }),
    z.object({ type: z.literal('space'), space: z.string(), reason, team: z.string().optional() }),
    z.object({ type: z.literal('collection'), collection: z.string(), reason, team: z.string().optional() }),
  ])
  .meta({
    id: 'ContentPermissionOrigin',
    description:
      'Where the effective role comes from: the organization role, or a default level (`default`), a grant to the user (`member`) or to one of his teams (`team`) on the space or a collection (the enclosing one the space or collection inherits from).',
  })

export const UserContentPermissionAggregateSchema = z.object({ permission: RoleSchema, user: UserSchema, origin: ContentPermissionOriginSchema }).meta({
  id: 'UserContentPermissionWithOrigin',
  description: 'Effective permission of a user in a content, with where it comes from (`origin`, an addition).',
})

export const UserSitePermissionOriginSchema = z
  .union([
    z.object({ type: z.literal('space'), space: z.string() }),
    z.object({ type: z.literal('organization'), organization: z.string() }),
    z.object({
      type: z.literal('site'),
      site: z.string(),
      reason: z.enum(['member', 'team', 'default']),
      team: z.string().optional(),
    }),
  ])
  .meta({ id: 'UserSitePermissionOrigin', description: 'The origin that enforced the effective permission level for a user in a site.' })

export const UserSitePermissionAggregateSchema = z
  .object({
    permission: RoleOrGuestSchema,
    user: UserSchema,
    origin: UserSitePermissionOriginSchema,
    disabled: z.boolean(),
    lastSeenAt: TimestampSchema.optional(),
  })
  .meta({ id: 'UserSitePermission', description: 'Effective permission of a user in a site.' })

/** A list whose `count` is optional: the aggregates of spaces and collections leave it out (it would need a scan of the organization). */
export function aggregateListOf<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    count: z.number().optional(),
    next: z.object({ page: z.string() }).optional(),
  })
}
