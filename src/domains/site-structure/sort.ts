import type { z } from 'zod'
import type { Context } from '../context.js'
import { ApiError } from '../../core/errors.js'
import type { SiteRow } from '../sites/rows.js'
import type { SiteSectionGroupRow, SiteSectionRow, SiteSpaceRow } from './rows.js'
import { moveAmongSiblings, type Placement } from '../collections/positions.js'
import { findGroup, findSection, findSiteSpace } from './refs.js'
import type { SortSiteStructureSchema } from './schemas.js'
import { moveSiteSpace } from './site-spaces.js'
import { childrenOf, placeNode } from './tree.js'

/**
 * Ordering of sections and groups among the siblings of their container. Moves stay in the
 * container: a sibling pointer to an item of another container is a 400; a move that changes
 * nothing is a 409 (as for spaces and collections).
 */

/** Move a section or a group next to a sibling (or to the end) of its container. */
export function moveNode(
  ctx: Context,
  site: SiteRow,
  node: { kind: 'section'; row: SiteSectionRow } | { kind: 'group'; row: SiteSectionGroupRow },
  placement: Placement,
  field: string,
): void {
  const siblings = childrenOf(ctx, site.id, node.row.sectionGroup)
  const position = moveAmongSiblings(
    ctx,
    siblings,
    {
      id: node.row.id,
      label: node.kind === 'section' ? 'site-section' : 'site-section-group',
      sameParent: true,
      field,
      container: 'same container',
      kindOf: (n) => (n.kind === 'section' ? 'site-section' : 'site-section-group'),
    },
    placement,
    (sibling, p) => placeNode(ctx, sibling, p),
  )
  placeNode(ctx, { kind: node.kind, id: node.row.id }, position)
}

export type SortedItem =
  { kind: 'site-space'; row: SiteSpaceRow } | { kind: 'site-section'; row: SiteSectionRow } | { kind: 'site-section-group'; row: SiteSectionGroupRow }

/**
 * `sortSiteStructure`: move a site-space among the site-spaces of its container, or a section or
 * group among the sections and groups of its container. The item must exist (404); the sibling
 * must be of a kind that shares the container and be in it (400).
 */
export function sortStructure(ctx: Context, site: SiteRow, input: z.output<typeof SortSiteStructureSchema>): SortedItem {
  const { item, position } = input
  const at: 'before' | 'after' | undefined = position.before ? 'before' : position.after ? 'after' : undefined
  const sibling = at ? position[at]! : undefined
  const field = `position.${at}.id`
  if (item.type === 'site-space') {
    const row = findSiteSpace(ctx, site, item.id)
    if (!row) throw new ApiError('NOT_FOUND', 'Site space not found')
    if (sibling && sibling.type !== 'site-space') {
      throw new ApiError(
        'BAD_REQUEST',
        `Invalid request: body field \`position.${at}.type\`: a site-space moves among site-spaces, not next to a ${sibling.type}`,
      )
    }
    const placement: Placement = at && sibling ? { at, sibling: sibling.id } : { at: 'end' }
    return { kind: 'site-space', row: moveSiteSpace(ctx, site, row, placement, field) }
  }
  if (item.type === 'site-external-link') throw new ApiError('NOT_FOUND', 'Site external link not found')
  const node = item.type === 'site-section' ? findSection(ctx, site, item.id) : findGroup(ctx, site, item.id)
  if (!node) throw new ApiError('NOT_FOUND', item.type === 'site-section' ? 'Site section not found' : 'Site section group not found')
  if (sibling && sibling.type !== 'site-section' && sibling.type !== 'site-section-group') {
    throw new ApiError(
      'BAD_REQUEST',
      `Invalid request: body field \`position.${at}.type\`: a ${item.type} moves among sections and groups, not next to a ${sibling.type}`,
    )
  }
  // The sibling must be what its pointer says it is: the container holds sections and groups.
  const placement: Placement = at && sibling ? { at, sibling: sibling.id, kind: sibling.type } : { at: 'end' }
  if (item.type === 'site-section') {
    moveNode(ctx, site, { kind: 'section', row: node as SiteSectionRow }, placement, field)
    return { kind: 'site-section', row: ctx.tx.get('siteSections', node.id)! }
  }
  moveNode(ctx, site, { kind: 'group', row: node as SiteSectionGroupRow }, placement, field)
  return { kind: 'site-section-group', row: ctx.tx.get('siteSectionGroups', node.id)! }
}
