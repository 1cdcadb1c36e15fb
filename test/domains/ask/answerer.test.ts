import { describe, expect, it } from 'vitest'
import { ApiError, type AskRequest } from '../../../src/index.js'
import { call } from '../../helpers.js'
import { answerText, ask, askError, askEvents, askWorld } from './helpers.js'

const all = { mode: 'all' } as const

describe('ask: a plugged-in answerer (createDocsApi({ ask }))', () => {
  it('gets the question, the site, the context and the passages of the site, and may answer at once', async () => {
    const w = await askWorld()
    const seen: AskRequest[] = []
    const api = w.api.fork({
      ask: (request) => {
        seen.push(request)
        const [first] = request.passages
        return {
          markdown: `You asked: ${request.question}`,
          followupQuestions: ['And then?'],
          sources: [
            { page: first!.page, sections: [first!.section.id, 'not-a-section'], reason: 'It says so' },
            { page: 'made-up-page' },
            { page: first!.page, space: 'another-space' },
          ],
        }
      },
    })
    const events = await askEvents(
      api,
      w.tokens.ada,
      w.org.id,
      w.site.id,
      { question: 'upgrade command', scope: all, context: { goal: 'Upgrade' } },
      '?format=markdown',
    )
    expect(events).toHaveLength(1)
    const [request] = seen
    expect(request).toMatchObject({ question: 'upgrade command', site: { id: w.site.id, organization: w.org.id, title: 'Docs' }, context: { goal: 'Upgrade' } })
    const current = (await call(api, w.tokens.ada, 'GET', `/v1/spaces/${w.spaces.handbook}/content`)).body.id
    expect(request!.passages[0]).toMatchObject({
      space: w.spaces.handbook,
      siteSpace: w.siteSpaces.handbook,
      revision: current,
      page: w.pages.install,
      pageTitle: 'Install',
      path: 'install',
      url: `http://localhost:4000/app/s/${w.spaces.handbook}/install#upgrading`,
      section: { id: `${w.pages.install}#upgrading`, title: 'Upgrading', text: 'Run the upgrade command to move to a new version of the lantern.' },
    })
    // Sources are kept only for pages among the passages, with their passage sections; the rest is dropped.
    expect(events[0]!.answer).toEqual({
      answer: { markdown: 'You asked: upgrade command' },
      followupQuestions: ['And then?'],
      sources: [
        { type: 'page', page: w.pages.install, revision: current, space: w.spaces.handbook, sections: [`${w.pages.install}#upgrading`], reason: 'It says so' },
      ],
    })
    // The document form is made from the markdown.
    const doc = await askEvents(api, w.tokens.ada, w.org.id, w.site.id, { question: 'upgrade command', scope: all })
    expect(answerText(doc[0]!)).toBe('You asked: upgrade command')
  })

  it('may answer later (a promise) or as it goes (an async iterable: one event each)', async () => {
    const w = await askWorld()
    const later = w.api.fork({ ask: async ({ question }) => ({ markdown: `Later: ${question}` }) })
    expect(answerText((await askEvents(later, w.tokens.ada, w.org.id, w.site.id, { question: 'lantern', scope: all }, '?format=markdown'))[0]!)).toBe(
      'Later: lantern',
    )
    const stepwise = w.api.fork({
      ask: async function* () {
        yield { markdown: 'One' }
        await new Promise((done) => setTimeout(done, 5))
        yield { markdown: 'One two' }
      },
    })
    const events = await askEvents(stepwise, w.tokens.ada, w.org.id, w.site.id, { question: 'lantern', scope: all }, '?format=markdown')
    expect(events.map(answerText)).toEqual(['One', 'One two'])
  })

  it('ends the stream with an error event when the answerer fails (its ApiError as it is, anything else a logged 500)', async () => {
    const w = await askWorld()
    const errors: unknown[] = []
    const failing = w.api.fork({
      onError: (error) => errors.push(error),
      ask: async function* ({ question }) {
        yield { markdown: 'Thinking' }
        if (question === 'busy') throw new ApiError('TOO_MANY_REQUESTS', 'The model is busy')
        throw new Error('model crashed')
      },
    })
    const crashed = await askError(failing, w.tokens.ada, w.org.id, w.site.id, { question: 'lantern', scope: all })
    expect(crashed.before).toHaveLength(1)
    expect(crashed.error).toEqual({ error: { code: 500, message: 'Internal server error' } })
    expect(errors).toHaveLength(1)
    const busy = await askError(failing, w.tokens.ada, w.org.id, w.site.id, { question: 'busy', scope: all })
    expect(busy.error).toEqual({ error: { code: 429, message: 'The model is busy' } })
    expect(errors).toHaveLength(1)
    // A document the official schema refuses is not sent.
    const invalid = w.api.fork({
      onError: () => {},
      ask: () => ({ document: { object: 'document', data: {}, nodes: [{ object: 'block', type: 'no-such-block' }] } as never }),
    })
    const refused = await askError(invalid, w.tokens.ada, w.org.id, w.site.id, { question: 'lantern', scope: all })
    expect(refused.before).toEqual([])
    expect(refused.error.error.message).toContain('The answerer gave a document the official schema refuses')
  })

  it('produces events as the client reads them: a client that stops reading stops the answerer (and the journal keeps what was sent)', async () => {
    const w = await askWorld()
    const produced: string[] = []
    let closed = false
    const api = w.api.fork({
      ask: async function* () {
        try {
          for (const word of ['One', 'Two', 'Three']) {
            produced.push(word)
            yield { markdown: word }
          }
        } finally {
          closed = true
        }
      },
    })
    const res = await ask(api, w.tokens.ada, w.org.id, w.site.id, { question: 'lantern', scope: all }, '?format=markdown')
    expect(produced).toEqual([]) // nothing runs before the body is read
    const reader = res.body!.getReader()
    const first = new TextDecoder().decode((await reader.read()).value)
    expect(first).toBe('data: {"type":"answer","answer":{"answer":{"markdown":"One"},"followupQuestions":[],"sources":[]}}\n\n')
    await reader.cancel()
    expect(closed).toBe(true)
    expect(produced).toEqual(['One'])
    expect(api.journal.last({ operationId: 'streamAskInSite' })!.responseBody).toBe(first)
  })

  it('is declared as a text/event-stream of SearchAIAnswerStream in the OpenAPI document', async () => {
    const w = await askWorld()
    const { createOpenApiDocument } = await import('../../../src/index.js')
    const doc = createOpenApiDocument(w.api.operations) as unknown as {
      paths: Record<string, Record<string, { responses: Record<string, { content: Record<string, unknown> }> }>>
    }
    const ok = doc.paths['/v1/orgs/{organizationId}/sites/{siteId}/ask']!.post!.responses['200']!.content
    expect(Object.keys(ok)).toEqual(['text/event-stream'])
    expect(ok['text/event-stream']).toEqual({ schema: { $ref: '#/components/schemas/SearchAIAnswerStream' } })
  })
})
