import { produce } from '../common/produce.js'
import type { z } from 'zod'
import type { Context } from '../context.js'
import { ApiError } from '../../core/errors.js'
import type { SiteRow } from '../sites/rows.js'
import type { SiteSpaceRow } from './rows.js'
import { moveAmongSiblings, type Placement } from '../collections/positions.js'
import { appendPosition } from '../common/sequence.js'
import { removeSiteSpace } from './defaults.js'
import { derivePath, requireFreePath } from './paths.js'
import { sectionRef, spaceRef } from './refs.js'
import type { AddSiteSpaceSchema, UpdateSiteSpaceSchema } from './schemas.js'
import { defaultSection, siteSpacesOf } from './tree.js'

/** Whether a sibling of `self` in the container already uses `path`. */
const pathTaken = (siblings: readonly SiteSpaceRow[], self?: string) => (path: string) => siblings.some((s) => s.path === path && s.id !== self)

/** A space appears at most once per container (409). */
function requireNotInContainer(siblings: readonly SiteSpaceRow[], space: string, section: string | undefined): void {
  if (siblings.some((s) => s.space === space)) throw new ApiError('CONFLICT', `The space ${space} is already in this ${section ? 'section' : 'site'}`)
}

/**
 * Insert a site-space for `space` at the end of a container (a section, or the site's root). The
 * first one of a container becomes its default. A space appears at most once per container (409).
 */
export function insertSiteSpace(ctx: Context, site: SiteRow, section: string | undefined, space: { id: string; title: string }, title?: string): SiteSpaceRow {
  const siblings = siteSpacesOf(ctx, site.id, section)
  requireNotInContainer(siblings, space.id, section)
  return ctx.tx.insert('siteSpaces', {
    id: ctx.newId(),
    site: site.id,
    organization: site.organization,
    ...(section !== undefined && { section }),
    space: space.id,
    path: derivePath(title ?? space.title, 'space', pathTaken(siblings)),
    ...(title !== undefined && { title }),
    default: siblings.length === 0,
    hidden: false,
    position: appendPosition(ctx),
    createdAt: ctx.nowIso(),
  })
}

/** `addSpaceToSite`: into the given section, else the default section, else the site's root. */
export function addSiteSpace(ctx: Context, site: SiteRow, input: z.output<typeof AddSiteSpaceSchema>): SiteSpaceRow {
  const section = input.sectionId !== undefined ? sectionRef(ctx, site, input.sectionId, 'sectionId').id : defaultSection(ctx, site.id)?.id
  const space = spaceRef(ctx, site, input.spaceId, 'spaceId', input.title)
  const row = insertSiteSpace(ctx, site, section, space, input.title)
  return row
}

export function updateSiteSpace(ctx: Context, site: SiteRow, row: SiteSpaceRow, patch: z.output<typeof UpdateSiteSpaceSchema>): SiteSpaceRow {
  const siblings = siteSpacesOf(ctx, site.id, row.section)
  const next = produce(row, (draft) => {
    if (patch.path !== undefined && patch.path !== row.path) draft.path = requireFreePath(patch.path, pathTaken(siblings, row.id), 'site-space here')
    if (patch.condition === null) delete draft.condition
    else if (patch.condition !== undefined) draft.condition = patch.condition
    if (patch.hidden !== undefined) draft.hidden = patch.hidden
    if (patch.spaceId !== undefined && patch.spaceId !== row.space) {
      const space = spaceRef(ctx, site, patch.spaceId, 'spaceId')
      requireNotInContainer(siblings, space.id, row.section)
      draft.space = space.id
    }
  })
  if (next === row) return row
  return ctx.tx.update('siteSpaces', next)
}

export function deleteSiteSpace(ctx: Context, site: SiteRow, row: SiteSpaceRow): void {
  removeSiteSpace(ctx, row)
}

/** Move a site-space among the site-spaces of its own container (a sibling elsewhere is a 400). */
export function moveSiteSpace(ctx: Context, site: SiteRow, row: SiteSpaceRow, placement: Placement, field?: string): SiteSpaceRow {
  const all = siteSpacesOf(ctx, site.id, row.section)
  const position = moveAmongSiblings(
    ctx,
    all,
    {
      id: row.id,
      label: 'site-space',
      sameParent: true,
      field: field ?? `position.${placement.at}.siteSpace`,
      container: row.section ? 'same section' : 'site root',
    },
    placement,
    (sibling, p) => ctx.tx.update('siteSpaces', { ...sibling, position: p }),
  )
  return ctx.tx.update('siteSpaces', { ...ctx.tx.get('siteSpaces', row.id)!, position })
}

/**
 * Move every site-space of the site's root into `section` (a new, empty one), keeping their
 * order and their default: the root's default becomes the section's.
 */
export function adoptRootSiteSpaces(ctx: Context, site: SiteRow, section: string): SiteSpaceRow[] {
  return siteSpacesOf(ctx, site.id, undefined).map((r) => ctx.tx.update('siteSpaces', { ...r, section }))
}
