import type { Context } from '../context.js'
import type { Job, JobEnv } from '../context.js'
import type { PageVersionRow } from '../content/rows.js'
import type { TranslationRow } from './rows.js'
import { documentToMarkdown } from '../content/markdown.js'
import { loadMarkdown } from '../content/markdown-libs.js'
import { mainRevision, walkPages } from '../content/revision.js'
import { listReusableContents } from '../content/reusable.js'
import { keepPage, translatePage } from './translate-document.js'
import { writeResult } from './result.js'
import { TranslationRunError, type RunOutput, type RunPlan } from './run-plan.js'

/**
 * A translation run, a background job in three steps:
 * 1. start (a transaction): the run takes the translation (`running`) and plans from the source's
 *    current main revision which pages to translate: new pages, and pages whose title,
 *    description or body changed since the run that translated them (all of them after a change
 *    of instructions); the others reuse their earlier translation;
 * 2. translate (no transaction open: the translator may be slow and asynchronous);
 * 3. finish (a transaction): the result written as a new revision of the result space (result.ts),
 *    the statistics and `completed`.
 * The run holds the translation's `runToken`: a run requested meanwhile takes it over, and this
 * one then writes nothing, neither its result nor its failure (the newer run, on the source as it
 * is by then, does the work and owns `status`). A throw anywhere is recorded by `failed` on the
 * translation.
 */

const sameText = (a: PageVersionRow, b: PageVersionRow) =>
  a.title === b.title && a.description === b.description && (a.document === b.document || JSON.stringify(a.document) === JSON.stringify(b.document))

/** Step 1. Undefined when there is nothing to do (the translation is gone, or a newer run took it). */
export function startRun(ctx: Context, id: string, token: string): RunPlan | undefined {
  const row = ctx.tx.get('translations', id)
  if (!row || row.runToken !== token) return undefined
  const source = ctx.tx.get('spaces', row.source.space)
  if (!source || source.deletedAt || source.organization !== row.organization) {
    throw new TranslationRunError(`The source space "${row.source.space}" is no longer a live space of this organization`)
  }
  const now = ctx.nowIso()
  ctx.tx.update('translations', { ...row, status: 'running', runStartedAt: now, updatedAt: now })
  const result = row.result && ctx.tx.get('spaces', row.result.space)
  // Earlier translations are reused only while their result space lives (their file references point into it).
  const reusable = !!result && !result.deletedAt && result.organization === row.organization
  const rev = mainRevision(ctx, source)
  const pages = walkPages(ctx.tx, rev).map(({ page }) => {
    const known = reusable ? row.pages[page.page] : undefined
    const before = known && ctx.tx.get('pageVersions', known.source)
    return before && ctx.tx.get('pageVersions', known.result) && sameText(before, page) ? { version: page, reuse: known.result } : { version: page }
  })
  return {
    startedAt: now,
    from: row.source.language,
    to: row.language,
    instructions: row.instructions.nodes.length === 0 ? '' : documentToMarkdown(row.instructions).trim(),
    rootPages: rev.rootPages,
    files: rev.files,
    variables: rev.variables,
    pages,
    reusableContents: listReusableContents(ctx.tx, rev),
  }
}

/** Step 2: each page to translate through the translator, one after another (a translator may be rate limited). */
export async function translatePlan(env: JobEnv, plan: RunPlan): Promise<RunOutput> {
  const translate = env.services.translate
  const out: RunOutput = { texts: new Map(), reusableTexts: new Map(), words: 0, translated: translate !== undefined }
  for (const { version, reuse } of plan.pages) {
    if (reuse !== undefined) continue
    if (!translate) {
      out.texts.set(version.page, keepPage(version))
      continue
    }
    const { text, words } = await translatePage(version, translate, { from: plan.from, to: plan.to, instructions: plan.instructions })
    out.texts.set(version.page, text)
    out.words += words
  }
  // A reusable content is translated as a page is (its title and body).
  for (const content of plan.reusableContents) {
    const asPage = { ...content, page: content.reusableContent } as unknown as PageVersionRow
    if (!translate) {
      out.reusableTexts.set(content.reusableContent, keepPage(asPage))
      continue
    }
    const { text, words } = await translatePage(asPage, translate, { from: plan.from, to: plan.to, instructions: plan.instructions })
    out.reusableTexts.set(content.reusableContent, text)
    out.words += words
  }
  return out
}

/** Step 3: the result and the statistics (nothing when the translation was deleted or a newer run took over). */
export function finishRun(ctx: Context, id: string, token: string, plan: RunPlan, output: RunOutput): void {
  const row = ctx.tx.get('translations', id)
  if (!row || row.runToken !== token) return
  const written = writeResult(ctx, row, plan, output)
  const now = ctx.nowIso()
  const duration = Math.max(0, Math.round((Date.parse(now) - Date.parse(plan.startedAt)) / 1000))
  const fresh = output.translated ? [...output.texts.keys()] : []
  const translatedPages = [...new Set([...row.translatedPages, ...fresh])]
  const next: TranslationRow = {
    ...row,
    status: 'completed',
    result: { space: written.space, revision: written.revision, language: row.language },
    pages: written.pages,
    files: written.files,
    translatedPages,
    stats: {
      runs: row.stats.runs + 1,
      totalWords: row.stats.totalWords + (output.translated ? output.words : 0),
      totalPages: translatedPages.length,
      totalDuration: row.stats.totalDuration + duration,
      latestRunDuration: duration,
      latestPages: fresh.length,
      latestWords: output.translated ? output.words : 0,
    },
    updatedAt: now,
  }
  delete next.runStartedAt
  delete next.lastRunError
  ctx.tx.update('translations', next)
}

/** Record a failed run on the translation: `lastRunError`, and `completed` (unless a newer run took over). */
export function recordFailure(ctx: Context, id: string, token: string, error: unknown): void {
  const row = ctx.tx.get('translations', id)
  if (!row || row.runToken !== token) return
  const now = ctx.nowIso()
  const message = error instanceof Error ? error.message : String(error)
  const next: TranslationRow = { ...row, status: 'completed', lastRunError: { message: message || 'The run failed', at: now }, updatedAt: now }
  delete next.runStartedAt
  ctx.tx.update('translations', next)
}

/** The job of one run. */
export function runJob(id: string, token: string): Job {
  return {
    async run(env) {
      // The instructions are written as markdown (unified and remark, loaded on first use).
      await loadMarkdown()
      const plan = await env.transaction((ctx) => startRun(ctx, id, token))
      if (!plan) return
      const output = await translatePlan(env, plan)
      await env.transaction((ctx) => finishRun(ctx, id, token, plan, output))
    },
    failed: (ctx, error) => recordFailure(ctx, id, token, error),
  }
}

/** Ask for a run: a new token (a run under way is superseded), `pending`, and the job. */
export function requestRun(ctx: Context, row: TranslationRow): TranslationRow {
  const token = ctx.newId()
  const next = ctx.tx.update('translations', { ...row, runToken: token, status: 'pending', updatedAt: ctx.nowIso() })
  ctx.defer(`translation-run:${row.id}`, runJob(row.id, token))
  return next
}
