import type { DocBlock, JsonDocument } from '../content/document.js'
import { emptyDocument } from '../content/document.js'
import { leaf, paragraph } from '../content/markdown/nodes.js'
import type { Answerer, AskAnswer, AskPassage } from './answerer.js'

/**
 * The default answerer, with no language model: the answer is the best passages themselves,
 * quoted. Each passage used (at most ANSWERED, and only those scoring at least half the best, so
 * a stray word's match does not pad a good answer) adds its heading, "Page › Section" in bold,
 * and its excerpt, one paragraph per line; each is cited as a source. The answer streams: one
 * event per passage added. A question nothing matched gets an answer saying so, without sources.
 */
export const ANSWERED = 3

export const NO_ANSWER = "I couldn't find anything about this in the content of this site."

const heading = (p: AskPassage) => (p.section.title === p.pageTitle ? p.pageTitle : `${p.pageTitle} › ${p.section.title}`)

function blocksOf(p: AskPassage): DocBlock[] {
  const lines = p.excerpt.split('\n').filter((line) => line.trim() !== '')
  return [paragraph({}, [leaf(heading(p), ['bold'])]), ...lines.map((line) => paragraph({}, [leaf(line)]))]
}

/** The sources of the passages used: one per page, its sections in the order used. */
function sourcesOf(used: readonly AskPassage[]): NonNullable<AskAnswer['sources']> {
  const byPage = new Map<string, { page: string; space: string; sections: string[] }>()
  for (const p of used) {
    const key = `${p.space}/${p.page}`
    const source = byPage.get(key) ?? { page: p.page, space: p.space, sections: [] }
    byPage.set(key, source)
    if (!source.sections.includes(p.section.id)) source.sections.push(p.section.id)
  }
  return [...byPage.values()]
}

export const extractiveAnswerer: Answerer = async function* extractive({ passages }) {
  if (passages.length === 0) {
    yield { markdown: NO_ANSWER, sources: [] }
    return
  }
  const best = passages[0]!.score
  const used = passages.filter((p) => p.score >= best / 2).slice(0, ANSWERED)
  const nodes: DocBlock[] = []
  for (let i = 0; i < used.length; i++) {
    nodes.push(...blocksOf(used[i]!))
    const document: JsonDocument = { ...emptyDocument(), nodes: [...nodes] }
    yield { document, sources: sourcesOf(used.slice(0, i + 1)) }
  }
}
