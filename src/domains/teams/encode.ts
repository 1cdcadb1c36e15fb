import { permissionsFor } from '../../core/policy.js'
import type { ReadContext } from '../context.js'
import type { Level } from '../../core/roles.js'
import type { TeamRow } from './rows.js'
import { teamSpaceCount, withOwnerPermissions } from './model.js'
import { TEAM_PERMISSION_KEYS } from './schemas.js'

/** The API resource of a team. `permissions` are the caller's (or those of `level`), owners' included (withOwnerPermissions). */
export function encodeTeam(ctx: ReadContext, row: TeamRow, level?: Level | null) {
  const l = level === undefined ? ctx.access.level('team', row.id) : level
  const permissions = permissionsFor('team', l, TEAM_PERMISSION_KEYS)
  return {
    object: 'team' as const,
    id: row.id,
    title: row.title,
    members: ctx.tx.count('teamMembers', 'byTeam', row.id),
    spaces: teamSpaceCount(ctx, row.id),
    createdAt: row.createdAt,
    permissions: withOwnerPermissions(ctx, row.id, permissions),
  }
}
