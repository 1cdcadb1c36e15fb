/**
 * The role lattice of the reference ("Role enumeration"): read < comment < edit < review < create < admin.
 * `guest` is an organization member without a role (role `null` on the wire): it sits below `read`
 * and gives access only to what the guest was invited to.
 */
export const ROLES = ['read', 'comment', 'edit', 'review', 'create', 'admin'] as const
export type Role = (typeof ROLES)[number]
/** A level on the lattice: a role, or `guest`. */
export type Level = Role | 'guest'

const RANK: Record<Level, number> = { guest: 1, read: 2, comment: 3, edit: 4, review: 5, create: 6, admin: 7 }

/** Rank of a level; 0 for no access at all. */
export function rank(level: Level | null | undefined): number {
  return level ? RANK[level] : 0
}

/** True when `level` is at least `min`. */
export function atLeast(level: Level | null | undefined, min: Level): boolean {
  return rank(level) >= RANK[min]
}

/** The strongest of the given levels (undefined when none gives access). */
export function strongest(...levels: Array<Level | null | undefined>): Level | undefined {
  let best: Level | undefined
  for (const l of levels) if (l && rank(l) > rank(best)) best = l
  return best
}
