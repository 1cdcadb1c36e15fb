import { permissionsFor } from '../../core/access.js'
import type { ReadContext } from '../context.js'
import type { Level } from '../../core/roles.js'
import type { TeamRow } from './rows.js'
import { ownsTeam } from './model.js'
import { TEAM_PERMISSION_KEYS } from './schemas.js'

/** Spaces a team has been granted (live spaces only). */
export function teamSpaceCount(ctx: ReadContext, team: string): number {
  let n = 0
  for (const { row } of ctx.tx.scan('spaceGrants', 'byPrincipal', `team:${team}`)) {
    const space = ctx.tx.get('spaces', row.space)
    if (space && !space.deletedAt) n++
  }
  return n
}

const OWNER_PERMISSIONS = Object.freeze({ admin: true, view: true })

/**
 * The API resource of a team. `permissions` are the caller's (or those of `level`): an owner of
 * the team may manage it (rename it) whatever their organization role.
 */
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
    permissions: !permissions.admin && ownsTeam(ctx, row.id, ctx.actor.user) ? OWNER_PERMISSIONS : permissions,
  }
}
