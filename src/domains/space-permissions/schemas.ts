import { z } from 'zod'
import { listOrder, listQuery } from '../../core/paging.js'
import { listOf, RoleOrGuestSchema, RoleSchema, UserSchema } from '../common/schemas.js'
import { SpaceSchema } from '../spaces/schemas.js'
import { TeamSchema } from '../teams/schemas.js'

/** Ids of the users or teams of an invitation: at least one, each a non-empty string. */
const principalIds = (what: string) =>
  z
    .array(
      z
        .string()
        .min(1, 'must not be empty')
        .meta({ description: `The ID of the ${what} to invite` }),
      { error: 'must be an array of ids' },
    )
    .min(1, 'must have at least 1 item')

export const InviteToSpaceSchema = z
  .object({
    role: RoleOrGuestSchema.meta({ description: 'Role to set; null removes the direct role of the listed users and teams.' }),
    users: principalIds('user').optional(),
    teams: principalIds('team').optional(),
  })
  .refine((body) => body.users !== undefined || body.teams !== undefined, { message: 'must have `users` or `teams` (or both)' })
  .meta({ id: 'InviteUsersAndTeams' })

/** The body of the PATCH operations: the role to set, or null to remove the grant. */
export const UpdateSpacePermissionSchema = z.object({
  role: RoleOrGuestSchema.meta({ description: 'Role to set on the space; null removes the direct role.' }),
})

export const UserSpacePermissionSchema = z
  .object({ permission: RoleSchema, user: UserSchema })
  .meta({ id: 'UserContentPermission', description: 'Permission of a user in a content.' })

export const TeamSpacePermissionSchema = z.object({ permission: RoleSchema, team: TeamSchema }).meta({ description: 'Permission of a team in a space.' })

export const UserSpacePermissionListSchema = listOf(UserSpacePermissionSchema)
export const TeamSpacePermissionListSchema = listOf(TeamSpacePermissionSchema)

/** A space a member holds a direct grant on, with the granted role. */
export const MemberSpaceSchema = z.object({ permission: RoleSchema, space: SpaceSchema }).meta({ id: 'MemberContentPermission' })

export const ListMemberSpacesQuerySchema = listQuery.extend({
  order: listOrder.meta({ description: 'By grant time (default `desc`: newest grant first).' }),
})
