import { implement } from '../context.js'
import { NO_CONTENT } from '../../core/operation.js'
import { deleteSiteSpaceCustomization, overrideSiteSpaceCustomization, siteSpaceCustomization } from './customization.js'
import { mapPage } from '../../core/paging.js'
import { placementOf } from '../collections/positions.js'
import { encodeSite } from '../sites/encode.js'
import { getSite } from '../sites/model.js'
import { encodeGroup, encodeSection, encodeSiteSpace, encodeStructure, scopeOf } from './encode.js'
import { addGroup, addSectionToGroup, deleteGroup, updateGroup } from './groups.js'
import { listGroups, listSections, listSiteSpaces } from './list.js'
import { publishedProfile } from './published.js'
import { siteStructureOperations } from './operations.js'
import { findGroup, findSection, findSiteSpace, getGroup, getSection, getSiteSpace } from './refs.js'
import { addSection, deleteSection, updateSection } from './sections.js'
import { createSite, updateSite } from './site-lifecycle.js'
import { addSiteSpace, deleteSiteSpace, moveSiteSpace, updateSiteSpace } from './site-spaces.js'
import { moveNode, sortStructure } from './sort.js'

/** The site structure operations bound to their handlers. */
export const siteStructureHandlers = implement(siteStructureOperations, {
  createSite: (ctx, { params, body }) => encodeSite(ctx, createSite(ctx, params.organizationId, body ?? {})),

  updateSiteById: (ctx, { params, body }) => encodeSite(ctx, updateSite(ctx, getSite(ctx, params.organizationId, params.siteId), body)),

  getPublishedContentSite: (ctx, { params }) => publishedProfile(ctx, params.organizationId, params.siteId),

  listSiteSections: (ctx, { params, query }) => {
    const site = getSite(ctx, params.organizationId, params.siteId)
    const scope = scopeOf(ctx, site)
    return mapPage(listSections(ctx, site.id, query), (row) => encodeSection(ctx, scope, row))
  },

  addSectionToSite: (ctx, { params, body }) => {
    const site = getSite(ctx, params.organizationId, params.siteId)
    return encodeSection(ctx, scopeOf(ctx, site), addSection(ctx, site, body))
  },

  // The site must be there (404); a section that is not (or no longer) in it answers 204.
  deleteSiteSectionById: (ctx, { params }) => {
    const site = getSite(ctx, params.organizationId, params.siteId)
    const section = findSection(ctx, site, params.siteSectionId)
    if (section) deleteSection(ctx, site, section)
  },

  updateSiteSectionById: (ctx, { params, body }) => {
    const site = getSite(ctx, params.organizationId, params.siteId)
    const section = updateSection(ctx, site, getSection(ctx, site, params.siteSectionId), body)
    return encodeSection(ctx, scopeOf(ctx, site), section)
  },

  moveSiteSection: (ctx, { params, body }) => {
    const site = getSite(ctx, params.organizationId, params.siteId)
    const section = getSection(ctx, site, params.siteSectionId)
    // The container also holds groups: a `siteSection` pointer must name a section.
    const placement = placementOf('siteSection', body?.position, 'site-section')
    moveNode(ctx, site, { kind: 'section', row: section }, placement, `position.${placement.at}.siteSection`)
    return encodeSection(ctx, scopeOf(ctx, site), getSection(ctx, site, section.id))
  },

  listSiteSectionGroups: (ctx, { params, query }) => {
    const site = getSite(ctx, params.organizationId, params.siteId)
    const scope = scopeOf(ctx, site)
    return mapPage(listGroups(ctx, site.id, query), (row) => encodeGroup(ctx, scope, row))
  },

  addSectionGroupToSite: (ctx, { params, body }) => {
    const site = getSite(ctx, params.organizationId, params.siteId)
    return encodeGroup(ctx, scopeOf(ctx, site), addGroup(ctx, site, body))
  },

  updateSiteSectionGroupById: (ctx, { params, body }) => {
    const site = getSite(ctx, params.organizationId, params.siteId)
    const group = updateGroup(ctx, site, getGroup(ctx, site, params.siteSectionGroupId), body)
    return encodeGroup(ctx, scopeOf(ctx, site), group)
  },

  deleteSiteSectionGroupById: (ctx, { params }) => {
    const site = getSite(ctx, params.organizationId, params.siteId)
    const group = findGroup(ctx, site, params.siteSectionGroupId)
    if (group) deleteGroup(ctx, site, group)
  },

  addSectionToSectionGroup: (ctx, { params, body }) => {
    const site = getSite(ctx, params.organizationId, params.siteId)
    const group = addSectionToGroup(ctx, site, getGroup(ctx, site, params.siteSectionGroupId), body.sectionId)
    return encodeGroup(ctx, scopeOf(ctx, site), group)
  },

  listSiteSpaces: (ctx, { params, query }) => {
    const site = getSite(ctx, params.organizationId, params.siteId)
    const scope = scopeOf(ctx, site)
    return mapPage(listSiteSpaces(ctx, site.id, query), (row) => encodeSiteSpace(ctx, scope, row))
  },

  addSpaceToSite: (ctx, { params, body }) => {
    const site = getSite(ctx, params.organizationId, params.siteId)
    return encodeSiteSpace(ctx, scopeOf(ctx, site), addSiteSpace(ctx, site, body))
  },

  deleteSiteSpaceById: (ctx, { params }) => {
    const site = getSite(ctx, params.organizationId, params.siteId)
    const siteSpace = findSiteSpace(ctx, site, params.siteSpaceId)
    if (siteSpace) deleteSiteSpace(ctx, site, siteSpace)
  },

  updateSiteSpaceById: (ctx, { params, body }) => {
    const site = getSite(ctx, params.organizationId, params.siteId)
    const siteSpace = updateSiteSpace(ctx, site, getSiteSpace(ctx, site, params.siteSpaceId), body)
    return encodeSiteSpace(ctx, scopeOf(ctx, site), siteSpace)
  },

  moveSiteSpace: (ctx, { params, body }) => {
    const site = getSite(ctx, params.organizationId, params.siteId)
    const siteSpace = moveSiteSpace(ctx, site, getSiteSpace(ctx, site, params.siteSpaceId), placementOf('siteSpace', body?.position))
    return encodeSiteSpace(ctx, scopeOf(ctx, site), siteSpace)
  },

  sortSiteStructure: (ctx, { params, body }) => {
    const site = getSite(ctx, params.organizationId, params.siteId)
    const scope = scopeOf(ctx, site)
    const moved = sortStructure(ctx, site, body)
    if (moved.kind === 'site-space') return encodeSiteSpace(ctx, scope, moved.row)
    if (moved.kind === 'site-section') return encodeSection(ctx, scope, moved.row)
    return encodeGroup(ctx, scope, moved.row)
  },

  getSiteStructure: (ctx, { params }) => {
    const site = getSite(ctx, params.organizationId, params.siteId)
    return encodeStructure(ctx, scopeOf(ctx, site))
  },

  getSiteSpaceCustomizationById: (ctx, { params }) => {
    const site = getSite(ctx, params.organizationId, params.siteId)
    return siteSpaceCustomization(ctx, getSiteSpace(ctx, site, params.siteSpaceId))
  },

  overrideSiteSpaceCustomizationById: (ctx, { params, body }) => {
    const site = getSite(ctx, params.organizationId, params.siteId)
    return overrideSiteSpaceCustomization(ctx, getSiteSpace(ctx, site, params.siteSpaceId), body)
  },

  // The official answers: 205 when the overrides were removed, 204 when there were none.
  deleteSiteSpaceCustomizationById: (ctx, { params }) => {
    const site = getSite(ctx, params.organizationId, params.siteId)
    return deleteSiteSpaceCustomization(ctx, getSiteSpace(ctx, site, params.siteSpaceId)) ? undefined : NO_CONTENT
  },
})
