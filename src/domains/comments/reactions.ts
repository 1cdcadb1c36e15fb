import { ApiError } from '../../core/errors.js'
import type { CommentReaction } from './rows.js'

/**
 * Emoji reactions. A caller touches only their own reaction: adding an emoji they already reacted
 * with changes nothing (one user counts once per emoji, keeping the first `reactedAt`), removing
 * one they did not react with changes nothing, and an emoji nobody reacts with any more is gone.
 * Emojis keep the order of their first reaction, users the order they reacted in.
 */
export function applyReactions(
  reactions: readonly CommentReaction[],
  user: string,
  reactedAt: string,
  added: readonly string[] = [],
  removed: readonly string[] = [],
): readonly CommentReaction[] {
  const both = removed.findIndex((emoji) => added.includes(emoji))
  if (both !== -1)
    throw new ApiError(
      'BAD_REQUEST',
      `Invalid request: body field \`removedReactions.${both}\`: "${removed[both]}" is also in \`addedReactions\` (add or remove an emoji, not both)`,
    )
  if (added.length === 0 && removed.length === 0) return reactions
  let out = [...reactions]
  for (const emoji of added) {
    const i = out.findIndex((r) => r.emoji === emoji)
    if (i === -1) out.push({ emoji, users: [{ user, reactedAt }] })
    else if (!out[i]!.users.some((u) => u.user === user)) out[i] = { emoji, users: [...out[i]!.users, { user, reactedAt }] }
  }
  for (const emoji of removed) {
    const i = out.findIndex((r) => r.emoji === emoji)
    if (i === -1 || !out[i]!.users.some((u) => u.user === user)) continue
    const users = out[i]!.users.filter((u) => u.user !== user)
    out = users.length ? out.map((r, j) => (j === i ? { emoji, users } : r)) : out.filter((_, j) => j !== i)
  }
  return out
}

/** Whether two reaction lists say the same (so an update that changes nothing writes nothing). */
export function sameReactions(a: readonly CommentReaction[], b: readonly CommentReaction[]): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b)
}
