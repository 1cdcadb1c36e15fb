import type { Job, JobEnv } from '../context.js'
import { GitSyncError } from './errors.js'
import { createGitHttp, GitTransportError } from './git-http.js'
import { GitRepo } from './git-repo.js'
import type { MemoryFs } from './memory-fs.js'
import { advance, current, fail, settleRef, type OperationFields } from './model.js'
import { scrub, type Remote } from './remote.js'
import { OPERATION_TIMEOUT_MS } from '../spaces/git-sync.js'
import { loadFigures } from './gitbook/figure.js'

/**
 * What import and export jobs share: the repository opened over the guarded HTTP client, a time
 * limit for the whole operation (`timeout` in git info once it passes), stage updates, and the
 * failed step that records why, in words that never hold the remote's credentials.
 */

/** A repository may send at most this much (a pack of a docs repository is far smaller). */
const MAX_REPOSITORY_BYTES = 200 * 1024 * 1024

export interface OperationRef {
  space: string
  operation: string
  remote: Remote
}

export interface JobContext {
  env: JobEnv
  repo: GitRepo
  signal: AbortSignal
  /** Record the next stage; a job whose operation was replaced (or whose sync was removed) stops here, quietly. */
  stage(stage: OperationFields['stage']): Promise<void>
  /** Stop quietly unless the operation is still the row's and running (before touching the remote). */
  ensureCurrent(): void
  /**
   * The branch to sync with (`ref`, else the remote's default branch, recorded on the row:
   * settleRef), its commit on the remote (none when it has no such branch) and where a new branch
   * starts from; a remote naming no default branch fails the operation, saying so.
   */
  branch(ref: string | undefined): Promise<{ ref: string; head?: string; defaultBranch?: string }>
}

class TimeoutError extends Error {}

/** Thrown to end a job whose operation a newer request replaced: it writes nothing, and is no failure. */
class Superseded extends Error {}

const isCurrent = (env: JobEnv, ref: OperationRef): boolean => env.read((ctx) => current(ctx, ref.space, ref.operation)?.operation.state === 'running')

/** What a failure says: our own errors as they are, isomorphic-git's and the network's described. */
function describeFailure(error: unknown): { state: 'failure' | 'timeout'; error: string; unauthenticated?: boolean } {
  if (error instanceof TimeoutError) return { state: 'timeout', error: `the operation took longer than ${OPERATION_TIMEOUT_MS / 1000} s and was stopped` }
  if (error instanceof GitSyncError) return { state: 'failure', error: error.message, ...(error.options.unauthenticated && { unauthenticated: true }) }
  if (error instanceof GitTransportError) return { state: 'failure', error: `could not reach the repository: ${error.message}` }
  const e = error as { code?: string; data?: { statusCode?: number; statusMessage?: string; reason?: string }; message?: string }
  if (e?.code === 'HttpError') {
    const status = e.data?.statusCode
    if (status === 401 || status === 403) return { state: 'failure', error: `the repository refused the credentials (HTTP ${status})`, unauthenticated: true }
    if (status === 404) return { state: 'failure', error: 'no repository at this URL (HTTP 404)' }
    return { state: 'failure', error: `the repository answered HTTP ${status} ${e.data?.statusMessage ?? ''}`.trim() }
  }
  if (e?.code === 'SmartHttpError' || e?.code === 'ParseError' || e?.code === 'UnknownTransportError')
    return { state: 'failure', error: `not a Git repository over smart HTTP: ${e.message}` }
  if (e?.code === 'PushRejectedError' || e?.code === 'GitPushError')
    return { state: 'failure', error: `the remote refused the push (${e.data?.reason ?? e.message ?? 'rejected'})` }
  return { state: 'failure', error: error instanceof Error ? error.message : String(error) }
}

/**
 * A Git Sync job: it waits for the space's earlier jobs (queue.ts), ends at once when a newer
 * request replaced its operation meanwhile, else `work` runs with the repository opened and the
 * time limit armed (from its turn on); when it throws, the operation (if still the row's) ends as
 * failure or timeout with the reason.
 */
export function gitSyncJob(ref: OperationRef, work: (job: JobContext) => Promise<void>): Job {
  return {
    run: (env) =>
      env.services.gitSync.enqueue(ref.space, async () => {
        if (!isCurrent(env, ref)) return
        const limit = new AbortController()
        const timer = setTimeout(() => limit.abort(new TimeoutError()), OPERATION_TIMEOUT_MS)
        let kept = false
        let repoStore: MemoryFs | undefined
        try {
          // The HTML and hast utilities Git Sync's markdown uses for figures load on first use (gitbook/figure.ts).
          await loadFigures()
          const http = createGitHttp({
            fetch: env.fetch,
            allowPrivateNetwork: env.allowPrivateNetwork,
            remote: ref.remote,
            signal: limit.signal,
            maxBytes: MAX_REPOSITORY_BYTES,
          })
          // The space's repository from its last job with this remote, when kept (repo-cache.ts).
          const key = `${ref.space}\0${ref.remote.url}`
          const repo = await GitRepo.open(http, ref.remote.url, env.services.gitSyncRepos.take(key))
          repoStore = repo.store
          const ensureCurrent = () => {
            // Past the time limit the work may still be going on (a fetch that ignores its signal): it stops here too.
            if (limit.signal.aborted || !isCurrent(env, ref)) throw new Superseded()
          }
          const stage = async (s: OperationFields['stage']) => {
            ensureCurrent()
            await env.transaction((ctx) => advance(ctx, ref.space, ref.operation, s))
          }
          const branch = async (asked: string | undefined) => {
            const found = await repo.remoteRefs(asked)
            if (found.ref === undefined)
              throw new GitSyncError('the repository has no default branch (its HEAD names no branch, or it has none yet): give the branch as `ref`')
            ensureCurrent()
            await env.transaction((ctx) => settleRef(ctx, ref.space, ref.operation, found.ref!))
            return { ...found, ref: found.ref }
          }
          const done = work({ env, repo, signal: limit.signal, stage, ensureCurrent, branch })
          // The limit stops the operation even where a fetch ignores its signal.
          await new Promise<void>((resolve, reject) => {
            limit.signal.addEventListener('abort', () => reject(limit.signal.reason), { once: true })
            done.then(resolve, reject)
          })
          env.services.gitSyncRepos.keep(key, repo.store)
          kept = true
        } catch (error) {
          if (error instanceof Superseded) return
          throw limit.signal.aborted ? limit.signal.reason : error
        } finally {
          clearTimeout(timer)
          // A repository not kept gives its memory back now, not whenever the collector runs (a pack grown in place is memory it does not see).
          if (!kept) repoStore?.release()
        }
      }),
    failed(ctx, error) {
      const reason = describeFailure(error)
      fail(ctx, ref.space, ref.operation, { ...reason, error: scrub(reason.error, ref.remote).slice(0, 2000) })
    },
  }
}
