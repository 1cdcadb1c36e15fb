import { z } from 'zod'
import { collection } from '../../storage/port.js'
import { SeedIdSchema, SeedTimestampSchema } from '../../state/seed.js'
import { readOnly } from '../common/rows.js'
import { JsonDocumentSchema } from './schemas.js'

/**
 * The rows the content area stores and its collections (indexes included); the storage schema
 * is assembled from every area's collections (domains/schema.ts). Rows hold state only: what can be
 * derived (urls, permissions, counts held by indexes) is computed when a resource is encoded.
 * Each row's schema is written once here; the seed rules (seed.ts) add the defaults a loaded row gets.
 */

const IdsSchema = readOnly(z.array(SeedIdSchema))

/** The Git blob and path a Git Sync import read a page or a file from (the official GitSyncBlob). */
const GitBlobSchema = z.strictObject({ oid: z.string().min(1), path: z.string().min(1) })

/** The commit a revision was imported from (the official GitSyncCommit). */
const RevisionGitInfoSchema = z.strictObject({
  oid: z.string().min(1),
  message: z.string(),
  createdByGitBook: z.boolean(),
  ref: z.string().optional(),
  url: z.string().optional(),
})
export type RevisionGitInfo = z.output<typeof RevisionGitInfoSchema>

/**
 * A revision of a space's content: immutable once written. Its pages are found through `buckets`,
 * a two-level persistent map (page id → page version id, see domains/content/tree-index.ts): an
 * edit writes the page versions it touches, the buckets holding them and a new revision row
 * sharing everything else (arrays are shared by reference between frozen rows), so it costs
 * O(pages touched), never a copy of the space.
 */
export const RevisionRowSchema = z.strictObject({
  id: SeedIdSchema,
  space: SeedIdSchema,
  parents: IdsSchema,
  type: z.enum(['edits', 'merge', 'update', 'rollback']),
  createdAt: SeedTimestampSchema,
  /** The change request merged (type `merge`). */
  mergedFrom: SeedIdSchema.optional(),
  /**
   * The change request this revision was made for (its content edits, its updates from main):
   * work in progress, read only by callers who may view change requests. Main's revisions have none.
   */
  changeRequest: SeedIdSchema.optional(),
  /** Root pages, in order. */
  rootPages: IdsSchema,
  /** Ids of the index buckets (`contentBuckets`); empty for an empty revision (named ''). */
  buckets: readOnly(z.array(z.string())),
  /** Files of the revision, in insertion order. */
  files: IdsSchema,
  variables: readOnly(z.record(z.string(), z.string())),
  /** The Git commit a Git Sync import made the revision from (domains/git-sync). */
  git: RevisionGitInfoSchema.optional(),
  /**
   * Reusable contents of the revision: reusable content id → version id (`reusableContentVersions`),
   * in creation order. Undefined when the revision has none (as every revision written before
   * they existed). A revision holds few of them (at most MAX_REUSABLE_CONTENTS), so a record shared
   * by reference between revisions is enough: no bucketed index as for pages.
   */
  reusableContents: readOnly(z.record(z.string(), SeedIdSchema)).optional(),
  /**
   * The space's redirects (a Git Sync import reads them from `.gitbook.yaml`'s `redirects:`): a
   * path under the space's published URL (no leading or trailing slash) → the page id it leads
   * to, so a page moved or renamed keeps its redirects. Undefined when there are none. Part of
   * the content: it travels with the revision through change requests, merges and copies.
   */
  redirects: readOnly(z.record(z.string(), SeedIdSchema)).optional(),
})
export type RevisionRow = z.output<typeof RevisionRowSchema>

/** One bucket of a revision's page index: page id → page version id. Immutable, shared between revisions. */
export const ContentBucketRowSchema = z.strictObject({ id: SeedIdSchema, entries: readOnly(z.record(z.string(), SeedIdSchema)) })
export type ContentBucketRow = z.output<typeof ContentBucketRowSchema>

/** One version of a page: immutable; an edit writes a new version with the same `page` id. */
export const PageVersionRowSchema = z.strictObject({
  id: SeedIdSchema,
  /** The page's id, stable through edits, merges and updates. */
  page: SeedIdSchema,
  space: SeedIdSchema,
  type: z.enum(['document', 'group', 'link']),
  title: z.string().min(1),
  slug: z.string().max(100),
  /** The parent page; a root page when undefined. */
  parent: SeedIdSchema.optional(),
  /** Child page ids, in order. */
  children: IdsSchema,
  emoji: z.string().optional(),
  icon: z.string().optional(),
  description: z.string().optional(),
  hidden: z.boolean().optional(),
  noIndex: z.boolean().optional(),
  noRobotsIndex: z.boolean().optional(),
  condition: z.string().optional(),
  document: JsonDocumentSchema,
  createdAt: SeedTimestampSchema,
  updatedAt: SeedTimestampSchema,
  /** The Git blob and path a Git Sync import read the page from. */
  git: GitBlobSchema.optional(),
})
export type PageVersionRow = z.output<typeof PageVersionRowSchema>

/**
 * One version of a reusable content (the official `RevisionReusableContent`): a titled document a
 * page includes by reference (a `reusable-content` block). Immutable: an edit writes a new version
 * with the same `reusableContent` id; the version's id is the content's `document` id.
 */
export const ReusableContentVersionRowSchema = z.strictObject({
  id: SeedIdSchema,
  /** The reusable content's id, stable through edits, merges and updates. */
  reusableContent: SeedIdSchema,
  space: SeedIdSchema,
  title: z.string().min(1).max(100),
  document: JsonDocumentSchema,
  createdAt: SeedTimestampSchema,
  updatedAt: SeedTimestampSchema,
  /** The Git blob and path a Git Sync import read it from (`.gitbook/includes/<name>.md`). */
  git: GitBlobSchema.optional(),
})
export type ReusableContentVersionRow = z.output<typeof ReusableContentVersionRowSchema>

/** A file of a space's content (bytes in the blob port, under `blob`). Immutable. */
export const FileRowSchema = z.strictObject({
  id: SeedIdSchema,
  space: SeedIdSchema,
  name: z.string().min(1).max(256),
  contentType: z.string().min(1),
  size: z.number().int().min(0),
  dimensions: z.object({ width: z.number(), height: z.number() }).optional(),
  /** The blob port's key of the bytes. */
  blob: z.string().min(1),
  createdAt: SeedTimestampSchema,
  /** The Git blob and path a Git Sync import read the file from. */
  git: GitBlobSchema.optional(),
})
export type FileRow = z.output<typeof FileRowSchema>

/** The collections the content area stores, with their indexes. */
export const contentCollections = {
  revisions: collection<RevisionRow>({ bySpace: { key: (r) => r.space } }),
  contentBuckets: collection<ContentBucketRow>(),
  pageVersions: collection<PageVersionRow>(),
  reusableContentVersions: collection<ReusableContentVersionRow>({ bySpace: { key: (r) => r.space } }),
  files: collection<FileRow>({
    bySpace: { key: (f) => f.space },
    /** Files naming a blob: bytes are served only while some file row names them. */
    byBlob: { key: (f) => f.blob },
  }),
}
