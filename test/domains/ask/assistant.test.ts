import { describe, expect, it } from 'vitest'
import type { DocsApi } from '../../../src/index.js'
import { ApiError } from '../../../src/index.js'
import { NO_ANSWER } from '../../../src/domains/ask/extractive.js'
import { BASE, expectError } from '../../helpers.js'
import { expectOfficialEventStream, parseEventStream } from '../../conformance/official.js'
import { askWorld } from './helpers.js'

/** The assistant (`streamAIResponseInSite`, docs/behaviour/ask.md): the Ask answerer's answer as official AI response events. */

type Event = { type: string; stepIndex?: number; operation?: 'insert' | 'update'; blocks?: unknown[]; [key: string]: unknown }

function respond(api: DocsApi, token: string | undefined, org: string, site: string, body: unknown) {
  return api.fetch(
    new Request(`${BASE}/v1/orgs/${org}/sites/${site}/ai/response`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
      body: JSON.stringify(body),
    }),
  )
}

async function events(api: DocsApi, token: string, org: string, site: string, body: unknown): Promise<Event[]> {
  const res = await respond(api, token, org, site, body)
  const text = await res.text()
  expect(res.status, text).toBe(200)
  return expectOfficialEventStream('streamAIResponseInSite', text) as Event[]
}

const user = (content: unknown, extra: object = {}) => ({ input: [{ role: 'user', content, ...extra }] })

/** The final answer's document as the renderer builds it from `response_document` events (insert appends, update replaces the last blocks). */
function answerBlocks(list: Event[]): unknown[] {
  const nodes: unknown[] = []
  for (const e of list.filter((e) => e.type === 'response_document' && e.stepIndex === 1)) {
    if (e.operation === 'insert') nodes.push(...e.blocks!)
    else nodes.splice(-e.blocks!.length, e.blocks!.length, ...e.blocks!)
  }
  return nodes
}

