import { collection } from '../../storage/port.js'
import { UNFINISHED } from '../common/rows.js'

/**
 * The rows the git-sync area stores and its collections (indexes included); the storage schema
 * is assembled from every area's collections (domains/schema.ts). Rows hold state only: what can be
 * derived (urls, permissions, counts held by indexes) is computed when a resource is encoded.
 */

export type GitSyncDirection = 'import' | 'export'

export type GitSyncOperationState = 'running' | 'failure' | 'success' | 'timeout'

/**
 * What the last successful (not standalone) sync of a space with its repository, branch and
 * folder read from the branch or wrote to it: the files that are the sync's own (an export
 * replaces or removes those, and keeps every other file of the repository byte for byte), which
 * page or file each was, and what a page's frontmatter held that the content model has no place
 * for (`layout`...), written back by the next export. See domains/git-sync (export-job.ts, layout/write.ts, apply-import.ts).
 */
export interface GitSyncTree {
  /** Markdown files of pages: the page each was read as or written from. */
  pages: Array<{ path: string; page: string; frontmatter?: GitSyncFrontmatter }>
  /** Assets: the file each became or was written from. */
  files: Array<{ path: string; file: string }>
  /** The other files the sync reads and writes (SUMMARY.md). */
  other: string[]
}

/** A page's frontmatter as read: its keys in order, and the values of those the content model has no place for. */
export interface GitSyncFrontmatter {
  keys: string[]
  extra: Record<string, unknown>
}

/**
 * A space's Git Sync (id: the space's id), from its first import or export on: the repository it
 * syncs with (its URL without credentials: those are never stored), the last operation and its
 * outcome, and what the next operations compare with (the commit and the revision of the last
 * successful sync, the newest timestamp applied). See domains/git-sync.
 */
export interface GitSyncRow {
  id: string
  space: string
  /** The id git info answers as `installationId` (a plain-URL sync has no installation of its own). */
  installation: string
  provider: 'github' | 'gitlab' | 'github-legacy'
  status: 'active' | 'unauthenticated' | 'pending'
  /** The remote, without credentials. */
  url: string
  /** The repository's tree URL (`gitInfo.url` or `repoTreeURL`), without credentials. */
  treeUrl?: string
  commitUrl?: string
  repoName: string
  ref: string
  projectDirectory?: string
  updatedAt: string
  operation: {
    id: string
    direction: GitSyncDirection
    state: GitSyncOperationState
    stage: 'repo_fetch' | 'config_check' | 'content_process' | 'finalize'
    startedAt: string
    updatedAt: string
    completedAt?: string
    endedAt?: string
    error?: string
    /** The revision an import made (standalone or not), or the revision an export wrote. */
    revision?: string
    /** The commit imported, or pushed (the remote's head when an export had nothing to commit). */
    commit?: string
    timestamp?: string
    standalone?: boolean
    force?: boolean
  }
  /** The newest `timestamp` of an operation that succeeded. */
  appliedTimestamp?: string
  /** The commit of the last successful sync with `url` and `ref`. */
  commit?: string
  /** Main's revision right after the last successful non-standalone sync (a later one means local changes). */
  revision?: string
  /** The files of the last successful sync with `url`, `ref` and `projectDirectory` (kept with `commit`). */
  tree?: GitSyncTree
}

/** The collections the git-sync area stores, with their indexes. */
export const gitSyncCollections = {
  /** `unfinished` (key `unfinished`): syncs whose operation is running, for core/resume.ts. */
  gitSyncs: collection<GitSyncRow>({ unfinished: { key: (g) => (g.operation.state === 'running' ? UNFINISHED : undefined) } }),
}
