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

export const teamHandlers = implement(teamOperations, {
  listTeamsInOrganizationById: (ctx, { params, query }) => mapPage(listTeams(ctx, params.organizationId, query), (team) => encodeTeam(ctx, team)),

  createOrganizationTeam: (ctx, { params, body }) => {
    const members = body.members ?? []
    // The creator joins as owner only when they list themselves: an admin may build a team for others.
    const owners = members.includes(ctx.actor.user) ? [ctx.actor.user] : []
    return encodeTeam(ctx, createTeam(ctx, params.organizationId, { title: body.title, members, owners }))
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
    deleteTeam(ctx, params.organizationId, params.teamId)
  },

  updateTeamInOrganizationById: (ctx, { params, body }) => {
    const team = getTeam(ctx, params.organizationId, params.teamId)
    if (!ownsTeam(ctx, team.id, ctx.actor.user)) ctx.access.require('organization', params.organizationId, 'manageTeams')
    return encodeTeam(ctx, renameTeam(ctx, team, body.title))
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
    updateTeamMembers(ctx, team, body)
  },

  addMemberToOrganizationTeamById: (ctx, { params, body }) => {
    const team = getTeam(ctx, params.organizationId, params.teamId)
    requireTeamManager(ctx, team)
    const user = resolveOrganizationMember(ctx, team.organization, params.userId, 'path parameter `userId`')
    putTeamMember(ctx, team, user, body?.role)
  },

  deleteMemberFromOrganizationTeamById: (ctx, { params }) => {
    const team = getTeam(ctx, params.organizationId, params.teamId)
    // A member may leave a team; taking someone else out is for its managers.
    if (params.userId !== ctx.actor.user) requireTeamManager(ctx, team)
    return removeTeamMember(ctx, team, params.userId) ? undefined : NO_CONTENT
  },
})
