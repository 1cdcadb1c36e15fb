import type { ReadTx } from '../../storage/port.js'
import type { AppSchema } from '../schema.js'
import type { GitSyncRow } from '../git-sync/rows.js'

/**
 * A space's Git Sync as the official GitSyncState (GitSyncStateSchema, schemas.ts): what git info
 * answers and the space's `gitSync` field holds. Here, in the spaces area, because a space's
 * answer carries it; the git-sync area, built on spaces, writes the row and imports this.
 */

/** How long one import or export may run before it is stopped (`timeout`). */
export const OPERATION_TIMEOUT_MS = 5 * 60 * 1000

export function encodeGitSync(row: GitSyncRow) {
  const op = row.operation
  return {
    installationId: row.installation,
    installationProvider: row.provider,
    installationStatus: row.status,
    repoName: row.repoName,
    url: row.treeUrl ?? row.url,
    operationTimeout: OPERATION_TIMEOUT_MS,
    updatedAt: row.updatedAt,
    operation: {
      state: op.state,
      direction: op.direction,
      startedAt: op.startedAt,
      ...(op.endedAt !== undefined && { endedAt: op.endedAt }),
      ...(op.error !== undefined && { error: op.error }),
      ...(op.revision !== undefined && { revision: op.revision }),
      ...(op.commit !== undefined && { commit: op.commit }),
    },
  }
}

/** The `gitSync` field of a space, or undefined before its first sync. */
export function gitSyncOf(tx: ReadTx<AppSchema>, space: string) {
  const row = tx.get('gitSyncs', space)
  return row ? encodeGitSync(row) : undefined
}
