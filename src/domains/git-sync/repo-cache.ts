import type { MemoryFs } from './memory-fs.js'

/**
 * The repositories of the last few Git Sync jobs, kept for the same space's next job with the same
 * remote: an export right after an import (or after an export) then finds the branch's head
 * among its objects and fetches nothing, so exporting one edited page of a large repository does
 * not download the whole repository again (bench (v)). Bounded: at most ENTRIES repositories, none
 * over ENTRY_BYTES, ENTRY_BYTES × 2 in all, the least recently used dropped first. A job takes its
 * space's repository out while it runs (jobs of a space run one at a time: queue.ts) and puts it
 * back only when it succeeded. Kept per API instance (core/services.ts): objects, not state; a
 * repository is only ever asked for objects by their ids, so a stale one is never wrong.
 */

const ENTRIES = 4
const ENTRY_BYTES = 16 * 1024 * 1024

export interface RepoCache {
  take(key: string): MemoryFs | undefined
  /** Keep a repository for the space's next job; one not kept (too large), or dropped to make room, is released (MemoryFs.release). */
  keep(key: string, fs: MemoryFs): void
}

declare module '../../core/services.js' {
  interface Services {
    /** Repositories kept between a space's Git Sync jobs (domains/git-sync/repo-cache.ts). */
    gitSyncRepos: RepoCache
  }
}

export function createRepoCache(): RepoCache {
  const kept = new Map<string, { fs: MemoryFs; bytes: number }>()
  return {
    take(key) {
      const entry = kept.get(key)
      kept.delete(key)
      return entry?.fs
    },
    keep(key, fs) {
      kept.delete(key)
      const bytes = fs.bytes()
      if (bytes > ENTRY_BYTES) {
        fs.release()
        return
      }
      kept.set(key, { fs, bytes })
      let total = 0
      for (const entry of kept.values()) total += entry.bytes
      for (const [oldest, entry] of kept) {
        if (kept.size <= ENTRIES && total <= ENTRY_BYTES * 2) break
        kept.delete(oldest)
        entry.fs.release()
        total -= entry.bytes
      }
    },
  }
}
