import { produce } from '../common/produce.js'
import type { Context, ReadContext } from '../context.js'
import { ApiError } from '../../core/errors.js'
import type { TeamMemberRow, TeamRow } from './rows.js'
import { memberId, removeAllGrantsOf } from '../members/model.js'

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

/** Delete a team with its memberships and its space, collection and site grants. False when it did not exist. */
export function deleteTeam(ctx: Context, organization: string, id: string): boolean {
  const team = ctx.tx.get('teams', id)
  if (!team || team.organization !== organization) return false
  for (const { row } of ctx.tx.scan('teamMembers', 'byTeam', id)) ctx.tx.delete('teamMembers', row.id)
  removeAllGrantsOf(ctx, { team: id })
  ctx.tx.delete('teams', id)
  return true
}

/** Whether the caller may manage the team's members: an organization admin (`manageTeams`) or an owner of the team. */
export function requireTeamManager(ctx: ReadContext, team: TeamRow): void {
  if (!ownsTeam(ctx, team.id, ctx.actor.user)) ctx.access.require('organization', team.organization, 'manageTeams')
}

/**
 * The organization member a reference names: a user id, or the email address of a member (case-insensitive).
 * A reference naming no member of the organization is a 400 naming `field`.
 */
export function resolveOrganizationMember(ctx: ReadContext, organization: string, ref: string, field: string): string {
  if (ctx.tx.get('members', memberId(organization, ref))) return ref
  if (ref.includes('@')) {
    const email = ref.toLowerCase()
    for (const { row } of ctx.tx.scan('members', 'byOrganization', organization)) {
      if (ctx.tx.get('users', row.user)?.email?.toLowerCase() === email) return row.user
    }
  }
  throw new ApiError('BAD_REQUEST', `Invalid request: ${field}: ${ref} is not a member of the organization`)
}

/**
 * Put a member in a team with `role` (default: `member`). Already in it: their role changes only
 * when `role` is given. Returns the membership row.
 */
export function putTeamMember(ctx: Context, team: TeamRow, user: string, role: TeamMemberRow['role'] | undefined): TeamMemberRow {
  const id = teamMemberId(team.id, user)
  const existing = ctx.tx.get('teamMembers', id)
  if (!existing) return ctx.tx.insert('teamMembers', { id, team: team.id, organization: team.organization, user, role: role ?? 'member' })
  if (role === undefined || role === existing.role) return existing
  return ctx.tx.update('teamMembers', { ...existing, role })
}

/** Take a user out of a team. False when they were not in it. */
export function removeTeamMember(ctx: Context, team: TeamRow, user: string): boolean {
  return ctx.tx.delete('teamMembers', teamMemberId(team.id, user))
}

/** What a bulk update of a team's members asks (users as ids or emails). */
export interface TeamMembersUpdate {
  add?: readonly string[] | undefined
  memberships?: Readonly<Record<string, { role: TeamMemberRow['role'] }>> | undefined
  remove?: readonly string[] | undefined
}

/**
 * Apply a bulk update: every reference is resolved first (a 400 naming the first bad one, nothing
 * written), then removals, additions, and the roles of `memberships`. A user both added and
 * removed is refused; removing one not in the team is skipped; adding one already in it keeps them.
 */
export function updateTeamMembers(ctx: Context, team: TeamRow, update: TeamMembersUpdate): void {
  const org = team.organization
  const add = (update.add ?? []).map((ref, i) => resolveOrganizationMember(ctx, org, ref, `body field \`add[${i}]\``))
  const added = new Set(add)
  const remove: string[] = []
  ;(update.remove ?? []).forEach((ref, i) => {
    const field = `body field \`remove[${i}]\``
    // One who is no longer a member of the organization is not in any of its teams: nothing to remove.
    const user = ctx.tx.get('teamMembers', teamMemberId(team.id, ref)) ? ref : tryResolve(ctx, org, ref, field)
    if (user === undefined) return
    if (added.has(user)) throw new ApiError('BAD_REQUEST', `Invalid request: ${field}: ${ref} is also in \`add\``)
    remove.push(user)
  })
  const removed = new Set(remove)
  const roles = Object.entries(update.memberships ?? {}).map(([ref, { role }]) => {
    const field = `body field \`memberships.${ref}\``
    const user = resolveOrganizationMember(ctx, org, ref, field)
    if (removed.has(user)) throw new ApiError('BAD_REQUEST', `Invalid request: ${field}: ${ref} is also in \`remove\``)
    if (!added.has(user) && !ctx.tx.get('teamMembers', teamMemberId(team.id, user))) {
      throw new ApiError('BAD_REQUEST', `Invalid request: ${field}: ${ref} is not in the team (list them in \`add\`)`)
    }
    return { user, role }
  })
  for (const user of remove) removeTeamMember(ctx, team, user)
  for (const user of add) putTeamMember(ctx, team, user, undefined)
  for (const { user, role } of roles) putTeamMember(ctx, team, user, role)
}

function tryResolve(ctx: ReadContext, organization: string, ref: string, field: string): string | undefined {
  try {
    return resolveOrganizationMember(ctx, organization, ref, field)
  } catch {
    return undefined
  }
}
