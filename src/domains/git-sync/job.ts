import type { Job, JobEnv } from '../../core/jobs.js'
import { GitSyncError } from './errors.js'
import { createGitHttp, GitTransportError } from './git-http.js'
import { GitRepo } from './git-repo.js'
import { advance, fail, type OperationFields } from './model.js'
import { scrub, type Remote } from './remote.js'
import { OPERATION_TIMEOUT_MS } from './state.js'

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
  /** Record the next stage (nothing when the operation was replaced meanwhile). */
  stage(stage: OperationFields['stage']): void
}

class TimeoutError extends Error {}

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
  if (e?.code === 'SmartHttpError' || e?.code === 'ParseError' || e?.code === 'UnknownTransportError') return { state: 'failure', error: `not a Git repository over smart HTTP: ${e.message}` }
  if (e?.code === 'PushRejectedError') return { state: 'failure', error: `the remote refused the push (${e.data?.reason ?? 'rejected'})` }
  return { state: 'failure', error: error instanceof Error ? error.message : String(error) }
}

/**
 * A Git Sync job: `work` runs with the repository opened and the time limit armed; when it throws,
 * the operation (if still the row's) ends as failure or timeout with the reason.
 */
export function gitSyncJob(ref: OperationRef, work: (job: JobContext) => Promise<void>): Job {
  return {
    async run(env) {
      const limit = new AbortController()
      const timer = setTimeout(() => limit.abort(new TimeoutError()), OPERATION_TIMEOUT_MS)
      try {
        const http = createGitHttp({ fetch: env.fetch, allowPrivateNetwork: env.allowPrivateNetwork, remote: ref.remote, signal: limit.signal, maxBytes: MAX_REPOSITORY_BYTES })
        const repo = await GitRepo.open(http, ref.remote.url)
        const stage = (s: OperationFields['stage']) => env.transaction((ctx) => advance(ctx, ref.space, ref.operation, s))
        const done = work({ env, repo, signal: limit.signal, stage })
        // The limit stops the operation even where a fetch ignores its signal.
        await new Promise<void>((resolve, reject) => {
          limit.signal.addEventListener('abort', () => reject(limit.signal.reason), { once: true })
          done.then(resolve, reject)
        })
      } catch (error) {
        throw limit.signal.aborted ? limit.signal.reason : error
      } finally {
        clearTimeout(timer)
      }
    },
    failed(ctx, error) {
      const reason = describeFailure(error)
      fail(ctx, ref.space, ref.operation, { ...reason, error: scrub(reason.error, ref.remote).slice(0, 2000) })
    },
  }
}
