import { z } from 'zod'
import { listQuery } from '../../core/paging.js'
import { TimestampSchema, permissionsSchema } from '../common/schemas.js'
import { MemberSchema } from '../members/schemas.js'

export const TeamTitleSchema = z.string().min(1, 'must be at least 1 character').max(64, 'must be at most 64 characters').meta({ id: 'OrganizationTeamTitle' })

export const TEAM_PERMISSION_KEYS = ['admin', 'view'] as const

export const TeamSchema = z
  .object({
    object: z.literal('team'),
    id: z.string(),
    title: z.string(),
    members: z.number().int(),
    spaces: z.number(),
    createdAt: TimestampSchema,
    permissions: permissionsSchema(TEAM_PERMISSION_KEYS),
  })
  .meta({ id: 'OrganizationTeam' })

export const TeamMemberRoleSchema = z.enum(['owner', 'member']).meta({ id: 'TeamMemberRole' })
export const TeamMemberSchema = z.object({ role: TeamMemberRoleSchema }).meta({ id: 'TeamMember' })

const MemberIdsSchema = z.array(z.string().min(1, 'must not be empty'))

export const ListTeamsQuerySchema = listQuery.extend({
  owner: z.string().min(1).optional().meta({ description: 'A member id: only teams that member can manage (all of them for an organization admin).' }),
  title: z.string().optional().meta({ description: 'Only teams whose title contains this text (case-insensitive).' }),
})

export const CreateTeamSchema = z.object({
  title: TeamTitleSchema,
  members: MemberIdsSchema.optional().meta({ description: 'User ids of organization members to add to the team.' }),
})

export const UpdateTeamSchema = z.object({ title: TeamTitleSchema })

/** What the `createTeam` fixture takes: members and owners (user ids of organization members). */
export const CreateTeamFixtureSchema = z.object({
  title: TeamTitleSchema,
  members: MemberIdsSchema.default([]),
  owners: MemberIdsSchema.default([]),
})

/** A team a member belongs to, with the member's role in it. */
export const MemberTeamSchema = z.object({ team: TeamSchema, member: TeamMemberSchema })

export const ListMemberTeamsQuerySchema = listQuery.extend({
  title: z.string().optional().meta({ description: 'Only teams whose title contains this text (case-insensitive).' }),
})

/** A member of a team: their organization membership, their role in the team, and what the caller may do. */
export const TeamMemberItemSchema = z
  .object({
    organization: MemberSchema,
    team: TeamMemberSchema,
    permissions: permissionsSchema(['view'] as const),
  })
  .meta({ id: 'OrganizationTeamMember' })

export const ListTeamMembersQuerySchema = listQuery

const UserRefsSchema = z.array(z.string().min(1, 'must not be empty')).max(1000, 'must have at most 1000 users')

/** The bulk update of a team's members (official `UpdateMembersInOrganizationTeam`). */
export const UpdateTeamMembersSchema = z
  .object({
    add: UserRefsSchema.optional().meta({ description: 'Users to add (a user id or an email address), as `member` unless `memberships` says otherwise.' }),
    memberships: z
      .record(z.string().min(1), TeamMemberSchema)
      .optional()
      .meta({ description: 'Roles to set, by user id: of members already in the team or added by `add`.' }),
    remove: UserRefsSchema.optional().meta({ description: 'Users to remove (a user id or an email address); one not in the team is skipped.' }),
  })
  .meta({ id: 'UpdateMembersInOrganizationTeam' })

export const AddTeamMemberSchema = z.object({
  role: TeamMemberRoleSchema.optional().meta({ description: 'The role in the team (default `member`; sets the role of a member already in the team).' }),
})
