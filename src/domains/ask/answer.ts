import { ApiError } from '../../core/errors.js'
import type { StreamEvent } from '../../core/stream.js'
import type { JsonDocument } from '../content/document.js'
import { documentToMarkdown, markdownToDocument } from '../content/markdown.js'
import { loadMarkdown } from '../content/markdown-libs.js'
import { JsonDocumentSchema } from '../content/schemas.js'
import type { Answerer, AskAnswer, AskPassage, AskRequest } from './answerer.js'
import type { AnswerStreamEvent } from './schemas.js'

/**
 * The events of an answer: whatever the answerer gives (once, or as it goes), each as one
 * official `SearchAIAnswerStream` event, in the form asked for (`format`), with its sources
 * checked against the passages: an answer cites only content the site publishes now.
 */
export async function* answerEvents(answerer: Answerer, request: AskRequest, format: 'document' | 'markdown'): AsyncGenerator<StreamEvent<AnswerStreamEvent>> {
  // The answer's text is converted with unified and remark, loaded on first use.
  await loadMarkdown()
  const produced = answerer(request)
  if (isAsyncIterable(produced)) {
    for await (const answer of produced) yield eventOf(answer, request.passages, format)
  } else yield eventOf(await produced, request.passages, format)
}

function isAsyncIterable(value: unknown): value is AsyncIterable<AskAnswer> {
  return typeof value === 'object' && value !== null && typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function'
}

function eventOf(answer: AskAnswer, passages: readonly AskPassage[], format: 'document' | 'markdown'): StreamEvent<AnswerStreamEvent> {
  const text = textOf(answer, format)
  return {
    data: {
      type: 'answer',
      answer: {
        ...(text && { answer: text }),
        followupQuestions: [...(answer.followupQuestions ?? [])].filter((q) => typeof q === 'string'),
        sources: checkedSources(answer, passages),
      },
    },
  }
}

/** The answer's text in the form asked for; a document from a plugged answerer must be a valid one. */
function textOf(answer: AskAnswer, format: 'document' | 'markdown'): { markdown: string } | { document: JsonDocument } | undefined {
  if (answer.document !== undefined) {
    const checked = JsonDocumentSchema.safeParse(answer.document)
    if (!checked.success)
      throw new ApiError('INTERNAL', `The answerer gave a document the official schema refuses: ${checked.error.issues[0]?.message ?? 'invalid'}`)
    return format === 'document' ? { document: answer.document } : { markdown: documentToMarkdown(answer.document) }
  }
  if (typeof answer.markdown !== 'string') return undefined
  // An answerer's markdown is no request: a link to a `javascript:` URL keeps its text, loses its target.
  return format === 'markdown'
    ? { markdown: answer.markdown }
    : { document: markdownToDocument(answer.markdown, { frontmatter: false, takeTitle: false, unsafeLinks: 'drop' }).document }
}

/**
 * The answer's sources as official page sources: only pages among the passages (the same space
 * when it names one), each once, with the sections it names that are passages of that page (all
 * of them when it names none). Revision and space come from the passages, never the answerer.
 */
function checkedSources(answer: AskAnswer, passages: readonly AskPassage[]) {
  const out: Array<{ type: 'page'; page: string; revision: string; space: string; sections: string[]; reason?: string }> = []
  for (const source of answer.sources ?? []) {
    const of = passages.filter((p) => p.page === source.page && (source.space === undefined || p.space === source.space))
    if (of.length === 0 || out.some((s) => s.page === source.page && s.space === of[0]!.space)) continue
    const known = of.filter((p) => p.space === of[0]!.space).map((p) => p.section.id)
    const sections = source.sections === undefined ? known : known.filter((id) => source.sections!.includes(id))
    out.push({
      type: 'page',
      page: source.page,
      revision: of[0]!.revision,
      space: of[0]!.space,
      sections: [...new Set(sections)],
      ...(typeof source.reason === 'string' && { reason: source.reason }),
    })
  }
  return out
}
