import type { ReadContext } from '../context.js'
import type { Level } from '../../core/roles.js'
import { indexSource, paginateScan, type Page } from '../../core/paging.js'
import type { Entry } from '../../storage/port.js'
import type { SpaceRow } from './rows.js'
import { memberRole } from '../access/levels.js'

/**
 * The live spaces of an organization the caller can see, in creation order. A member with a role
 * sees every space of the organization (the role is a floor on each one), so the page is read
 * straight from the index: O(log n + limit) whatever the organization's size. Anyone else (a
 * guest) is filtered space by space.
 */
export function organizationSpaces(
  ctx: ReadContext,
  organization: string,
  query: { page?: string | undefined; limit: number },
): { page: Page<Entry<SpaceRow>>; level?: Level } {
  const source = indexSource(ctx.tx, 'spaces', 'byOrganization', organization)
  const role = memberRole(ctx.tx, organization, ctx.actor.user)
  // Nothing ranks above an organization admin's role, so each space's level is known without a lookup.
  if (role === 'admin') return { page: paginateScan(source, query), level: 'admin' }
  if (role) return { page: paginateScan(source, query) }
  return { page: paginateScan(source, query, (row) => ctx.access.can('space', row.id, 'view')) }
}
