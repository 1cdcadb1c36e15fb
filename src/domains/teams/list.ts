import type { z } from 'zod'
import type { ReadContext } from '../context.js'
import { compareKeys, paginate, type Page, type PageQuery, type SortKey } from '../../core/paging.js'
import type { MemberRow } from '../members/rows.js'
import { memberId } from '../members/model.js'
import type { TeamMemberRow, TeamRow } from './rows.js'
import { memberRole } from '../access/levels.js'
import type { ListMemberTeamsQuerySchema, ListTeamsQuerySchema } from './schemas.js'

/** Sort key of a team in lists: title (case-insensitive), then id, so the order is total. */
export const teamSortKey = (team: TeamRow): SortKey => [team.title.toLowerCase(), team.id]

/**
 * The teams `owner` can manage: every team of the organization for an admin, the teams they own
 * otherwise (none for someone who is not a member).
 */
function manageableTeams(ctx: ReadContext, organization: string, owner: string): TeamRow[] {
  const role = memberRole(ctx.tx, organization, owner)
  if (role === undefined) return []
  if (role === 'admin') return ctx.tx.scan('teams', 'byOrganization', organization).map((e) => e.row)
  const teams: TeamRow[] = []
  for (const { row } of ctx.tx.scan('teamMembers', 'byUser', owner)) {
    if (row.organization !== organization || row.role !== 'owner') continue
    const team = ctx.tx.get('teams', row.team)
    if (team) teams.push(team)
  }
  return teams
}

/** Teams of an organization by title, filtered by manager (`owner`) and title text. */
export function listTeams(ctx: ReadContext, organization: string, query: z.output<typeof ListTeamsQuerySchema>): Page<TeamRow> {
  const candidates = query.owner ? manageableTeams(ctx, organization, query.owner) : ctx.tx.scan('teams', 'byOrganization', organization).map((e) => e.row)
  const title = query.title?.toLowerCase()
  const teams = title ? candidates.filter((t) => t.title.toLowerCase().includes(title)) : candidates
  const sorted = teams.sort((a, b) => compareKeys(teamSortKey(a), teamSortKey(b)))
  return paginate(sorted, teamSortKey, query)
}

/** A team and the member's membership row in it. */
export interface MemberTeam {
  team: TeamRow
  membership: TeamMemberRow
}

/** Teams of the organization the user belongs to, by title (case-insensitive), then id. */
export function listMemberTeams(ctx: ReadContext, organization: string, user: string, query: z.output<typeof ListMemberTeamsQuerySchema>): Page<MemberTeam> {
  const title = query.title?.toLowerCase()
  const items: Array<MemberTeam & { key: SortKey }> = []
  for (const { row } of ctx.tx.scan('teamMembers', 'byUser', user)) {
    if (row.organization !== organization) continue
    const team = ctx.tx.get('teams', row.team)
    if (!team || (title && !team.title.toLowerCase().includes(title))) continue
    items.push({ team, membership: row, key: teamSortKey(team) })
  }
  items.sort((a, b) => compareKeys(a.key, b.key))
  const page = paginate(items, (item) => item.key, query)
  return { ...page, items: page.items.map(({ team, membership }) => ({ team, membership })) }
}

/** A member of a team: the membership in the team and in the organization. */
export interface TeamMemberEntry {
  membership: TeamMemberRow
  member: MemberRow
}

/** Members of a team by display name (case-insensitive), then user id. */
export function listTeamMembers(ctx: ReadContext, team: TeamRow, query: PageQuery): Page<TeamMemberEntry> {
  const items: Array<TeamMemberEntry & { key: SortKey }> = []
  for (const { row } of ctx.tx.scan('teamMembers', 'byTeam', team.id)) {
    const member = ctx.tx.get('members', memberId(team.organization, row.user))
    if (!member) continue
    const name = ctx.tx.get('users', row.user)?.displayName ?? ''
    items.push({ membership: row, member, key: [name.toLowerCase(), row.user] })
  }
  items.sort((a, b) => compareKeys(a.key, b.key))
  const page = paginate(items, (item) => item.key, query)
  return { ...page, items: page.items.map(({ membership, member }) => ({ membership, member })) }
}
