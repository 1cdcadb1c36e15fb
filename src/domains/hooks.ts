import type { Context, ReadContext } from './context.js'
import type { RevisionRow } from './content/rows.js'
import type { SpaceRow } from './spaces/rows.js'

/**
 * What an area does when something happens to a row of an area below it, which must not import
 * it (no import cycle among areas: test/package/area-cycles.test.ts). Each area declares its own
 * (`hooks` of its area module); the area where it happens calls them through `ctx.services`, in
 * area order (domains/index.ts), as removing a row walks the ownership rules (ownership.ts).
 */
export interface Hooks {
  /**
   * A space leaves its organization for `organization` (transferSpace, or its collection's
   * transferCollection), before its row changes: the area's rows of the space that name its
   * organization follow it, or go when they may not cross organizations.
   */
  spaceTransferred?(ctx: Context, space: string, organization: string): void
  /**
   * A space is duplicated as `copy` (duplicateSpace), before the copy's row is written: the area
   * copies what it keeps of the source for it; `revision` is the copy's main revision when the
   * area made one (else the copy gets a new, empty one).
   */
  spaceDuplicated?(ctx: Context, source: SpaceRow, copy: string): { revision?: string } | undefined
  /** A revision is answered: the fields the area adds (the change request a merge came from). */
  revisionAnswered?(ctx: ReadContext, revision: RevisionRow): Record<string, unknown> | undefined
}

declare module '../core/services.js' {
  interface Services {
    /** Every area's hooks, in area order (domains/index.ts). */
    hooks: readonly Hooks[]
  }
}

/** A space leaves its organization: every area's `spaceTransferred`, in area order. */
export function spaceTransferred(ctx: Context, space: string, organization: string): void {
  for (const hooks of ctx.services.hooks) hooks.spaceTransferred?.(ctx, space, organization)
}

/** A space is duplicated: every area's `spaceDuplicated`, in area order; the copy's revision when one made it. */
export function spaceDuplicated(ctx: Context, source: SpaceRow, copy: string): { revision?: string } {
  let revision: string | undefined
  for (const hooks of ctx.services.hooks) revision = hooks.spaceDuplicated?.(ctx, source, copy)?.revision ?? revision
  return revision === undefined ? {} : { revision }
}

/** The fields the areas add to a revision's answer. */
export function revisionAnswered(ctx: ReadContext, revision: RevisionRow): Record<string, unknown> {
  let fields: Record<string, unknown> = {}
  for (const hooks of ctx.services.hooks) {
    const more = hooks.revisionAnswered?.(ctx, revision)
    if (more) fields = { ...fields, ...more }
  }
  return fields
}
