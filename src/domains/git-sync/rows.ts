import { z } from 'zod'
import { collection } from '../../storage/port.js'
import { SeedIdSchema, SeedTimestampSchema } from '../../state/seed.js'
import { UNFINISHED } from '../common/rows.js'

/**
 * The rows the git-sync area stores and its collections (indexes included); the storage schema
 * is assembled from every area's collections (domains/schema.ts). Rows hold state only: what can be
 * derived (urls, permissions, counts held by indexes) is computed when a resource is encoded.
 * Each row's schema is written once here; the seed rules (seed.ts) add the defaults a loaded row gets.
 */

const GitSyncDirectionSchema = z.enum(['import', 'export'])
export type GitSyncDirection = z.output<typeof GitSyncDirectionSchema>

const GitSyncOperationStateSchema = z.enum(['running', 'failure', 'success', 'timeout'])
export type GitSyncOperationState = z.output<typeof GitSyncOperationStateSchema>

/** A path of the repository: `/`-separated, relative, no empty, `.` or `..` part. */
const RepoPathSchema = z
  .string()
  .min(1)
  .refine(
    (p) => p.split('/').every((part) => part !== '' && part !== '.' && part !== '..'),
    'must be a relative path of the repository (no empty, `.` or `..` part)',
  )

/** A page's frontmatter as read: its keys in order, and the values of those the content model has no place for. */
const GitSyncFrontmatterSchema = z.strictObject({ keys: z.array(z.string()), extra: z.record(z.string(), z.unknown()) })
export type GitSyncFrontmatter = z.output<typeof GitSyncFrontmatterSchema>

/**
 * What the last successful (not standalone) sync of a space with its repository, branch and
 * folder read from the branch or wrote to it: the files that are the sync's own (an export
 * replaces or removes those, and keeps every other file of the repository byte for byte), which
 * page or file each was, and what a page's frontmatter held that the content model has no place
 * for (`layout`...), written back by the next export. See domains/git-sync (export-job.ts, layout/write.ts, apply-import.ts).
 */
const GitSyncTreeSchema = z.strictObject({
  /** Markdown files of pages: the page each was read as or written from. */
  pages: z.array(z.strictObject({ path: RepoPathSchema, page: SeedIdSchema, frontmatter: GitSyncFrontmatterSchema.optional() })),
  /** Assets: the file each became or was written from. */
  files: z.array(z.strictObject({ path: RepoPathSchema, file: SeedIdSchema })),
  /** The other files the sync reads and writes (SUMMARY.md). */
  other: z.array(RepoPathSchema),
  /** Files of `.gitbook/includes/`: the reusable content each became or was written from. */
  reusableContents: z.array(z.strictObject({ path: RepoPathSchema, reusableContent: SeedIdSchema })).optional(),
  /**
   * The files written from content (pages, reusable contents, SUMMARY.md): a fingerprint of what
   * the content gave at that path at the sync (layout/write.ts renderedSum), and the blob the
   * branch then held there (none: no file). While the content gives the same, an export keeps the
   * branch's file as it is, whatever its markdown style (and a file that was not there stays away).
   */
  texts: z.array(z.strictObject({ path: RepoPathSchema, sum: z.string().max(64), oid: z.string().max(64).optional() })).optional(),
})
export type GitSyncTree = z.output<typeof GitSyncTreeSchema>

/**
 * A space's Git Sync (id: the space's id), from its first import or export on: the repository it
 * syncs with (its URL without credentials: those are never stored), the last operation and its
 * outcome, and what the next operations compare with (the commit and the revision of the last
 * successful sync, the newest timestamp applied). See domains/git-sync.
 */
export const GitSyncRowSchema = z.strictObject({
  id: SeedIdSchema,
  /** The row's id. */
  space: SeedIdSchema,
  /** The id git info answers as `installationId` (a plain-URL sync has no installation of its own). */
  installation: SeedIdSchema,
  provider: z.enum(['github', 'gitlab', 'github-legacy']),
  status: z.enum(['active', 'unauthenticated', 'pending']),
  /** The remote, without credentials. */
  url: z.string().min(1).max(2048),
  /** The repository's tree URL (`gitInfo.url` or `repoTreeURL`), without credentials. */
  treeUrl: z.string().max(2048).optional(),
  commitUrl: z.string().max(2048).optional(),
  repoName: z.string(),
  /** The branch; undefined until the first job of a request without `ref` knows the remote's default branch. */
  ref: z
    .string()
    .regex(/^refs\/heads\/./, 'must be a branch ref of the form "refs/heads/<branch>"')
    .optional(),
  projectDirectory: z.string().min(1).optional(),
  updatedAt: SeedTimestampSchema,
  operation: z.strictObject({
    id: SeedIdSchema,
    direction: GitSyncDirectionSchema,
    state: GitSyncOperationStateSchema,
    stage: z.enum(['repo_fetch', 'config_check', 'content_process', 'finalize']),
    startedAt: SeedTimestampSchema,
    updatedAt: SeedTimestampSchema,
    completedAt: SeedTimestampSchema.optional(),
    endedAt: SeedTimestampSchema.optional(),
    error: z.string().optional(),
    /** The revision an import made (standalone or not), or the revision an export wrote. */
    revision: SeedIdSchema.optional(),
    /** The commit imported, or pushed (the remote's head when an export had nothing to commit). */
    commit: z.string().optional(),
    timestamp: SeedTimestampSchema.optional(),
    standalone: z.boolean().optional(),
    force: z.boolean().optional(),
  }),
  /** The newest `timestamp` of an operation that succeeded. */
  appliedTimestamp: SeedTimestampSchema.optional(),
  /** The commit of the last successful sync with `url` and `ref`. */
  commit: z.string().optional(),
  /** Main's revision right after the last successful non-standalone sync (a later one means local changes). */
  revision: SeedIdSchema.optional(),
  /** The files of the last successful sync with `url`, `ref` and `projectDirectory` (kept with `commit`). */
  tree: GitSyncTreeSchema.optional(),
})
export type GitSyncRow = z.output<typeof GitSyncRowSchema>

/** The collections the git-sync area stores, with their indexes. */
export const gitSyncCollections = {
  /** `unfinished` (key `unfinished`): syncs whose operation is running, for core/resume.ts. */
  gitSyncs: collection<GitSyncRow>({ unfinished: { key: (g) => (g.operation.state === 'running' ? UNFINISHED : undefined) } }),
}
