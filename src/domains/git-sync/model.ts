import type { Context } from '../context.js'
import type { GitSyncDirection, GitSyncRow, GitSyncTree } from './rows.js'
import type { ExportToGitRepository, ImportGitRepository } from './schemas.js'
import { withoutCredentials, type Remote } from './remote.js'

/**
 * A space's Git Sync row: started by each import or export request, moved through its stages by
 * the job, ended as success, failure or timeout. A request replaces the row's operation (the
 * newest request wins); jobs run one at a time per space (queue.ts) and write only while their
 * operation is still the row's (`current`), so an operation replaced, or a sync removed, while
 * its job waited or ran leaves no trace (but a push already made: export-job.ts).
 */

export type OperationFields = GitSyncRow['operation']

/** The row, when `operationId` is still its operation. */
export function current(ctx: Context, space: string, operationId: string): GitSyncRow | undefined {
  const row = ctx.tx.get('gitSyncs', space)
  return row?.operation.id === operationId ? row : undefined
}

/**
 * Whether an operation with this `timestamp` comes too late: older than the last one applied, or
 * than the one still running (which was requested for a newer event).
 */
export function isOutdated(row: GitSyncRow | undefined, timestamp: string | undefined): boolean {
  if (!row || timestamp === undefined) return false
  const t = Date.parse(timestamp)
  if (row.appliedTimestamp !== undefined && t < Date.parse(row.appliedTimestamp)) return true
  const running = row.operation.state === 'running' ? row.operation.timestamp : undefined
  return running !== undefined && t < Date.parse(running)
}

/** Start an operation: the row created on the first sync, its target and operation replaced after. */
export function startOperation(
  ctx: Context,
  space: string,
  direction: GitSyncDirection,
  remote: Remote,
  body: ImportGitRepository | ExportToGitRepository,
): GitSyncRow {
  const now = ctx.nowIso()
  const old = ctx.tx.get('gitSyncs', space)
  const projectDirectory = normalizeDirectory(body.repoProjectDirectory)
  const sameRepository = old !== undefined && old.url === remote.url && old.projectDirectory === projectDirectory
  // Without `ref`, the remote's default branch, known once the job asks the remote (settleRef):
  // meanwhile the branch this repository and folder last synced with (most often that default branch), or none.
  const ref = body.ref ?? (sameRepository ? old.ref : undefined)
  // The last synced commit means something only for the same repository, branch and folder.
  const sameTarget = sameRepository && old.ref === ref
  const treeUrl = body.gitInfo?.url ?? body.repoTreeURL
  const row: GitSyncRow = {
    id: space,
    space,
    installation: old?.installation ?? ctx.newId(),
    provider: body.gitInfo?.provider ?? remote.provider ?? old?.provider ?? 'github',
    status: old?.status ?? 'active',
    url: remote.url,
    repoName: remote.repoName,
    ...(ref !== undefined && { ref }),
    updatedAt: old && old.url === remote.url && old.ref === ref ? old.updatedAt : now,
    operation: {
      id: ctx.newId(),
      direction,
      state: 'running',
      stage: 'repo_fetch',
      startedAt: now,
      updatedAt: now,
      ...(body.timestamp !== undefined && { timestamp: new Date(body.timestamp).toISOString() }),
      ...(body.standalone && { standalone: true }),
      ...(body.force && { force: true }),
    },
    ...(treeUrl !== undefined && { treeUrl: withoutCredentials(treeUrl) }),
    ...(body.repoCommitURL !== undefined && { commitUrl: withoutCredentials(body.repoCommitURL) }),
    ...(projectDirectory !== undefined && { projectDirectory }),
    ...(old?.appliedTimestamp !== undefined && { appliedTimestamp: old.appliedTimestamp }),
    ...(sameTarget && old.commit !== undefined && { commit: old.commit }),
    ...(sameTarget && old.tree !== undefined && { tree: old.tree }),
    ...(old?.revision !== undefined && { revision: old.revision }),
  }
  return old ? ctx.tx.update('gitSyncs', row) : ctx.tx.insert('gitSyncs', row)
}

/** `a/b/` and `./a//b` are `a/b`; the repository's root is undefined. */
export function normalizeDirectory(dir: string | undefined): string | undefined {
  if (dir === undefined) return undefined
  const parts = dir.split('/').filter((p) => p !== '' && p !== '.')
  return parts.length ? parts.join('/') : undefined
}

/**
 * The branch a running operation syncs with, once its job knows it (a request without `ref`: the
 * remote's default branch). Another branch than the row named is another target: the last synced
 * commit and record, which belong to that other branch, go.
 */
export function settleRef(ctx: Context, space: string, operationId: string, ref: string): void {
  const row = current(ctx, space, operationId)
  if (!row || row.operation.state !== 'running' || row.ref === ref) return
  const { commit: _commit, tree: _tree, ...rest } = row
  ctx.tx.update('gitSyncs', { ...rest, ref, ...(row.ref !== undefined && { updatedAt: ctx.nowIso() }) })
}

/** Move a running operation to its next stage. */
export function advance(ctx: Context, space: string, operationId: string, stage: OperationFields['stage']): void {
  const row = current(ctx, space, operationId)
  if (!row || row.operation.state !== 'running') return
  ctx.tx.update('gitSyncs', { ...row, operation: { ...row.operation, stage, updatedAt: ctx.nowIso() } })
}

/** End an operation successfully, with what the sync now stands on. */
export function succeed(ctx: Context, row: GitSyncRow, outcome: { commit: string; revision?: string; mainRevision?: string; tree?: GitSyncTree }): GitSyncRow {
  const now = ctx.nowIso()
  const op = row.operation
  const applied =
    op.timestamp !== undefined && (row.appliedTimestamp === undefined || Date.parse(op.timestamp) > Date.parse(row.appliedTimestamp))
      ? op.timestamp
      : row.appliedTimestamp
  return ctx.tx.update('gitSyncs', {
    ...row,
    status: 'active',
    // A standalone operation leaves the sync where it was (the revision or the commit is a snapshot of its own).
    commit: op.standalone ? row.commit : outcome.commit,
    ...(!op.standalone && outcome.tree !== undefined && { tree: outcome.tree }),
    ...(outcome.mainRevision !== undefined && !op.standalone && { revision: outcome.mainRevision }),
    ...(applied !== undefined && { appliedTimestamp: applied }),
    operation: {
      ...op,
      state: 'success',
      stage: 'finalize',
      updatedAt: now,
      completedAt: now,
      endedAt: now,
      commit: outcome.commit,
      ...(outcome.revision !== undefined && { revision: outcome.revision }),
    },
  })
}

/** End an operation with its reason (a failure, or `timeout`). */
export function fail(
  ctx: Context,
  space: string,
  operationId: string,
  reason: { state: 'failure' | 'timeout'; error: string; unauthenticated?: boolean },
): void {
  const row = current(ctx, space, operationId)
  if (!row || row.operation.state !== 'running') return
  const now = ctx.nowIso()
  ctx.tx.update('gitSyncs', {
    ...row,
    status: reason.unauthenticated ? 'unauthenticated' : row.status,
    operation: { ...row.operation, state: reason.state, error: reason.error, updatedAt: now, endedAt: now },
  })
}
