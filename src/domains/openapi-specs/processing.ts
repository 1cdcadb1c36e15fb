import type { Context } from '../context.js'
import type { Job, JobEnv } from '../context.js'
import { fetchOutgoing, isFetchTimeout } from '../../core/outgoing.js'
import { ApiError } from '../../core/errors.js'
import type { OpenAPIProcessErrorCode, OpenAPISpecRow, OpenAPISpecSource } from './rows.js'
import { MAX_SPEC_BYTES } from './schemas.js'
import { MAX_ERRORS, processSpecText } from './check.js'
import type { ProcessError } from './read.js'

declare module '../../core/services.js' {
  interface Services {
    /** How OpenAPI specs are processed (the `openapi` option of createDocsApi). */
    openapi?: { fetchTimeoutMs?: number }
  }
}

/** A URL source is fetched within this time unless the `openapi` option says otherwise (at most MAX_SPEC_BYTES). */
export const DEFAULT_FETCH_TIMEOUT_MS = 10_000
type Outcome =
  | { ok: true; text: string; format: 'json' | 'yaml'; sourceURL?: string }
  /** `errors`: the first `MAX_ERRORS` (check.ts keeps no more); `errorCount`: how many there were. */
  | { ok: false; code: OpenAPIProcessErrorCode; errors: ProcessError[]; errorCount: number }

/** The spec this job processes, when the job is still the current one (a newer source supersedes it). */
function current(ctx: Context, specId: string, run: number): OpenAPISpecRow | undefined {
  const row = ctx.tx.get('openapiSpecs', specId)
  return row && row.run === run && row.processingState !== 'complete' ? row : undefined
}

/** The text of a source: as given, or fetched through the API's fetch (guarded: no private address unless allowed). */
async function textOf(env: JobEnv, source: OpenAPISpecSource): Promise<{ text: string; sourceURL?: string } | Outcome> {
  if ('text' in source) return { text: source.text }
  const timeoutMs = env.services.openapi?.fetchTimeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS
  try {
    const got = await fetchOutgoing(env.fetch, source.url, {
      field: 'source.url',
      allowPrivateNetwork: env.allowPrivateNetwork,
      maxBytes: MAX_SPEC_BYTES,
      timeoutMs,
      budget: env.outgoing.budget,
    })
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(got.bytes), sourceURL: source.url }
  } catch (error) {
    if (!ApiError.isApiError(error) && !(error instanceof TypeError)) throw error
    // The guard's messages name the request field (`body field \`source.url\`: ...`); here the reason alone is said.
    const reason = error.message.replace(/^Invalid request: body field `source\.url`: /, '')
    if (isFetchTimeout(error)) return { ok: false, code: 'FETCH_TIMEOUT', errors: [{ message: `Fetching ${source.url} timed out: ${reason}` }], errorCount: 1 }
    if (error instanceof TypeError)
      return { ok: false, code: 'PARSE_ERROR', errors: [{ message: `The document at ${source.url} is not UTF-8 text` }], errorCount: 1 }
    return { ok: false, code: 'FETCH_ERROR', errors: [{ message: `Fetching ${source.url} failed: ${reason}` }], errorCount: 1 }
  }
}

/**
 * Fetch (for a URL source), parse and validate: the outcome to record. The check (check.ts) runs
 * in slices, so a large spec never holds the event loop for long; a past-limit spec (too deep,
 * aliases expanding too far) ends as a PARSE_ERROR saying which limit.
 */
async function processSource(env: JobEnv, source: OpenAPISpecSource): Promise<Outcome> {
  const got = await textOf(env, source)
  if ('ok' in got) return got
  const checked = await processSpecText(got.text, { maxErrors: MAX_ERRORS })
  if (!checked.ok) return { ok: false, code: 'PARSE_ERROR', errors: checked.errors, errorCount: checked.errorCount }
  return { ok: true, text: got.text, format: checked.format, ...(got.sourceURL !== undefined && { sourceURL: got.sourceURL }) }
}

/** Record an outcome on the spec (a new version when it succeeded); nothing when a newer source took over. */
function record(ctx: Context, specId: string, run: number, outcome: Outcome): void {
  const row = current(ctx, specId, run)
  if (!row) return
  const { pendingSource: _done, lastProcessErrorCode: _code, ...rest } = row
  const now = ctx.nowIso()
  if (outcome.ok) {
    const version = ctx.tx.insert('openapiSpecVersions', {
      id: ctx.newId(),
      spec: row.id,
      organization: row.organization,
      createdAt: now,
      text: outcome.text,
      format: outcome.format,
      ...(outcome.sourceURL !== undefined && { sourceURL: outcome.sourceURL }),
    })
    ctx.tx.update('openapiSpecs', {
      ...rest,
      processingState: 'complete',
      lastVersion: version.id,
      lastProcessedAt: now,
      lastProcessedErrors: [],
      lastProcessedErrorCount: 0,
    })
    return
  }
  ctx.tx.update('openapiSpecs', {
    ...rest,
    processingState: 'complete',
    lastProcessedAt: now,
    lastProcessErrorCode: outcome.code,
    lastProcessedErrors: outcome.errors.slice(0, MAX_ERRORS),
    lastProcessedErrorCount: outcome.errorCount,
  })
}

/**
 * The processing job of a spec's source `run`: `pending` → `progress` (in one transaction), then
 * the fetch, parse and validation outside any transaction, then `complete` with a new version or
 * with the error code and errors (in another). A job whose source was replaced meanwhile, or
 * whose spec was deleted, writes nothing. An unexpected throw is recorded on the spec by `failed`.
 */
export function processingJob(specId: string, run: number): Job {
  return {
    async run(env) {
      const source = await env.transaction((ctx) => {
        const row = current(ctx, specId, run)
        if (!row?.pendingSource) return undefined
        if (row.processingState === 'pending') ctx.tx.update('openapiSpecs', { ...row, processingState: 'progress' })
        return row.pendingSource
      })
      if (!source) return
      const outcome = await processSource(env, source)
      await env.transaction((ctx) => record(ctx, specId, run, outcome))
    },
    failed(ctx, error) {
      const message = error instanceof Error ? error.message : String(error)
      record(ctx, specId, run, {
        ok: false,
        code: 'PARSE_ERROR',
        errors: [{ message: `Processing failed unexpectedly: ${message}`, code: 'INTERNAL' }],
        errorCount: 1,
      })
    },
  }
}

/** Start processing a spec's pending source once the current transaction commits. */
export function deferProcessing(ctx: Context, row: OpenAPISpecRow): void {
  ctx.defer(`openapi-spec:${row.id}`, processingJob(row.id, row.run))
}
