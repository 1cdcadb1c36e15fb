import type { z } from 'zod'
import type { Context } from '../context.js'
import { ApiError } from '../../core/errors.js'
import type { SiteRow } from '../sites/rows.js'
import { insertSite, updateSiteSettings } from '../sites/lifecycle.js'
import type { CreateSiteSchema, UpdateSiteSchema } from '../sites/schemas.js'
import { setDefaultSection, setDefaultSiteSpace } from './defaults.js'
import { sectionRef, siteSpaceRef, spaceRef } from './refs.js'
import { insertSiteSpace } from './site-spaces.js'
import { defaultSection } from './tree.js'

/**
 * Creating and updating a site, for the part that is its structure: the sites area keeps the
 * site's row (sites/lifecycle.ts) and imports nothing of the structure built on it.
 */

/**
 * Create a site: `basic` and `public` by default, unpublished. The spaces given become site-spaces
 * at its root, in order (the first one its default); each must be a live space of the
 * organization the caller can see.
 */
export function createSite(ctx: Context, organization: string, input: z.output<typeof CreateSiteSchema>): SiteRow {
  const site = insertSite(ctx, organization, input)
  const seen = new Set<string>()
  ;(input.spaces ?? []).forEach((id, i) => {
    if (seen.has(id)) return
    seen.add(id)
    insertSiteSpace(ctx, site, undefined, spaceRef(ctx, site, id, `spaces[${i}]`))
  })
  return site
}

/**
 * Update a site's settings. `defaultSiteSpace` names a site-space at the site's root, or in its
 * default section when it has sections; `defaultSiteSection` a section of the site (400 otherwise).
 */
export function updateSite(ctx: Context, site: SiteRow, patch: z.output<typeof UpdateSiteSchema>): SiteRow {
  if (patch.defaultSiteSection !== undefined) setDefaultSection(ctx, sectionRef(ctx, site, patch.defaultSiteSection, 'defaultSiteSection'))
  if (patch.defaultSiteSpace !== undefined) {
    const target = siteSpaceRef(ctx, site, patch.defaultSiteSpace, 'defaultSiteSpace')
    const section = defaultSection(ctx, site.id)
    if (target.section !== section?.id) {
      const where = section ? `the default section (${section.id})` : 'the root of the site'
      throw new ApiError('BAD_REQUEST', `Invalid request: body field \`defaultSiteSpace\`: site-space ${target.id} is not in ${where}`)
    }
    setDefaultSiteSpace(ctx, target)
  }
  return updateSiteSettings(ctx, site, patch)
}
