import type { Context } from '../context.js'
import { ApiError } from '../../core/errors.js'
import { implement } from '../context.js'
import { NO_CONTENT, type Prepare } from '../../core/operation.js'
import { requireUnlocked } from '../change-requests/model.js'
import { getSpace } from '../spaces/model.js'
import { exportJob } from './export-job.js'
import { importJob } from './import-job.js'
import { isOutdated, startOperation } from './model.js'
import { gitSyncOperations } from './operations.js'
import { parseRemote, type Remote } from './remote.js'
import { DEFAULT_COMMIT_MESSAGE, type ExportToGitRepository, type ImportGitRepository } from './schemas.js'
import { encodeGitSync } from '../spaces/git-sync.js'

/**
 * The remote of an import or export, checked before the transaction (a private address is a 400
 * unless the API allows them). Nothing to undo: the credentials stay in memory, in the job.
 */
const prepareRemote: Prepare = async (env, input) => ({
  value: parseRemote((input.body as { url: string }).url, 'url', env.allowPrivateNetwork),
  undo: () => undefined,
})

/**
 * Start an operation unless its `timestamp` is older than the last one applied (or the one
 * running): then nothing happens and the request still answers 204, as the event it stands for
 * has been overtaken.
 */
function start(ctx: Context, spaceId: string, direction: 'import' | 'export', remote: Remote, body: ImportGitRepository | ExportToGitRepository) {
  const space = getSpace(ctx, spaceId)
  if (isOutdated(ctx.tx.get('gitSyncs', space.id), body.timestamp)) return undefined
  return { space, row: startOperation(ctx, space.id, direction, remote, body) }
}

/** The commit author of an export: the caller. */
function authorOf(ctx: Context) {
  const user = ctx.tx.get('users', ctx.actor.user)
  return { name: user?.displayName || 'docs-content-api', email: user?.email ?? `${ctx.actor.user || 'system'}@users.noreply.invalid` }
}

export const gitSyncHandlers = implement(
  gitSyncOperations,
  {
    importGitRepository: (ctx, { params, body, prepared }) => {
      const remote = prepared as Remote
      if (!body.standalone) requireUnlocked(getSpace(ctx, params.spaceId))
      const started = start(ctx, params.spaceId, 'import', remote, body)
      if (!started) return NO_CONTENT
      const { row } = started
      ctx.defer(
        // Named after the row (`<kind>:<row id>`): its lease tells the other processes it is being worked on (core/resume.ts).
        `git-sync-import:${row.id}`,
        importJob(
          { space: row.space, operation: row.operation.id, remote },
          {
            ...(body.ref !== undefined && { ref: body.ref }),
            ...(row.projectDirectory !== undefined && { projectDirectory: row.projectDirectory }),
            ...(row.commitUrl !== undefined && { commitUrl: row.commitUrl }),
          },
        ),
      )
      return NO_CONTENT
    },
    exportToGitRepository: (ctx, { params, body, prepared }) => {
      const remote = prepared as Remote
      const started = start(ctx, params.spaceId, 'export', remote, body)
      if (!started) return NO_CONTENT
      const { space, row } = started
      ctx.defer(
        `git-sync-export:${row.id}`,
        exportJob(
          { space: row.space, operation: row.operation.id, remote },
          {
            ...(body.ref !== undefined && { ref: body.ref }),
            ...(row.projectDirectory !== undefined && { projectDirectory: row.projectDirectory }),
            commitMessage: body.commitMessage?.trim() ? body.commitMessage : DEFAULT_COMMIT_MESSAGE,
            revision: space.revision,
            force: body.force === true,
            standalone: body.standalone === true,
            author: authorOf(ctx),
          },
        ),
      )
      return NO_CONTENT
    },
    getSpaceGitInfo: (ctx, { params }) => {
      const row = ctx.tx.get('gitSyncs', getSpace(ctx, params.spaceId).id)
      if (!row) throw new ApiError('NOT_FOUND', 'The space has no Git Sync yet (no import or export was requested)')
      return encodeGitSync(row)
    },
    deleteSpaceGitLegacyInstallation: (ctx, { params }) => {
      const space = getSpace(ctx, params.spaceId)
      // Its running operation, if any, then writes nothing (model.ts: `current`).
      if (ctx.tx.get('gitSyncs', space.id)) ctx.tx.delete('gitSyncs', space.id)
      return NO_CONTENT
    },
  },
  { importGitRepository: prepareRemote, exportToGitRepository: prepareRemote },
)
