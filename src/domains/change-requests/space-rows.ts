import type { Context } from '../context.js'

/** A space's change requests as the space moves to another organization. Kept apart from model.ts so the spaces area imports nothing else of this one. */

/**
 * A space moved to another organization takes its change requests along: their `organization`
 * (the organization list's index) follows the space's.
 */
export function moveSpaceChangeRequests(ctx: Context, spaceId: string, organization: string): void {
  for (const { row } of ctx.tx.scan('changeRequests', 'bySpace', spaceId)) {
    if (row.organization !== organization) ctx.tx.update('changeRequests', { ...row, organization })
  }
}
