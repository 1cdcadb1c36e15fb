import type { Context } from './context.js'
import type { AppSchema } from './schema.js'

type CollectionName = keyof AppSchema & string

/**
 * Rows that hang off a row of another collection (their owner): removing the owner removes them,
 * or detaches them. Each area declares what owns its own collections (`owned` of its area
 * module), so an owner's area never imports the areas hanging off it: purging a space walks this
 * registry (`removeOwned`), whatever areas keep rows of spaces.
 */
export interface Owned {
  /** The collections whose rows this rule removes (a test checks every row naming a space, site or organization has a rule). */
  collections: readonly CollectionName[]
  /** The collection of the owner row. */
  owner: CollectionName
  /**
   * The index of `collections[0]` listing an owner's rows, keyed by the owner's id: each row is
   * removed with what it owns in turn. Give `remove` instead when removal keeps something
   * (counters, defaults) or detaches rather than deletes.
   */
  index?: string
  remove?(ctx: Context, owner: string): void
}

declare module '../core/services.js' {
  interface Services {
    /** Every area's ownership rules, in area order (domains/index.ts). */
    owned: readonly Owned[]
  }
}

/** Remove (or detach) every row the row `id` of `owner` owns, rules in area order. The owner row itself stays. */
export function removeOwned(ctx: Context, owner: CollectionName, id: string): void {
  for (const rule of ctx.services.owned) {
    if (rule.owner !== owner) continue
    if (rule.remove) rule.remove(ctx, id)
    else if (rule.index) {
      const collection = rule.collections[0]!
      const rows = ctx.tx.scan(collection, rule.index as never, id) as ReadonlyArray<{ row: { id: string } }>
      for (const { row } of rows) removeRow(ctx, collection, row.id)
    }
  }
}

/** Remove a row and every row it owns. */
export function removeRow(ctx: Context, collection: CollectionName, id: string): void {
  removeOwned(ctx, collection, id)
  ctx.tx.delete(collection, id)
}
