import type { Context } from '../context.js'
import { ApiError } from '../../core/errors.js'
import { appendPosition } from '../common/sequence.js'

/**
 * Ordering among siblings (items sharing a parent collection, or an organization's root).
 * Positions are fractional: an append takes the next value of a global sequence (O(1)); a
 * placement before or after a sibling takes the midpoint between that sibling and its
 * neighbour, and only when that gap has become too small are the siblings renumbered.
 */

/** Below this gap a midpoint loses precision: renumber instead (after ~20 halvings of a unit gap). */
const MIN_GAP = 2 ** -20

/**
 * What the caller asked for: the end, or next to a sibling. `kind` is what the pointer says the
 * sibling is, where one container holds items of several kinds (sections and groups).
 */
export type Placement = { at: 'end' } | { at: 'before' | 'after'; sibling: string; kind?: string }

interface Positioned {
  readonly id: string
  readonly position: number
}

/** The placement named by a `position` body field (`before` or `after` a sibling, else the end). */
export function placementOf<K extends string>(
  key: K,
  position: { before?: Record<K, string> | undefined; after?: Record<K, string> | undefined } | undefined,
  kind?: string,
): Placement {
  const at = position?.before ? 'before' : position?.after ? 'after' : undefined
  if (!at) return { at: 'end' }
  return { at, sibling: position![at]![key], ...(kind !== undefined && { kind }) }
}

export interface Placed {
  /** The item's new position. */
  position: number
  /** Index of the item among its siblings once placed. */
  index: number
}

/**
 * Where an item lands among `siblings` (sorted, the item itself left out). `renumber` is called
 * with new positions for the siblings when the gap was too small (rare: a caller inserting again
 * and again at the same spot). `what` names the body field for errors, e.g. `position.before.space`.
 */
export function place<R extends Positioned>(
  ctx: Context,
  siblings: readonly R[],
  placement: Placement,
  what: {
    field: string
    label: string
    self: string
    container?: string
    /** The kind of a sibling, checked against `placement.kind` (mixed containers). */
    kindOf?: (sibling: R) => string
  },
  renumber: (row: R, position: number) => void,
): Placed {
  if (placement.at === 'end') return { position: appendPosition(ctx), index: siblings.length }
  if (placement.sibling === what.self) {
    throw new ApiError('BAD_REQUEST', `Invalid request: body field \`${what.field}\`: cannot place the ${what.label} relative to itself`)
  }
  const { kind } = placement
  const at = siblings.findIndex((s) => s.id === placement.sibling && (!kind || !what.kindOf || what.kindOf(s) === kind))
  if (at === -1) {
    throw new ApiError(
      'BAD_REQUEST',
      `Invalid request: body field \`${what.field}\`: ${kind ?? what.label} ${placement.sibling} is not in the ${what.container ?? 'target parent'}`,
    )
  }
  const index = placement.at === 'before' ? at : at + 1
  const prev = siblings[index - 1]
  const next = siblings[index]
  // After the last sibling: an append is past every position, present and future.
  if (!next) return { position: appendPosition(ctx), index }
  if (!prev) return { position: next.position - 1, index }
  const mid = (prev.position + next.position) / 2
  if (next.position - prev.position > MIN_GAP && mid > prev.position && mid < next.position) return { position: mid, index }
  // The gap is spent: give every sibling (and the item) fresh, evenly spaced positions in order.
  let position = 0
  siblings.forEach((s, i) => {
    if (i === index) position = appendPosition(ctx)
    renumber(s, appendPosition(ctx))
  })
  return { position, index }
}

/**
 * Where an item moved under a parent lands: `all` is that parent's children in position order
 * (the item among them when it stays in the same parent). A placement that would leave the item
 * where it is answers 409; `update` renumbers a sibling when the gap is spent.
 */
export function moveAmongSiblings<R extends Positioned>(
  ctx: Context,
  all: readonly R[],
  item: {
    id: string
    /** What the item is, in messages (`space`, `site-section`...). */
    label: string
    sameParent: boolean
    /** The body field naming the sibling (default `position.<before|after>.<label>`). */
    field?: string
    /** Where siblings live, in messages (default `target parent`). */
    container?: string
    /** The kind of a sibling, where the container holds several (see `Placement.kind`). */
    kindOf?: (sibling: R) => string
  },
  placement: Placement,
  update: (row: R, position: number) => void,
): number {
  const placed = place(
    ctx,
    all.filter((s) => s.id !== item.id),
    placement,
    {
      field: item.field ?? `position.${placement.at}.${item.label}`,
      label: item.label,
      self: item.id,
      ...(item.container !== undefined && { container: item.container }),
      ...(item.kindOf !== undefined && { kindOf: item.kindOf }),
    },
    update,
  )
  if (item.sameParent && all.findIndex((s) => s.id === item.id) === placed.index) {
    throw new ApiError('CONFLICT', `The move would not change anything: the ${item.label} is already there`)
  }
  return placed.position
}
