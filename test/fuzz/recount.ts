import { expect } from 'vitest'
import type { ChangeRequestRow } from '../../src/domains/change-requests/rows.js'
import type { CommentRow } from '../../src/domains/comments/rows.js'
import type { SiteSectionRow, SiteSpaceRow } from '../../src/domains/site-structure/rows.js'
import type { SpaceGrantRow } from '../../src/domains/space-permissions/rows.js'
import type { SpaceRow } from '../../src/domains/spaces/rows.js'
import type { TeamMemberRow } from '../../src/domains/teams/rows.js'
import { BASE, type FuzzWorld } from './world.js'

/**
 * Every counter the API shows, next to a recount from the stored rows: team `members` and
 * `spaces`, member `spaces` and `teams`, site `siteSpaces`, the `comments` of spaces and change
 * requests (open comments of each thread), installations' `spaces`, the `count` of every list (which must
 * also equal the items of a page holding them all), and the one-default rules of site structure.
 * Read as the admin caller, who sees everything in the organizations it checks.
 */
export async function expectCountersMatchRows(world: FuzzWorld, organizations: string[]): Promise<void> {
  const token = world.tokens.admin!
  const get = async (path: string): Promise<any> => {
    const res = await world.api.fetch(
      new Request(`${BASE}${path}${path.includes('?') ? '&' : '?'}limit=1000`, { headers: { authorization: `Bearer ${token}` } }),
    )
    expect(res.status, path).toBe(200)
    return res.json()
  }
  /** A list holding everything: `count` is the number of items, and there is no next page. */
  const list = async (path: string, rows: number): Promise<any[]> => {
    const page = await get(path)
    expect({ path, count: page.count, items: page.items.length, next: page.next }).toEqual({ path, count: rows, items: rows, next: undefined })
    return page.items
  }
  const rows = world.api.store.read((tx) => ({
    spaces: tx.all('spaces') as SpaceRow[],
    grants: tx.all('spaceGrants') as SpaceGrantRow[],
    siteGrants: tx.all('siteGrants'),
    teamMembers: tx.all('teamMembers') as TeamMemberRow[],
    members: tx.all('members'),
    teams: tx.all('teams'),
    collections: tx.all('collections'),
    sites: tx.all('sites'),
    sections: tx.all('siteSections') as SiteSectionRow[],
    groups: tx.all('siteSectionGroups'),
    siteSpaces: tx.all('siteSpaces') as SiteSpaceRow[],
    shareLinks: tx.all('shareLinks'),
    redirects: tx.all('siteRedirects'),
    changeRequests: tx.all('changeRequests') as ChangeRequestRow[],
    comments: tx.all('comments') as CommentRow[],
  }))
  const live = new Set(rows.spaces.filter((s) => !s.deletedAt).map((s) => s.id))
  const grantsOf = (p: string) => rows.grants.filter((g) => (g.principal.type === 'user' ? `user:${g.principal.user}` : `team:${g.principal.team}`) === p)

  for (const org of organizations) {
    const o = `/v1/orgs/${org}`
    for (const team of await list(`${o}/teams`, rows.teams.filter((t) => t.organization === org).length)) {
      expect({ team: team.id, members: team.members, spaces: team.spaces }).toEqual({
        team: team.id,
        members: rows.teamMembers.filter((m) => m.team === team.id).length,
        spaces: grantsOf(`team:${team.id}`).filter((g) => live.has(g.space)).length,
      })
    }
    for (const member of await list(`${o}/members`, rows.members.filter((m) => m.organization === org).length)) {
      const spaces = grantsOf(`user:${member.id}`).filter((g) => g.organization === org && live.has(g.space)).length
      const teams = rows.teamMembers.filter((m) => m.user === member.id && m.organization === org).length
      expect({ member: member.id, spaces: member.spaces, teams: member.teams, sites: member.sites }).toEqual({
        member: member.id,
        spaces,
        teams,
        sites: rows.siteGrants.filter((g) => g.organization === org && g.principal.type === 'user' && g.principal.user === member.id).length,
      })
      await list(`${o}/members/${member.id}/spaces`, spaces)
      await list(`${o}/members/${member.id}/teams`, teams)
    }
    const orgSpaces = rows.spaces.filter((s) => s.organization === org && live.has(s.id))
    await list(`${o}/spaces`, orgSpaces.length)
    const open = (space: string, changeRequest?: string) =>
      rows.comments.filter((c) => c.space === space && c.changeRequest === changeRequest && c.status === 'open').length
    for (const space of orgSpaces) {
      expect({ space: space.id, comments: (await get(`/v1/spaces/${space.id}`)).comments }).toEqual({ space: space.id, comments: open(space.id) })
      await list(`/v1/spaces/${space.id}/comments?status=open`, open(space.id))
      for (const cr of rows.changeRequests.filter((c) => c.space === space.id)) {
        expect({ changeRequest: cr.id, comments: (await get(`/v1/spaces/${space.id}/change-requests/${cr.id}`)).comments }).toEqual({
          changeRequest: cr.id,
          comments: open(space.id, cr.id),
        })
      }
      await list(`/v1/spaces/${space.id}/permissions/users`, rows.grants.filter((g) => g.space === space.id && g.principal.type === 'user').length)
      await list(`/v1/spaces/${space.id}/permissions/teams`, rows.grants.filter((g) => g.space === space.id && g.principal.type === 'team').length)
    }
    const collections = rows.collections.filter((c) => c.organization === org)
    await list(`${o}/collections`, collections.length)
    for (const c of collections) await list(`/v1/collections/${c.id}/spaces`, orgSpaces.filter((s) => s.parent === c.id).length)
    for (const site of await list(`${o}/sites`, rows.sites.filter((s) => s.organization === org).length)) {
      const s = `${o}/sites/${site.id}`
      const siteSpaces = rows.siteSpaces.filter((x) => x.site === site.id)
      expect({ site: site.id, siteSpaces: site.siteSpaces }).toEqual({ site: site.id, siteSpaces: siteSpaces.length })
      await list(`${s}/site-spaces`, siteSpaces.length)
      const sections = rows.sections.filter((x) => x.site === site.id)
      for (const section of await list(`${s}/sections`, sections.length)) {
        expect({ section: section.id, siteSpaces: section.siteSpaces.length }).toEqual({
          section: section.id,
          siteSpaces: siteSpaces.filter((x) => x.section === section.id).length,
        })
      }
      await list(`${s}/section-groups`, rows.groups.filter((g) => (g as { site: string }).site === site.id).length)
      await list(`${s}/share-links`, rows.shareLinks.filter((l) => (l as { site: string }).site === site.id).length)
      for (const draft of [false, true])
        await list(`${s}/redirects?draft=${draft}`, rows.redirects.filter((r) => r.site === site.id && r.draft === draft).length)
      expectOneDefault(site.id, sections, siteSpaces)
    }
  }
  // Integrations of these organizations: each installation's `spaces` counts its space
  // installations on live spaces of its organization, and the space list holds exactly those.
  const integration = world.api.store.read((tx) => ({
    integrations: tx.all('integrations').filter((i) => organizations.includes(i.organization)),
    installations: tx.all('integrationInstallations'),
    spaceInstallations: tx.all('integrationSpaceInstallations'),
  }))
  const organizationOf = new Map(rows.spaces.map((s) => [s.id, s.organization]))
  const counted = integration.spaceInstallations.filter((x) => live.has(x.space) && organizationOf.get(x.space) === x.organization)
  for (const { id: name } of integration.integrations) {
    for (const installation of await list(`/v1/integrations/${name}/installations`, integration.installations.filter((i) => i.integration === name).length)) {
      expect({ installation: installation.id, spaces: installation.spaces }).toEqual({
        installation: installation.id,
        spaces: counted.filter((x) => x.installation === installation.id).length,
      })
    }
    await list(`/v1/integrations/${name}/spaces`, counted.filter((x) => x.integration === name).length)
  }
}

/** A site with sections has one default section; every container holding site-spaces has one default. */
function expectOneDefault(site: string, sections: SiteSectionRow[], siteSpaces: SiteSpaceRow[]): void {
  if (sections.length) expect({ site, defaultSections: sections.filter((s) => s.default).length }).toEqual({ site, defaultSections: 1 })
  const containers = new Map<string, SiteSpaceRow[]>()
  for (const x of siteSpaces) containers.set(x.section ?? 'root', [...(containers.get(x.section ?? 'root') ?? []), x])
  for (const [container, items] of containers) {
    expect({ site, container, defaults: items.filter((x) => x.default).length }).toEqual({ site, container, defaults: 1 })
  }
}
