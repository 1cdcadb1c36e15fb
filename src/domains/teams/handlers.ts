import { implement } from '../context.js'
import { mapPage } from '../../core/paging.js'
import { encodeTeam } from './encode.js'
import { getMember, requireUnlessSelf } from '../members/model.js'
import { listMemberTeams, listTeams } from './list.js'
import { createTeam, deleteTeam, getTeam, ownsTeam, renameTeam, teamMemberId } from './model.js'
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
})
