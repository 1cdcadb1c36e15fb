import type { Context } from '../context.js'

/**
 * A space moved to another organization takes its change requests along: their `organization`
 * (the organization list's index) follows the space's.
 */
export function moveSpaceChangeRequests(ctx: Context, spaceId: string, organization: string): void {
  for (const { row } of ctx.tx.scan('changeRequests', 'bySpace', spaceId)) {
    if (row.organization !== organization) ctx.tx.update('changeRequests', { ...row, organization })
  }
}
