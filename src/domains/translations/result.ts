import type { Context } from '../context.js'
import type { SpaceRow } from '../spaces/rows.js'
import type { TranslationRow } from './rows.js'
import { withFileIds } from '../content/copy.js'
import type { JsonDocument } from '../content/document.js'
import { RevisionDraft, type PageData } from '../content/draft.js'
import { mainRevision, pageIn, walkPages } from '../content/revision.js'
import { createSpace } from '../spaces/model.js'
import type { LANGUAGES } from '../spaces/schemas.js'
import { TranslationRunError, type RunOutput, type RunPlan } from './run-plan.js'

/**
 * Where a run's result goes: the translation's result space, made by the first run (and again
 * when it was deleted: a trashed or purged result space is not written into), beside the source,
 * in the same organization. The run writes the source's tree, translated, as one new revision on
 * top of the result space's main (the content model's RevisionDraft: only the pages that differ
 * get a new version). Pages keep the source's page ids, so they are the same across runs and a
 * link between pages still points inside the result; the source's files are copied into the
 * result space once (as duplicating a space does, content/copy.ts) and page bodies point at the
 * copies. The result revision's variables are the source's (copied as they are, like a
 * duplicated space's). Pages the source no longer has leave the result; what was edited by hand in the
 * result space is overwritten where the source's pages are written again.
 */

const IGNORED = new Set(['id', 'createdAt', 'updatedAt'])

/** Whether two versions of a page hold the same thing (timestamps and version ids aside). */
function samePage(a: PageData, b: PageData): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)])
  for (const key of keys) {
    if (IGNORED.has(key)) continue
    const x = (a as unknown as Record<string, unknown>)[key]
    const y = (b as unknown as Record<string, unknown>)[key]
    if (x !== y && JSON.stringify(x) !== JSON.stringify(y)) return false
  }
  return true
}

const sameIds = (a: readonly string[], b: readonly string[]) => a === b || (a.length === b.length && a.every((id, i) => id === b[i]))

function sameVariables(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  if (a === b) return true
  const keys = Object.keys(a)
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && a[k] === b[k])
}

/** The title of a result space: the source's, with the language, within a space title's 50 characters. */
function resultTitle(title: string, language: string): string {
  const suffix = ` (${language})`
  return `${title.slice(0, 50 - suffix.length)}${suffix}`
}

function createResultSpace(ctx: Context, row: TranslationRow): SpaceRow {
  const source = ctx.tx.get('spaces', row.source.space)
  const parent = source?.parent !== undefined && ctx.tx.get('collections', source.parent)?.organization === row.organization ? source.parent : undefined
  return createSpace(ctx, row.organization, {
    title: resultTitle(source?.title ?? 'Translation', row.language),
    language: row.language as (typeof LANGUAGES)[number],
    ...(parent !== undefined && { parent }),
  })
}

/** The result space's copy of each source file (copied once; kept while the result space lives). */
function copyFiles(ctx: Context, row: TranslationRow, space: SpaceRow, files: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {}
  for (const id of files) {
    const known = row.files[id]
    if (known !== undefined && ctx.tx.get('files', known)?.space === space.id) {
      out[id] = known
      continue
    }
    const file = ctx.tx.get('files', id)
    if (file) out[id] = ctx.tx.insert('files', { ...file, id: ctx.newId(), space: space.id, createdAt: ctx.nowIso() }).id
  }
  return out
}

/** The source's reusable contents, translated, into the result (their ids kept: the pages' blocks name them); those the source no longer has leave it. */
function writeReusableContents(
  draft: RevisionDraft,
  space: SpaceRow,
  plan: RunPlan,
  output: RunOutput,
  fileIds: ReadonlyMap<string, string>,
  now: string,
): void {
  const sources = plan.reusableContents
  const inSource = new Set(sources.map((c) => c.reusableContent))
  for (const content of sources) {
    const text = output.reusableTexts.get(content.reusableContent) ?? { title: content.title, document: content.document }
    const title = text.title.slice(0, 100)
    const document = withFileIds(text.document, fileIds) as JsonDocument
    const current = draft.reusableContent(content.reusableContent)
    if (current && current.title === title && JSON.stringify(current.document) === JSON.stringify(document)) continue
    const { id: _version, git: _git, ...fields } = content
    draft.setReusableContent(content.reusableContent, { ...fields, space: space.id, title, document, createdAt: current?.createdAt ?? now, updatedAt: now })
  }
  for (const id of draft.reusableContentIds()) if (!inSource.has(id)) draft.removeReusableContent(id)
}

/** Write a run's result: the result space's new revision (or its main as it is when nothing changed). */
export function writeResult(
  ctx: Context,
  row: TranslationRow,
  plan: RunPlan,
  output: RunOutput,
): Pick<TranslationRow, 'pages' | 'files'> & { space: string; revision: string } {
  const known = row.result && ctx.tx.get('spaces', row.result.space)
  let space: SpaceRow
  if (known && !known.deletedAt && known.organization === row.organization) space = known
  else {
    if (plan.pages.some((p) => p.reuse !== undefined)) throw new TranslationRunError('The result space was deleted during the run: run the translation again')
    space = createResultSpace(ctx, row)
  }
  const files = copyFiles(ctx, row, space, plan.files)
  const fileIds = new Map(Object.entries(files))
  const base = mainRevision(ctx, space)
  const draft = new RevisionDraft(ctx, base)
  const now = ctx.nowIso()
  for (const { version, reuse } of plan.pages) {
    const earlier = reuse === undefined ? undefined : ctx.tx.get('pageVersions', reuse)!
    const text = earlier ?? output.texts.get(version.page)!
    const { id: _version, description: _description, ...fields } = version
    const data: PageData = {
      ...fields,
      space: space.id,
      title: text.title,
      document: earlier ? earlier.document : (withFileIds(text.document, fileIds) as JsonDocument),
      createdAt: now,
      updatedAt: now,
    }
    if (text.description !== undefined) data.description = text.description
    const current = draft.get(version.page)
    if (current && samePage(current, data)) continue
    if (current) data.createdAt = current.createdAt
    draft.set(version.page, data)
  }
  const inSource = new Set(plan.pages.map((p) => p.version.page))
  for (const { page } of walkPages(ctx.tx, base)) if (!inSource.has(page.page)) draft.remove(page.page)
  if (!sameIds(draft.roots, plan.rootPages)) draft.roots = plan.rootPages
  const fileList = plan.files.filter((id) => files[id] !== undefined).map((id) => files[id]!)
  if (!sameIds(draft.files, fileList)) draft.files = fileList
  if (!sameVariables(draft.variables, plan.variables)) draft.variables = plan.variables
  writeReusableContents(draft, space, plan, output, fileIds, now)
  let revision = base
  if (draft.changed) {
    // A space's first (empty) revision is never stored: the first result has no parent then.
    revision = draft.commit({ type: 'edits', parents: ctx.tx.get('revisions', base.id) ? [base.id] : [] })
    space = ctx.tx.update('spaces', { ...ctx.tx.get('spaces', space.id)!, revision: revision.id, updatedAt: now })
  }
  const pages: Record<string, { source: string; result: string }> = {}
  for (const { version } of plan.pages) pages[version.page] = { source: version.id, result: pageIn(ctx.tx, revision, version.page)!.id }
  return { space: space.id, revision: revision.id, pages, files }
}
