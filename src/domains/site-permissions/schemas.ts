import { z } from 'zod'
import { listOf, RoleOrGuestSchema, RoleSchema, UserSchema } from '../common/schemas.js'
import { InviteToSpaceSchema } from '../space-permissions/schemas.js'
import { TeamSchema } from '../teams/schemas.js'

/** The body of `inviteToSite`: the same as a space's invitation (`InviteSiteUsersAndTeams`). */
export const InviteToSiteSchema = InviteToSpaceSchema.meta({ id: 'InviteSiteUsersAndTeams' })

/** The body of the PATCH operations: the role to set (the official body is a `MemberRole`, never null). */
export const UpdateSitePermissionSchema = z.object({
  role: RoleSchema.meta({ description: 'Role to set on the site.' }),
})

export const UserSitePermissionSchema = z
  .object({ permission: RoleOrGuestSchema, user: UserSchema })
  .meta({ id: 'UserSitePermissionOverride', description: 'Permission override of a user in a site.' })

export const TeamSitePermissionSchema = z
  .object({ permission: RoleOrGuestSchema, team: TeamSchema })
  .meta({ id: 'TeamSitePermissionOverride', description: 'Permission override of a team in a site.' })

export const UserSitePermissionListSchema = listOf(UserSitePermissionSchema)
export const TeamSitePermissionListSchema = listOf(TeamSitePermissionSchema)
