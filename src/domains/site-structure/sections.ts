import { produce } from '../common/produce.js'
import type { z } from 'zod'
import type { Context } from '../context.js'
import { ApiError } from '../../core/errors.js'
import type { SiteRow } from '../sites/rows.js'
import type { SiteSectionRow } from './rows.js'
import { appendPosition } from '../common/sequence.js'
import { removeRow } from '../ownership.js'
import { promoteDefaultSection, setDefaultSiteSpace } from './defaults.js'
import { derivePath, requireFreePath } from './paths.js'
import { groupRef, siteSpaceRef, spaceRef } from './refs.js'
import type { AddSectionSchema, UpdateSectionSchema } from './schemas.js'
import { adoptRootSiteSpaces, insertSiteSpace } from './site-spaces.js'
import { hasSections, siteSpacesOf } from './tree.js'

/** Whether another section of the site uses `path` (section paths are unique in a site). */
const sectionPathTaken = (ctx: Context, site: string, self?: string) => (path: string) =>
  ctx.tx.scan('siteSections', 'bySite', site).some((e) => e.row.path === path && e.row.id !== self)

/**
 * Add a section holding `spaceId` at the end of the site's root (or of a group). The first
 * section of a site becomes its default and takes over the site-spaces at the site's root (in
 * their order, with their default); the new space joins them unless it is already there.
 */
export function addSection(ctx: Context, site: SiteRow, input: z.output<typeof AddSectionSchema>): SiteSectionRow {
  const group = input.siteSectionGroupId !== undefined ? groupRef(ctx, site, input.siteSectionGroupId, 'siteSectionGroupId') : undefined
  const space = spaceRef(ctx, site, input.spaceId, 'spaceId', input.title)
  const first = !hasSections(ctx, site.id)
  const title = input.title ?? (space.title.length >= 2 ? space.title : 'Untitled section')
  const section = ctx.tx.insert('siteSections', {
    id: ctx.newId(),
    site: site.id,
    organization: site.organization,
    ...(group !== undefined && { sectionGroup: group.id }),
    title,
    path: derivePath(title, 'section', sectionPathTaken(ctx, site.id)),
    ...(input.icon != null && { icon: input.icon }),
    default: first,
    position: appendPosition(ctx),
    createdAt: ctx.nowIso(),
  })
  const adopted = first ? adoptRootSiteSpaces(ctx, site, section.id) : []
  if (!adopted.some((r) => r.space === space.id)) insertSiteSpace(ctx, site, section.id, space)
  return section
}

export function updateSection(ctx: Context, site: SiteRow, row: SiteSectionRow, patch: z.output<typeof UpdateSectionSchema>): SiteSectionRow {
  if (patch.defaultSiteSpace !== undefined) {
    const target = siteSpaceRef(ctx, site, patch.defaultSiteSpace, 'defaultSiteSpace')
    if (target.section !== row.id) {
      throw new ApiError('BAD_REQUEST', `Invalid request: body field \`defaultSiteSpace\`: site-space ${target.id} is not in this section`)
    }
    setDefaultSiteSpace(ctx, target)
  }
  let group = row.sectionGroup
  if (patch.siteSectionGroupId !== undefined)
    group = patch.siteSectionGroupId === null ? undefined : groupRef(ctx, site, patch.siteSectionGroupId, 'siteSectionGroupId').id
  const next = produce(row, (draft) => {
    if (patch.title !== undefined) draft.title = patch.title
    if (patch.path !== undefined && patch.path !== row.path)
      draft.path = requireFreePath(patch.path, sectionPathTaken(ctx, site.id, row.id), 'section of this site')
    if (patch.condition === null) delete draft.condition
    else if (patch.condition !== undefined) draft.condition = patch.condition
    if (patch.icon === null) delete draft.icon
    else if (patch.icon !== undefined) draft.icon = patch.icon
    if (patch.description === null) delete draft.description
    else if (patch.description !== undefined) draft.description = patch.description
    // Into another container: at its end.
    if (group !== row.sectionGroup) {
      if (group === undefined) delete draft.sectionGroup
      else draft.sectionGroup = group
      draft.position = appendPosition(ctx)
    }
  })
  return next === row ? row : ctx.tx.update('siteSections', next)
}

/** Delete a section with its site-spaces; when it was the default, the first remaining section takes over. */
export function deleteSection(ctx: Context, site: SiteRow, row: SiteSectionRow): void {
  for (const s of siteSpacesOf(ctx, site.id, row.id)) removeRow(ctx, 'siteSpaces', s.id)
  ctx.tx.delete('siteSections', row.id)
  if (row.default) promoteDefaultSection(ctx, site.id)
}
