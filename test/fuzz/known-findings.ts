import { it } from 'vitest'

// The findings, one line each (details, requests and answers in the fuzz report).
const F1 = 'F1 (known): an outsider or uninvited guest lists the grants of a public/unlisted space (200; listing grants needs a role in the organization or a grant)'
const F2 = 'F2 (known): a DELETE under /v1/orgs/{organizationId}/sites/... by a caller who cannot see the organization answers 204, not 404'
const F3 = 'F3: a DELETE of a section, group, site-space or share link under a site hidden from the caller (guest; foreign or unknown site) answers 204, not 404'
const F4 = 'F4: DELETE /v1/orgs/{unknown or foreign org}/sites/{site} by an editor of the site answers 204, not 404 (unknown parent)'
const F5 = 'F5: a site write with an unknown or foreign organization in the path answers 403 (not 404) to a member who sees the site but is below edit'
const F6 = 'F6: a trashed space in /v1/spaces/{spaceId}/permissions/... answers 403 (not 404) to members below admin; GET and admins get 404'
const F7 = 'F7: a lone surrogate in a section or site-space `path` is a 500 (URIError from encodeURIComponent in sites/urls.ts), not a 400'
const F8 = 'F8: a site `basename` that is no URL segment (" ", NUL, a lone surrogate) is stored, and `urls.published` is then no URI (official schema: format uri)'

/**
 * Findings reported and not yet fixed in src: each test named here is expected to fail (it runs
 * as `it.fails`), so the suite is green while the finding stands and turns red once it is fixed,
 * which is the signal to delete the entry. Keys are test names; each value says why.
 */
export const KNOWN_FINDINGS: Record<string, string> = {
  'matrix listUserPermissionsInSpace outsider (public space)': F1,
  'matrix listUserPermissionsInSpace guest (public space)': F1,
  'matrix listTeamPermissionsInSpace outsider (public space)': F1,
  'matrix listTeamPermissionsInSpace guest (public space)': F1,
  'matrix deleteSiteById outsider': F2,
  'matrix deleteSiteSectionById outsider': F2,
  'matrix deleteSiteSectionGroupById outsider': F2,
  'matrix deleteSiteSpaceById outsider': F2,
  'matrix deleteSiteShareLinkById outsider': F2,
  'matrix deleteSiteSectionById guest': F3,
  'matrix deleteSiteSectionGroupById guest': F3,
  'matrix deleteSiteSpaceById guest': F3,
  'matrix deleteSiteShareLinkById guest': F3,
  'parent deleteSiteById': `${F2}; ${F4}`,
  'parent deleteSiteSectionById': `${F2}; ${F3}`,
  'parent deleteSiteSectionGroupById': `${F2}; ${F3}`,
  'parent deleteSiteSpaceById': `${F2}; ${F3}`,
  'parent deleteSiteShareLinkById': `${F2}; ${F3}`,
  'parent updateSiteById': F5,
  'parent publishSite': F5,
  'parent unpublishSite': F5,
  'parent addSectionToSite': F5,
  'parent updateSiteSectionById': F5,
  'parent moveSiteSection': F5,
  'parent addSectionGroupToSite': F5,
  'parent updateSiteSectionGroupById': F5,
  'parent addSectionToSectionGroup': F5,
  'parent addSpaceToSite': F5,
  'parent updateSiteSpaceById': F5,
  'parent moveSiteSpace': F5,
  'parent sortSiteStructure': F5,
  'parent createSiteShareLink': F5,
  'parent updateSiteShareLinkById': F5,
  'parent updateSiteAdaptiveSchema': F5,
  'parent updateUserPermissionInSpace': F6,
  'parent removeUserFromSpace': F6,
  'parent updateTeamPermissionInSpace': F6,
  'parent removeTeamFromSpace': F6,
  'inputs updateSiteSpaceById valid': F7,
  'inputs updateSiteSectionById valid': F7,
  'inputs updateSiteById valid': F8,
}

/** The names of the fuzz tests, the keys of KNOWN_FINDINGS. */
export const testName = {
  inputs: (id: string, kind: 'valid' | 'hostile') => `inputs ${id} ${kind}`,
  matrix: (id: string, caller: string, variant: 'private' | 'public') => `matrix ${id} ${caller}${variant === 'public' ? ' (public space)' : ''}`,
  parent: (id: string) => `parent ${id}`,
}

/** `it`, or `it.fails` for a test listed in KNOWN_FINDINGS. */
export function test(name: string, fn: () => Promise<void> | void, timeout?: number): void {
  ;(name in KNOWN_FINDINGS ? it.fails : it)(name, fn, timeout)
}
