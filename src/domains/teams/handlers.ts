import { implement } from '../context.js'
import { NO_CONTENT } from '../../core/operation.js'
import { encodeMember } from '../members/encode.js'
import { mapPage } from '../../core/paging.js'
import { encodeTeam } from './encode.js'
import { getMember, requireUnlessSelf } from '../members/model.js'
import { listMemberTeams, listTeamMembers, listTeams } from './list.js'
import {
  createTeam,
  deleteTeam,
  getTeam,
  ownsTeam,
  putTeamMember,
  removeTeamMember,
  renameTeam,
  requireTeamManager,
  resolveOrganizationMember,
  teamMemberId,
  updateTeamMembers,
} from './model.js'
import { teamOperations } from './operations.js'
import type { Context } from '../context.js'
import type { TeamRow } from './rows.js'
import { recordAudit, teamTarget, userTarget } from '../audit/model.js'

/** The members of a team and their roles (to tell what a bulk update changed). */
function teamRoles(ctx: Context, team: string): Map<string, string> {
  return new Map(ctx.tx.scan('teamMembers', 'byTeam', team).map((e) => [e.row.user, e.row.role]))
}

/** Record each change between two states of a team's members: additions, role changes, removals. */
function auditTeamMembers(ctx: Context, team: TeamRow, before: Map<string, string>, after: Map<string, string>): void {
  const base = { organization: team.organization }
  for (const [user, role] of after) {
    const was = before.get(user)
    if (was === undefined) recordAudit(ctx, { ...base, action: 'team.member_added', target: userTarget(ctx, user), payload: { team: team.id, role } })
    else if (was !== role)
      recordAudit(ctx, { ...base, action: 'team.member_updated', target: userTarget(ctx, user), payload: { team: team.id, roleBefore: was, roleAfter: role } })
  }
  for (const [user, role] of before) {
    if (!after.has(user)) recordAudit(ctx, { ...base, action: 'team.member_removed', target: userTarget(ctx, user), payload: { team: team.id, role } })
  }
}

export const teamHandlers = implement(teamOperations, {
  listTeamsInOrganizationById: (ctx, { params, query }) => mapPage(listTeams(ctx, params.organizationId, query), (team) => encodeTeam(ctx, team)),

  createOrganizationTeam: (ctx, { params, body }) => {
    const members = body.members ?? []
    // The creator joins as owner only when they list themselves: an admin may build a team for others.
    const owners = members.includes(ctx.actor.user) ? [ctx.actor.user] : []
    const team = createTeam(ctx, params.organizationId, { title: body.title, members, owners })
    recordAudit(ctx, {
      organization: team.organization,
      action: 'team.created',
      target: teamTarget(ctx, team.id),
      payload: { members: ctx.tx.count('teamMembers', 'byTeam', team.id) },
    })
    return encodeTeam(ctx, team)
  },

  getTeamInOrganizationById: (ctx, { params }) => {
    const team = getTeam(ctx, params.organizationId, params.teamId)
    // Members of a team may read it even without `listTeams` (a guest in a team, say).
    if (!ctx.tx.get('teamMembers', teamMemberId(team.id, ctx.actor.user))) {
      ctx.access.require('organization', params.organizationId, 'listTeams')
    }
    return encodeTeam(ctx, team)
  },

  removeTeamFromOrganizationById: (ctx, { params }) => {
    const target = teamTarget(ctx, params.teamId)
    if (deleteTeam(ctx, params.organizationId, params.teamId))
      recordAudit(ctx, { organization: params.organizationId, action: 'team.deleted', target, payload: {} })
  },

  updateTeamInOrganizationById: (ctx, { params, body }) => {
    const team = getTeam(ctx, params.organizationId, params.teamId)
    if (!ownsTeam(ctx, team.id, ctx.actor.user)) ctx.access.require('organization', params.organizationId, 'manageTeams')
    const renamed = renameTeam(ctx, team, body.title)
    if (renamed.title !== team.title) {
      recordAudit(ctx, {
        organization: team.organization,
        action: 'team.updated',
        target: teamTarget(ctx, team.id),
        payload: { titleBefore: team.title, titleAfter: renamed.title },
      })
    }
    return encodeTeam(ctx, renamed)
  },

  listTeamsForOrganizationMember: (ctx, { params, query }) => {
    requireUnlessSelf(ctx, params.organizationId, params.userId, 'listMembers')
    getMember(ctx, params.organizationId, params.userId)
    const page = listMemberTeams(ctx, params.organizationId, params.userId, query)
    return mapPage(page, (item) => ({ team: encodeTeam(ctx, item.team), member: { role: item.membership.role } }))
  },

  listTeamMembersInOrganizationById: (ctx, { params, query }) => {
    const team = getTeam(ctx, params.organizationId, params.teamId)
    // As for the team itself: its members read who is in it even without `listTeams`.
    if (!ctx.tx.get('teamMembers', teamMemberId(team.id, ctx.actor.user))) ctx.access.require('organization', params.organizationId, 'listTeams')
    return mapPage(listTeamMembers(ctx, team, query), ({ membership, member }) => ({
      organization: encodeMember(ctx, member),
      team: { role: membership.role },
      permissions: { view: true },
    }))
  },

  updateMembersInOrganizationTeam: (ctx, { params, body }) => {
    const team = getTeam(ctx, params.organizationId, params.teamId)
    requireTeamManager(ctx, team)
    const before = teamRoles(ctx, team.id)
    updateTeamMembers(ctx, team, body)
    auditTeamMembers(ctx, team, before, teamRoles(ctx, team.id))
  },

  addMemberToOrganizationTeamById: (ctx, { params, body }) => {
    const team = getTeam(ctx, params.organizationId, params.teamId)
    requireTeamManager(ctx, team)
    const user = resolveOrganizationMember(ctx, team.organization, params.userId, 'path parameter `userId`')
    const was = ctx.tx.get('teamMembers', teamMemberId(team.id, user))?.role
    const row = putTeamMember(ctx, team, user, body?.role)
    auditTeamMembers(ctx, team, new Map(was === undefined ? [] : [[user, was]]), new Map([[user, row.role]]))
  },

  deleteMemberFromOrganizationTeamById: (ctx, { params }) => {
    const team = getTeam(ctx, params.organizationId, params.teamId)
    // A member may leave a team; taking someone else out is for its managers.
    if (params.userId !== ctx.actor.user) requireTeamManager(ctx, team)
    const was = ctx.tx.get('teamMembers', teamMemberId(team.id, params.userId))?.role
    if (!removeTeamMember(ctx, team, params.userId)) return NO_CONTENT
    if (was !== undefined) auditTeamMembers(ctx, team, new Map([[params.userId, was]]), new Map())
    return undefined
  },
})
