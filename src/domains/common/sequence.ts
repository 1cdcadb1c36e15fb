import type { Context } from '../context.js'

/**
 * The next value of a named counter, stored as one row: O(1), so an append never has to scan
 * its siblings to find the largest position.
 */
export function nextSequence(ctx: Context, name: string): number {
  const row = ctx.tx.get('sequences', name)
  const value = (row?.value ?? 0) + 1
  if (row) ctx.tx.update('sequences', { id: name, value })
  else ctx.tx.insert('sequences', { id: name, value })
  return value
}

/** Position for an item appended after all its siblings (positions are compared among siblings only). */
export const appendPosition = (ctx: Context): number => nextSequence(ctx, 'position')
