import type { DocBlock, DocInline, DocLeaf, DocText, JsonDocument, JsonObject } from '../content/document.js'
import { mapObjects } from '../content/map-json.js'
import type { PageVersionRow } from '../content/rows.js'
import { blockDataTexts, inlineDataTexts, type DataText } from './data-texts.js'
import type { TranslateContext, Translator } from './translator.js'

/**
 * A page through the translator: its title, its description, each text block of its body and
 * each text its blocks hold in their data (column titles, alt texts, captions: data-texts.ts),
 * one call each (see translator.ts for the contract). What is not prose stays as written: code
 * blocks, runs marked as inline code, formulas, URLs and every other data field. Words are
 * counted in what is sent, with the source language's word boundaries (`Intl.Segmenter`).
 */

/** The prose of a page a translator changes. */
export interface PageText {
  title: string
  description?: string
  document: JsonDocument
}

/** What is sent, in reading order: a text block's runs (a run marked as code is kept out), or a text held in data. */
type TextUnit = { leaves: DocLeaf[] } | { data: DataText }

const isCode = (leaf: DocLeaf) => leaf.marks.some((m) => m.type === 'code')

/** The text units of a document, depth first: each block's data texts, then the runs it sends. */
function textUnits(doc: JsonDocument): TextUnit[] {
  const out: TextUnit[] = []
  const visitBlock = (block: DocBlock): void => {
    if (block.type === 'code') return
    for (const data of blockDataTexts(block)) out.push({ data })
    const leaves: DocLeaf[] = []
    for (const node of block.nodes ?? []) {
      if (node.object === 'block') visitBlock(node)
      else visitInline(node, leaves)
    }
    if (leaves.some((l) => l.text.trim() !== '')) out.push({ leaves })
    for (const fragment of block.fragments ?? []) fragment.nodes.forEach(visitBlock)
  }
  const visitInline = (node: DocInline | DocText, leaves: DocLeaf[]): void => {
    if (node.object === 'text') {
      for (const leaf of node.leaves) if (!isCode(leaf)) leaves.push(leaf)
      return
    }
    for (const data of inlineDataTexts(node)) out.push({ data })
    for (const child of node.nodes ?? []) visitInline(child, leaves)
    // An annotation's body is blocks of its own.
    for (const fragment of (node as { fragments?: Array<{ nodes: DocBlock[] }> }).fragments ?? []) fragment.nodes.forEach(visitBlock)
  }
  doc.nodes.forEach(visitBlock)
  return out
}

const escapeTagged = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;')
const unescapeTagged = (s: string) => s.replace(/&lt;/gi, '<').replace(/&amp;/gi, '&')
const TAG = /<(\d+)>([\s\S]*?)<\/\1>/g

/** The runs of a tagged answer, or undefined when a tag is missing, repeated or unknown, or text sits outside the tags. */
function untag(answer: string, n: number): string[] | undefined {
  const runs: Array<string | undefined> = Array.from({ length: n }, () => undefined)
  for (const m of answer.matchAll(TAG)) {
    const i = Number(m[1]) - 1
    if (!(i >= 0 && i < n) || runs[i] !== undefined) return undefined
    runs[i] = unescapeTagged(m[2]!)
  }
  if (runs.some((r) => r === undefined) || answer.replace(TAG, '').trim() !== '') return undefined
  return runs as string[]
}

/** The translated run in the original's surrounding whitespace (translators tend to trim). */
function keepSpacing(original: string, translated: string): string {
  const lead = /^\s*/.exec(original)![0]
  const trail = original.trim() === '' ? '' : /\s*$/.exec(original)![0]
  return `${lead}${translated.trim()}${trail}`
}

const segmenters = new Map<string, Intl.Segmenter>()

