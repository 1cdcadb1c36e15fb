import { implement } from '../context.js'
import { mapPage } from '../../core/paging.js'
import { getSite } from '../sites/model.js'
import { encodeShareLink } from './encode.js'
import { createShareLink, deleteShareLink, findShareLink, getShareLink, listShareLinks, updateShareLink } from './model.js'
import { shareLinkOperations } from './operations.js'
import { changedFields, recordAudit, type AuditTarget } from '../audit/model.js'
import type { ShareLinkRow } from './rows.js'

/** A share link as an audit target (its key, a secret, stays out of the trail). */
const linkTarget = (row: ShareLinkRow): AuditTarget => ({ type: 'share-link', id: row.id, label: row.name })

/** The share link operations bound to their handlers. */
export const shareLinkHandlers = implement(shareLinkOperations, {
  listSiteShareLinks: (ctx, { params, query }) => {
    const site = getSite(ctx, params.organizationId, params.siteId)
    return mapPage(listShareLinks(ctx, site, query), (e) => encodeShareLink(ctx, site, e.row))
  },

  createSiteShareLink: (ctx, { params, body }) => {
    const site = getSite(ctx, params.organizationId, params.siteId)
    const link = createShareLink(ctx, site, body.name)
    recordAudit(ctx, { organization: site.organization, action: 'share_link.created', target: linkTarget(link), payload: { site: site.id } })
    return encodeShareLink(ctx, site, link)
  },

  updateSiteShareLinkById: (ctx, { params, body }) => {
    const site = getSite(ctx, params.organizationId, params.siteId)
    const before = getShareLink(ctx, site, params.shareLinkId)
    const link = updateShareLink(ctx, before, body)
    const fields = changedFields(body, before, link)
    if (fields.length > 0)
      recordAudit(ctx, { organization: site.organization, action: 'share_link.updated', target: linkTarget(link), payload: { site: site.id, fields } })
    return encodeShareLink(ctx, site, link)
  },

  // The site must be there (404); a link that is not (or no longer) in it answers 204.
  deleteSiteShareLinkById: (ctx, { params }) => {
    const site = getSite(ctx, params.organizationId, params.siteId)
    const link = findShareLink(ctx, site, params.shareLinkId)
    if (link) {
      deleteShareLink(ctx, link)
      recordAudit(ctx, { organization: site.organization, action: 'share_link.deleted', target: linkTarget(link), payload: { site: site.id } })
    }
  },
})
