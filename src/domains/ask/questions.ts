import type { ReadContext as Context } from '../context.js'
import type { DocBlock } from '../content/document.js'
import { blockText } from '../content/markdown.js'
import { nodeText } from '../content/markdown/nodes.js'
import { findRevision, walkPages } from '../content/revision.js'
import type { PageVersionRow, RevisionRow } from '../content/rows.js'
import { rememberBounded } from '../../core/bounded-map.js'

/** Recommended questions answered at most (the official list has no limit: a panel shows a handful). */
export const MAX_QUESTIONS = 10
/** A question longer than this is no question a visitor would pick (and Ask takes 512 characters). */
const MAX_LENGTH = 200

const FAQ = /\b(faqs?|frequently asked questions)\b/i
const HEADINGS: Record<string, number> = { 'heading-1': 1, 'heading-2': 2, 'heading-3': 3 }

/** The questions of one page, those of its FAQ parts apart: both in document order. */
interface PageQuestions {
  faq: string[]
  other: string[]
}

const asQuestion = (text: string): string | undefined => {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.endsWith('?') && line.length > 1 && line.length <= MAX_LENGTH ? line : undefined
}

/** An expandable's title (the usual shape of an FAQ entry), if it has one. */
function expandableTitle(block: DocBlock): string | undefined {
  const title = block.fragments?.find((f) => f.fragment === 'expandable-title')
  return title ? title.nodes.map((n) => nodeText(n)).join(' ') : undefined
}

/**
 * What was worked out, per API (its services) and by row id: versions and revisions are immutable,
 * so an id names the same content for good, and ids (not row objects) survive a store that reads
 * rows anew (SQLite's row cache lets large rows go). Bounded: the oldest entries go first.
 */
const MAX_PAGES = 50_000
const MAX_REVISIONS = 256
const caches = new WeakMap<object, { pages: Map<string, PageQuestions>; revisions: Map<string, PageQuestions> }>()

function cachesOf(ctx: Context) {
  let found = caches.get(ctx.services)
  if (!found) caches.set(ctx.services, (found = { pages: new Map(), revisions: new Map() }))
  return found
}

/**
 * The questions a page asks: its title and its headings ending in `?`, and expandables whose
 * title does; in an FAQ part (a page titled FAQ, or under a heading titled FAQ until a heading
 * of its level or above) a paragraph ending in `?` too. Versions are immutable: each is read once.
 */
function questionsOfPage(cache: Map<string, PageQuestions>, page: PageVersionRow): PageQuestions {
  let found = cache.get(page.id)
  if (found) return found
  found = { faq: [], other: [] }
  const pageIsFaq = FAQ.test(page.title)
  const title = asQuestion(page.title)
  if (title) (pageIsFaq ? found.faq : found.other).push(title)
  let faqLevel: number | undefined
  for (const block of page.document.nodes) {
    const level = HEADINGS[block.type]
    if (level !== undefined && faqLevel !== undefined && level <= faqLevel) faqLevel = undefined
    const inFaq = pageIsFaq || faqLevel !== undefined
    let question: string | undefined
    if (level !== undefined) {
      const text = blockText(block)
      question = asQuestion(text)
      if (!question && faqLevel === undefined && FAQ.test(text)) faqLevel = level
    } else if (block.type === 'expandable') question = asQuestion(expandableTitle(block) ?? '')
    else if (inFaq && block.type === 'paragraph') question = asQuestion(blockText(block))
    if (question) (inFaq ? found.faq : found.other).push(question)
  }
  rememberBounded(cache, page.id, found, MAX_PAGES)
  return found
}

/** Whether a page's questions are recommended: documents every visitor is shown (not hidden, not `noIndex`, which search leaves out too, not shown on a condition). */
const asked = (page: PageVersionRow) => page.type === 'document' && page.hidden !== true && page.noIndex !== true && page.condition === undefined

/** The questions of a revision, in page order, from the pages `asked` keeps. */
function questionsOfRevision(ctx: Context, rev: RevisionRow): PageQuestions {
  const { pages, revisions } = cachesOf(ctx)
  let found = revisions.get(rev.id)
  if (found) return found
  found = { faq: [], other: [] }
  for (const { page } of walkPages(ctx.tx, rev)) {
    if (!asked(page)) continue
    const of = questionsOfPage(pages, page)
    found.faq.push(...of.faq)
    found.other.push(...of.other)
  }
  rememberBounded(revisions, rev.id, found, MAX_REVISIONS)
  return found
}

/** The current revision of a space, if it has one. */
const currentRevision = (tx: Context['tx'], id: string): RevisionRow | undefined => {
  const space = tx.get('spaces', id)
  return space && findRevision(tx, space, space.revision)
}

/**
 * Reading the questions of revisions never read before is a walk of every page's document: at
 * 10,000 pages, well over the 100 ms a request may hold the event loop. So a request finding one
 * warms up first (core/warmup.ts): outside its transaction, each revision's pages are listed in a
 * read of their own (the walk alone is a few tens of ms at that size) and their questions worked
 * out in slices (page versions are immutable: the cache by version stays right); the request then
 * runs again and finds them cached.
 */
function warmQuestions(ctx: Context, spaceIds: readonly string[]): void {
  const cold = spaceIds.filter((id) => {
    const rev = currentRevision(ctx.tx, id)
    return rev !== undefined && !cachesOf(ctx).revisions.has(rev.id)
  })
  if (cold.length === 0) return
  const { pages: cache, revisions } = cachesOf(ctx)
  ctx.beforehand(async ({ read, slicer }) => {
    for (const id of cold) {
      const pages = read((tx) => {
        const rev = currentRevision(tx, id)
        return rev === undefined || revisions.has(rev.id) ? [] : [...walkPages(tx, rev)].map((e) => e.page)
      })
      for (const page of pages) {
        if (asked(page)) questionsOfPage(cache, page)
        if (slicer.due()) await slicer.maybeYield()
      }
    }
  })
}

/**
 * The recommended questions of spaces' current content, in the order given: those of FAQ parts
 * first, then the other questions, each in space, page and document order; each once (case and
 * spacing aside), at most MAX_QUESTIONS. Deterministic: the same content asks the same questions.
 */
export function recommendedQuestions(ctx: Context, spaceIds: readonly string[]): string[] {
  const ids = [...new Set(spaceIds)]
  warmQuestions(ctx, ids)
  const all: PageQuestions[] = []
  for (const id of ids) {
    const rev = currentRevision(ctx.tx, id)
    if (rev) all.push(questionsOfRevision(ctx, rev))
  }
  const out: string[] = []
  const seen = new Set<string>()
  for (const question of [...all.flatMap((q) => q.faq), ...all.flatMap((q) => q.other)]) {
    const key = question.toLowerCase()
    if (seen.has(key)) continue
    seen.add(key)
    out.push(question)
    if (out.length === MAX_QUESTIONS) break
  }
  return out
}
