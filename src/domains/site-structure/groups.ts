import { produce } from '../common/produce.js'
import type { z } from 'zod'
import type { Context } from '../context.js'
import { ApiError } from '../../core/errors.js'
import type { SiteRow } from '../sites/rows.js'
import type { SiteSectionGroupRow } from './rows.js'
import { appendPosition } from '../common/sequence.js'
import { groupRef, sectionRef } from './refs.js'
import type { AddSectionGroupSchema, UpdateSectionGroupSchema } from './schemas.js'
import { childrenOf, isWithinGroup, placeNode } from './tree.js'

/**
 * Section groups nest sections and other groups. A group is created at the end of its parent
 * (the site's root by default); the sections it is given move into it, in the order given.
 */
export function addGroup(ctx: Context, site: SiteRow, input: z.output<typeof AddSectionGroupSchema>): SiteSectionGroupRow {
  const parent = input.parent !== undefined ? groupRef(ctx, site, input.parent, 'parent').id : undefined
  const sections = (input.sections ?? []).map((id, i) => sectionRef(ctx, site, id, `sections[${i}]`))
  const group = ctx.tx.insert('siteSectionGroups', {
    id: ctx.newId(),
    site: site.id,
    organization: site.organization,
    ...(parent !== undefined && { sectionGroup: parent }),
    title: input.title,
    ...(input.icon != null && { icon: input.icon }),
    position: appendPosition(ctx),
    createdAt: ctx.nowIso(),
  })
  const seen = new Set<string>()
  for (const section of sections) {
    if (seen.has(section.id)) continue
    seen.add(section.id)
    placeNode(ctx, { kind: 'section', id: section.id }, appendPosition(ctx), group.id)
  }
  return group
}

/** `POST .../section-groups/{id}/sections`: move a section to the end of the group (409 when it is already in it). */
export function addSectionToGroup(ctx: Context, site: SiteRow, group: SiteSectionGroupRow, sectionId: string): SiteSectionGroupRow {
  const section = sectionRef(ctx, site, sectionId, 'sectionId')
  if (section.sectionGroup === group.id) throw new ApiError('CONFLICT', `The section ${section.id} is already in this group`)
  placeNode(ctx, { kind: 'section', id: section.id }, appendPosition(ctx), group.id)
  return group
}

export function updateGroup(ctx: Context, site: SiteRow, row: SiteSectionGroupRow, patch: z.output<typeof UpdateSectionGroupSchema>): SiteSectionGroupRow {
  let parent = row.sectionGroup
  if (patch.parentSectionGroupId !== undefined) {
    parent = patch.parentSectionGroupId === null ? undefined : groupRef(ctx, site, patch.parentSectionGroupId, 'parentSectionGroupId').id
    if (parent !== undefined && isWithinGroup(ctx, parent, row.id)) {
      throw new ApiError('BAD_REQUEST', 'Invalid request: body field `parentSectionGroupId`: cannot move a group into itself or one of its descendants')
    }
  }
  const next = produce(row, (draft) => {
    if (patch.title !== undefined) draft.title = patch.title
    if (patch.icon === null) delete draft.icon
    else if (patch.icon !== undefined) draft.icon = patch.icon
    if (parent !== row.sectionGroup) {
      if (parent === undefined) delete draft.sectionGroup
      else draft.sectionGroup = parent
      draft.position = appendPosition(ctx)
    }
  })
  if (next === row) return row
  return ctx.tx.update('siteSectionGroups', next)
}

/**
 * Delete a group. What it holds is kept: its sections and groups take its place in its parent
 * container, in their order (so deleting a group never deletes content).
 */
export function deleteGroup(ctx: Context, site: SiteRow, row: SiteSectionGroupRow): void {
  const siblings = childrenOf(ctx, site.id, row.sectionGroup)
  const children = childrenOf(ctx, site.id, row.id)
  ctx.tx.delete('siteSectionGroups', row.id)
  // Renumber the parent container in its new order: the group's children where the group was.
  const order = siblings.flatMap((node) => (node.id === row.id ? children : [node]))
  for (const node of order) placeNode(ctx, node, appendPosition(ctx), row.sectionGroup ?? null)
}
