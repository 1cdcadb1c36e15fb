/**
 * The role lattice of the reference ("Role enumeration"): read < comment < edit < review < create < admin.
 * `guest` is an organization member without a role (role `null` on the wire): it sits below `read`
 * and gives access only to what the guest was invited to.
 * `visitor` is reading a space through its visibility (`public`, `unlisted`) or a share key, with
 * no role in its organization and no grant on it: enough to read the space, not to see who it is
 * shared with (that needs `read`).
 */
export const ROLES = ['read', 'comment', 'edit', 'review', 'create', 'admin'] as const
export type Role = (typeof ROLES)[number]
/** A level on the lattice: a role, `guest` or `visitor`. */
export type Level = Role | 'guest' | 'visitor'

const RANK: Record<Level, number> = { guest: 1, visitor: 2, read: 3, comment: 4, edit: 5, review: 6, create: 7, admin: 8 }

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
