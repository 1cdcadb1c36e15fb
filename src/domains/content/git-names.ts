/**
 * Names Git refuses as a path segment (its `verify_path`, with the NTFS and HFS+ protections that
 * are on by default where they matter): `.git` in any case; on NTFS also its short name `git~1`,
 * either followed by dots or spaces (NTFS drops them) or by an alternate data stream (`:...`);
 * on HFS+ `.git` with code points HFS+ ignores inside it (zero-width joiners, direction marks).
 * A page slug or a file name of that form would make a space impossible to export with Git Sync:
 * the API refuses it where it is written (change-requests/schemas.ts), and an export renames one
 * that got in another way (git-sync/layout/write.ts, `gitSafeName`).
 */

/** The code points HFS+ ignores when it compares names (git's `next_hfs_char`). */
const HFS_IGNORED = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g

export function gitRefusesName(name: string): boolean {
  return /^(\.git|git~1)[. ]*(:.*)?$/i.test(name.replace(HFS_IGNORED, ''))
}

export const GIT_NAME_RULE = 'must not be a name Git refuses as a path segment (`.git` in any case, `git~1`, either followed by dots, spaces or `:`)'
