import type { JsonDocument } from './document.js'
import { collection } from '../../storage/port.js'

/**
 * The rows the content area stores and its collections (indexes included); the storage schema
 * is assembled from every area's collections (domains/schema.ts). Rows hold state only: what can be
 * derived (urls, permissions, counts held by indexes) is computed when a resource is encoded.
 */

/**
 * A revision of a space's content: immutable once written. Its pages are found through `buckets`,
 * a two-level persistent map (page id → page version id, see domains/content/tree-index.ts): an
 * edit writes the page versions it touches, the buckets holding them and a new revision row
 * sharing everything else (arrays are shared by reference between frozen rows), so it costs
 * O(pages touched), never a copy of the space.
 */
export interface RevisionRow {
  id: string
  space: string
  parents: readonly string[]
  type: 'edits' | 'merge' | 'update' | 'rollback'
  createdAt: string
  /** The change request merged (type `merge`). */
  mergedFrom?: string
  /**
   * The change request this revision was made for (its content edits, its updates from main):
   * work in progress, read only by callers who may view change requests. Main's revisions have none.
   */
  changeRequest?: string
  /** The Git commit a Git Sync import made the revision from (domains/git-sync). */
  git?: RevisionGitInfo
  /** Root pages, in order. */
  rootPages: readonly string[]
  /** Ids of the index buckets (`contentBuckets`); empty for an empty revision. */
  buckets: readonly string[]
  /** Files of the revision, in insertion order. */
  files: readonly string[]
  variables: Readonly<Record<string, string>>
}

/** One bucket of a revision's page index: page id → page version id. Immutable, shared between revisions. */
export interface ContentBucketRow {
  id: string
  entries: Readonly<Record<string, string>>
}

/** One version of a page: immutable; an edit writes a new version with the same `page` id. */
export interface PageVersionRow {
  id: string
  /** The page's id, stable through edits, merges and updates. */
  page: string
  space: string
  type: 'document' | 'group' | 'link'
  title: string
  slug: string
  /** The parent page; a root page when undefined. */
  parent?: string
  /** Child page ids, in order. */
  children: readonly string[]
  emoji?: string
  icon?: string
  description?: string
  hidden?: boolean
  noIndex?: boolean
  noRobotsIndex?: boolean
  condition?: string
  document: JsonDocument
  createdAt: string
  updatedAt: string
  /** The Git blob and path a Git Sync import read the page from (the official GitSyncBlob). */
  git?: { oid: string; path: string }
}

/** A file of a space's content (bytes in the blob port, under `blob`). Immutable. */
export interface FileRow {
  id: string
  space: string
  name: string
  contentType: string
  size: number
  dimensions?: { width: number; height: number }
  blob: string
  createdAt: string
  /** The Git blob and path a Git Sync import read the file from. */
  git?: { oid: string; path: string }
}

/** The commit a revision was imported from (the official GitSyncCommit). */
export interface RevisionGitInfo {
  oid: string
  message: string
  createdByGitBook: boolean
  ref?: string
  url?: string
}

/** The collections the content area stores, with their indexes. */
export const contentCollections = {
  revisions: collection<RevisionRow>({ bySpace: { key: (r) => r.space } }),
  contentBuckets: collection<ContentBucketRow>(),
  pageVersions: collection<PageVersionRow>(),
  files: collection<FileRow>({
    bySpace: { key: (f) => f.space },
    /** Files naming a blob: bytes are served only while some file row names them. */
    byBlob: { key: (f) => f.blob },
  }),
}
