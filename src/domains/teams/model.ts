import { produce } from '../common/produce.js'
import type { Context, ReadContext } from '../context.js'
import { ApiError } from '../../core/errors.js'
import type { TeamMemberRow, TeamRow } from './rows.js'
import { memberId } from '../members/model.js'

/** Id of a team membership row. */
export const teamMemberId = (team: string, user: string): string => `${team}/${user}`

/** A team of the organization, or a 404 (a team of another organization is not found either). */
export function getTeam(ctx: ReadContext, organization: string, id: string): TeamRow {
  const team = ctx.tx.get('teams', id)
  if (!team || team.organization !== organization) throw new ApiError('NOT_FOUND', 'Team not found')
  return team
}

/** Whether `user` owns the team. */
export function ownsTeam(ctx: ReadContext, team: string, user: string): boolean {
  return !!user && ctx.tx.get('teamMembers', teamMemberId(team, user))?.role === 'owner'
}

const OWNER_PERMISSIONS = Object.freeze({ admin: true, view: true })

/** The caller's permissions on a team: those of their level, but an owner of the team may manage it (rename it) whatever their organization role. */
export function withOwnerPermissions<P extends { admin: boolean }>(ctx: ReadContext, team: string, permissions: P): P | typeof OWNER_PERMISSIONS {
  return !permissions.admin && ownsTeam(ctx, team, ctx.actor.user) ? OWNER_PERMISSIONS : permissions
}

/** Spaces a team has been granted (live spaces only). */
export function teamSpaceCount(ctx: ReadContext, team: string): number {
  let n = 0
  for (const { row } of ctx.tx.scan('spaceGrants', 'byPrincipal', `team:${team}`)) {
    const space = ctx.tx.get('spaces', row.space)
    if (space && !space.deletedAt) n++
  }
  return n
}

/** What creating a team takes. */
export interface NewTeam {
  title: string
  /** User ids of organization members joining as `member`. */
  members: readonly string[]
  /** User ids of organization members joining as `owner` (wins over `members`). */
  owners: readonly string[]
}

/**
 * Create a team with its first members. The team row is written first and each membership is
 * checked as it is added: a user who is not a member of the organization throws, and the
 * request's transaction rolls back the team and the memberships written before it.
 */
export function createTeam(ctx: Context, organization: string, input: NewTeam): TeamRow {
  const team = ctx.tx.insert('teams', { id: ctx.newId(), organization, title: input.title, createdAt: ctx.nowIso() })
  const owners = new Set(input.owners)
  const add = (user: string, role: TeamMemberRow['role'], field: string): void => {
    if (!ctx.tx.get('members', memberId(organization, user))) {
      throw new ApiError('BAD_REQUEST', `Invalid request: body field \`${field}\`: ${user} is not a member of the organization`)
    }
    if (ctx.tx.get('teamMembers', teamMemberId(team.id, user))) return
    ctx.tx.insert('teamMembers', { id: teamMemberId(team.id, user), team: team.id, organization, user, role })
  }
  input.owners.forEach((user, i) => add(user, 'owner', `owners[${i}]`))
  input.members.forEach((user, i) => {
    if (!owners.has(user)) add(user, 'member', `members[${i}]`)
  })
  return team
}

/** Set a team's title (no write when unchanged). */
export function renameTeam(ctx: Context, team: TeamRow, title: string): TeamRow {
  if (team.title === title) return team
  return ctx.tx.update(
    'teams',
    produce(team, (draft) => void (draft.title = title)),
  )
}

/** Delete a team with its memberships and its space grants. False when it did not exist. */
export function deleteTeam(ctx: Context, organization: string, id: string): boolean {
  const team = ctx.tx.get('teams', id)
  if (!team || team.organization !== organization) return false
  for (const { row } of ctx.tx.scan('teamMembers', 'byTeam', id)) ctx.tx.delete('teamMembers', row.id)
  for (const { row } of ctx.tx.scan('spaceGrants', 'byPrincipal', `team:${id}`)) ctx.tx.delete('spaceGrants', row.id)
  ctx.tx.delete('teams', id)
  return true
}
