import type { StreamEvent } from '../../core/stream.js'
import type { DocBlock, DocInline, JsonDocument } from '../content/document.js'
import { leaf, paragraph } from '../content/markdown/nodes.js'
import { answerEvents } from './answer.js'
import type { Answerer, AskPassage, AskRequest } from './answerer.js'
import type { AIStreamEvent } from './assistant-schemas.js'

/** The longest description of a search result (a passage's excerpt, on one line). */
const DESCRIPTION = 240

type DocumentEvent = { type: 'response_document'; messageId: string; stepIndex: number; operation: 'insert' | 'update'; blocks: DocBlock[] }

export interface AssistantIds {
  message: string
  response: string
  /** The response the conversation continues (`previousResponseId`), echoed in `response_finish`. */
  previous?: string | undefined
}

/**
 * The assistant's response (official `AIStreamResponse` events), made from the same answerer as
 * Ask: `response_start`; a first step (`commentary`) holding the search it made, a `search` tool
 * call listing the passages' pages (what GitBook's renderer shows as "Searched for..."); a second
 * step (`final_answer`) whose document grows as the answerer answers (`insert` of the new blocks,
 * `update` of the last ones when an answer rewrites them), then a "Sources" list linking each
 * page cited (content references the renderer resolves to the site's pages); the answer's
 * follow-up questions, if any; `response_finish` with the response's id. Bounded: a fixed number
 * of events besides those of the answer's documents.
 */
export async function* assistantEvents(answerer: Answerer, request: AskRequest, ids: AssistantIds): AsyncGenerator<StreamEvent<AIStreamEvent>> {
  const messageId = ids.message
  // Blocks are official top-level blocks (an answer's document is checked, the sources list is built so).
  const event = (data: AIStreamEvent | DocumentEvent): StreamEvent<AIStreamEvent> => ({ data: data as AIStreamEvent })
  yield event({ type: 'response_start', messageId })
  yield event({ type: 'response_step_start', messageId, stepIndex: 0, phase: 'commentary' })
  yield event({
    type: 'response_tool_call',
    messageId,
    stepIndex: 0,
    toolCall: { tool: 'search', query: request.question, results: request.passages.map(searchResult) },
  })
  yield event({ type: 'response_step_start', messageId, stepIndex: 1, phase: 'final_answer' })
  let sent: DocBlock[] = []
  let sources: Array<{ page: string; space: string }> = []
  let followups: string[] = []
  for await (const { data } of answerEvents(answerer, request, 'document')) {
    const answer = data.answer
    const blocks = answer.answer && 'document' in answer.answer ? (answer.answer.document as JsonDocument).nodes : []
    const { changes, now } = changesOf(sent, blocks)
    for (const change of changes) yield event({ type: 'response_document', messageId, stepIndex: 1, ...change })
    sent = now
    sources = answer.sources
    followups = answer.followupQuestions
  }
  if (sources.length > 0)
    yield event({ type: 'response_document', messageId, stepIndex: 1, operation: 'insert', blocks: sourceBlocks(sources, request.passages) })
  if (followups.length > 0) yield event({ type: 'response_followup_suggestion', messageId, suggestions: followups })
  yield event({ type: 'response_finish', messageId, response: { id: ids.response, ...(ids.previous !== undefined && { previous: ids.previous }) } })
}

/** A passage as the search tool's result: its page, and its section's anchor. */
function searchResult(p: AskPassage) {
  const hash = p.section.id.indexOf('#')
  return {
    type: 'page' as const,
    spaceId: p.space,
    pageId: p.page,
    revisionId: p.revision,
    ...(hash >= 0 && { anchor: p.section.id.slice(hash + 1) }),
    title: p.section.title === p.pageTitle ? p.pageTitle : `${p.pageTitle} › ${p.section.title}`,
    ...(p.excerpt !== '' && { description: p.excerpt.replace(/\s+/g, ' ').slice(0, DESCRIPTION) }),
  }
}

const same = (a: DocBlock, b: DocBlock) => JSON.stringify(a) === JSON.stringify(b)

/**
 * What turns the blocks the client has (`sent`) into `next`: the official events only add
 * blocks (`insert`) or replace the last ones by as many (`update`), so blocks past the common
 * start are replaced, and an answer shorter than the one before keeps empty paragraphs where
 * blocks were (the client has no way to drop them). `now` is what the client then has.
 */
function changesOf(sent: readonly DocBlock[], next: readonly DocBlock[]) {
  let common = 0
  while (common < sent.length && common < next.length && same(sent[common]!, next[common]!)) common++
  const changes: Array<{ operation: 'insert' | 'update'; blocks: DocBlock[] }> = []
  const now = [...next]
  if (common < sent.length) {
    const replacing = next.slice(common, sent.length)
    while (replacing.length < sent.length - common) replacing.push(paragraph({}, []))
    changes.push({ operation: 'update', blocks: replacing })
    now.push(...replacing.slice(next.length - common))
  }
  if (next.length > sent.length) changes.push({ operation: 'insert', blocks: next.slice(sent.length) })
  return { changes, now }
}

/** "Sources" and a list of links to the pages cited (`{kind: page}` references, titled as the pages are). */
function sourceBlocks(sources: ReadonlyArray<{ page: string; space: string }>, passages: readonly AskPassage[]): DocBlock[] {
  const items = sources.map((source): DocBlock => {
    const title = passages.find((p) => p.page === source.page && p.space === source.space)?.pageTitle ?? source.page
    const link: DocInline = {
      object: 'inline',
      type: 'link',
      data: { ref: { kind: 'page', page: source.page, space: source.space } },
      nodes: [{ object: 'text', leaves: [leaf(title)] }],
    }
    return { object: 'block', type: 'list-item', data: {}, nodes: [paragraph({}, [link])] }
  })
  return [paragraph({}, [leaf('Sources', ['bold'])]), { object: 'block', type: 'list-unordered', data: {}, nodes: items }]
}