/** Words in a text, by the language's word boundaries (Intl.Segmenter: CJK text counts words, not characters). */
export function countWords(text: string, language: string): number {
  let segmenter = segmenters.get(language)
  if (!segmenter) {
    segmenter = new Intl.Segmenter(Intl.Segmenter.supportedLocalesOf([language]).length > 0 ? language : 'en', { granularity: 'word' })
    segmenters.set(language, segmenter)
  }
  let n = 0
  for (const s of segmenter.segment(text)) if (s.isWordLike) n++
  return n
}

/** One call of the translator, checked: a string comes back, or the run fails saying where. */
async function call(translate: Translator, text: string, context: TranslateContext, where: string): Promise<string> {
  const answer: unknown = await translate(text, context)
  if (typeof answer !== 'string') throw new Error(`The translator answered ${answer === null ? 'null' : typeof answer} for ${where}: it must answer a string`)
  return answer
}

/**
 * A document with some objects' fields replaced (a leaf's `text`, a column's `title`...): only
 * the objects on the way to a change are copied.
 */
function withFields(value: unknown, fields: ReadonlyMap<object, JsonObject>): unknown {
  return mapObjects(value, (obj, children) => {
    const next = children(obj)
    const set = fields.get(obj)
    return set ? { ...next, ...set } : next
  })
}

/** Translate a page's prose. Returns the translated text and the number of words sent. */
export async function translatePage(
  page: PageVersionRow,
  translate: Translator,
  base: Omit<TranslateContext, 'kind' | 'tagged'>,
): Promise<{ text: PageText; words: number }> {
  const where = (what: string) => `${what} of page "${page.title}" (${page.page})`
  let words = countWords(page.title, base.from)
  const title = (await call(translate, page.title, { ...base, kind: 'title', tagged: false }, where('the title'))).trim() || page.title
  const text: PageText = { title, document: page.document }
  if (page.description !== undefined) {
    if (page.description.trim() === '') text.description = page.description
    else {
      words += countWords(page.description, base.from)
      text.description = keepSpacing(
        page.description,
        await call(translate, page.description, { ...base, kind: 'description', tagged: false }, where('the description')),
      )
    }
  }
  const fields = new Map<object, JsonObject>()
  let b = 0
  for (const unit of textUnits(page.document)) {
    if ('data' in unit) {
      const { holder, key, text: original, what, pin } = unit.data
      words += countWords(original, base.from)
      const answer = await call(translate, original, { ...base, kind: 'label', tagged: false }, where(what))
      fields.set(holder, { ...fields.get(holder), ...pin, [key]: keepSpacing(original, answer) || original })
      continue
    }
    const { leaves } = unit
    words += countWords(leaves.map((l) => l.text).join(''), base.from)
    const at = where(`text block ${++b}`)
    if (leaves.length === 1) {
      fields.set(leaves[0]!, { text: keepSpacing(leaves[0]!.text, await call(translate, leaves[0]!.text, { ...base, kind: 'block', tagged: false }, at)) })
      continue
    }
    const tagged = leaves.map((l, i) => `<${i + 1}>${escapeTagged(l.text)}</${i + 1}>`).join('')
    let runs = untag(await call(translate, tagged, { ...base, kind: 'block', tagged: true }, at), leaves.length)
    if (!runs) {
      // The tags did not come back whole: the runs one by one, each on its own.
      runs = []
      for (const leaf of leaves)
        runs.push(leaf.text.trim() === '' ? leaf.text : await call(translate, leaf.text, { ...base, kind: 'block', tagged: false }, at))
    }
    leaves.forEach((leaf, i) => fields.set(leaf, { text: keepSpacing(leaf.text, runs[i]!) }))
  }
  if (fields.size > 0) text.document = withFields(page.document, fields) as JsonDocument
  return { text, words }
}

/** A page's prose as it is (the run without a translator: copied, nothing counted as translated). */
export function keepPage(page: PageVersionRow): PageText {
  const text: PageText = { title: page.title, document: page.document }
  if (page.description !== undefined) text.description = page.description
  return text
}