const text = (value: unknown) => (JSON.stringify(value).match(/"text":"[^"]*"/g) ?? []).map((t) => t.slice(8, -1))

describe('the assistant', () => {
  it('answers the last user message from the site, its search and the pages it cites in steps the renderer builds', async () => {
    const w = await askWorld()
    const list = await events(w.api, w.tokens.ada, w.org.id, w.site.id, {
      input: [
        { role: 'user', content: 'lantern soup' },
        { role: 'assistant', content: 'An earlier answer.' },
        { role: 'user', content: 'How do I upgrade the lantern?' },
      ],
    })
    expect(list[0]).toEqual({ type: 'response_start', messageId: expect.any(String) })
    expect(new Set(list.map((e) => e.messageId)).size).toBe(1)
    expect(list[2]).toMatchObject({ toolCall: { tool: 'search', query: 'How do I upgrade the lantern?' } })
    const blocks = answerBlocks(list)
    expect(text(blocks)).toEqual(
      expect.arrayContaining(['Install › Upgrading', 'Run the upgrade command to move to a new version of the lantern.', 'Sources', 'Install']),
    )
    expect(JSON.stringify(blocks)).toContain(JSON.stringify({ kind: 'page', page: w.pages.install, space: w.spaces.handbook }))
    expect(list.at(-1)).toMatchObject({ type: 'response_finish', response: { id: expect.any(String) } })
    expect(list.at(-1)!.response).not.toHaveProperty('previous')
  })

  it('reads a question written as a document, and searches the site-space of the page the visitor is on with the default content', async () => {
    const w = await askWorld()
    const seen: unknown[] = []
    const api = w.api.fork({
      ask: (request) => {
        seen.push({ question: request.question, context: request.context, spaces: [...new Set(request.passages.map((p) => p.space))].sort() })
        return { markdown: 'ok' }
      },
    })
    const document = {
      object: 'document',
      data: {},
      nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'lantern', marks: [] }] }] }],
    }
    await events(api, w.tokens.ada, w.org.id, w.site.id, user(document, { context: { location: { spaceId: w.spaces.recipes, pageId: 'any' } } }))
    await events(api, w.tokens.ada, w.org.id, w.site.id, user('lantern'))
    expect(seen).toEqual([
      { question: 'lantern', context: { siteSpaceId: w.siteSpaces.recipes }, spaces: [w.spaces.handbook, w.spaces.recipes, w.spaces.api].sort() },
      { question: 'lantern', context: undefined, spaces: [w.spaces.handbook, w.spaces.api].sort() },
    ])
  })

  it("streams an answer that rewrites itself (`update` of the last blocks), the answerer's follow-up questions, and the previous response's id", async () => {
    const w = await askWorld()
    const api = w.api.fork({
      ask: async function* () {
        yield { markdown: 'First.\n\nSecond.' }
        yield { markdown: 'First.\n\nThird.\n\nFourth.' }
        yield { markdown: 'Only.', followupQuestions: ['And then?'] }
      },
    })
    const list = await events(api, w.tokens.ada, w.org.id, w.site.id, { ...user('lantern'), previousResponseId: 'earlier' })
    const documents = list.filter((e) => e.type === 'response_document').map((e) => ({ operation: e.operation, text: text(e.blocks) }))
    expect(documents).toEqual([
      { operation: 'insert', text: ['First.', 'Second.'] },
      { operation: 'update', text: ['Third.'] },
      { operation: 'insert', text: ['Fourth.'] },
      // Shorter: the client keeps as many blocks, the rest empty.
      { operation: 'update', text: ['Only.', '', ''] },
    ])
    expect(text(answerBlocks(list))).toEqual(['Only.', '', ''])
    expect(list.at(-2)).toEqual({ type: 'response_followup_suggestion', messageId: list[0]!.messageId, suggestions: ['And then?'] })
    expect(list.at(-1)).toMatchObject({ response: { previous: 'earlier' } })
  })

  it('says so without sources when nothing matches; an answerer that fails ends the stream with `event: error`', async () => {
    const w = await askWorld()
    const none = await events(w.api, w.tokens.ada, w.org.id, w.site.id, user('What is the capital of Mars?'))
    expect(none[2]).toMatchObject({ toolCall: { results: [] } })
    expect(text(answerBlocks(none))).toEqual([NO_ANSWER])
    const busy = w.api.fork({
      ask: () => {
        throw new ApiError('TOO_MANY_REQUESTS', 'The model is busy')
      },
    })
    const res = await respond(busy, w.tokens.ada, w.org.id, w.site.id, user('lantern'))
    const sent = parseEventStream(await res.text())
    expect(sent.at(-1)).toEqual({ event: 'error', data: { error: { code: 429, message: 'The model is busy' } } })
    expect(sent.slice(0, -1).map((e) => (e.data as Event).type)).toEqual(['response_start', 'response_step_start', 'response_tool_call', 'response_step_start'])
    // Journaled as any stream: the events as sent.
    expect(busy.journal.last({ operationId: 'streamAIResponseInSite' })).toMatchObject({ status: 200, user: w.users.ada.id })
  })

  it('refuses before the stream, as JSON naming the field: no user message, an empty or too long one, a bad role; nothing changes', async () => {
    const w = await askWorld()
    const before = w.api.dump()
    const bad = async (body: unknown, message: string) => {
      const res = await respond(w.api, w.tokens.ada, w.org.id, w.site.id, body)
      expect(res.headers.get('content-type')).toContain('application/json')
      expectError({ status: res.status, body: await res.json(), headers: res.headers }, 400, message)
    }
    await bad({}, 'body field `input`: is required')
    await bad({ input: [] }, 'body field `input`: must hold a user message')
    await bad({ input: [{ role: 'assistant', content: 'hello' }] }, 'body field `input`: must hold a user message')
    await bad(user('   '), 'body field `input[0].content`: must not be empty')
    await bad(user('q'.repeat(2049)), 'body field `input[0].content`')
    await bad({ input: [{ role: 'robot', content: 'hi' }] }, 'body field `input[0].role`: must be user, assistant or developer')
    await bad({ ...user('hi'), model: 'huge' }, 'body field `model`')
    await bad({ input: Array.from({ length: 101 }, () => ({ role: 'user', content: 'hi' })) }, 'body field `input`: must hold at most 100 messages')
    expect(w.api.dump()).toEqual(before)
    const res = await respond(w.api, w.tokens.olga, w.org.id, w.site.id, user('lantern'))
    expectError({ status: res.status, body: await res.json(), headers: res.headers }, 404, 'Organization not found')
  })

  it('answers a long message from its start, holding the event loop no longer than a short one many times over', async () => {
    const w = await askWorld()
    const time = async (message: string) => {
      const start = performance.now()
      await events(w.api, w.tokens.ada, w.org.id, w.site.id, user(message))
      return performance.now() - start
    }
    await time('lantern') // indexes built
    const short = Math.min(await time('upgrade lantern'), await time('upgrade lantern'))
    const words = Array.from({ length: 400 }, (_, i) => `word${i}`)
      .join(' ')
      .slice(0, 2048)
    const long = Math.min(await time(words), await time(words))
    expect(long / short).toBeLessThan(20)
  })
})
