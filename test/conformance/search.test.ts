import { GitBookAPI, GitBookAPIError } from '@gitbook/api'
import { describe, expect, it } from 'vitest'
import { ApiError } from '../../src/index.js'
import { askWorld } from '../domains/ask/helpers.js'
import { expectOfficialResponse, expectOfficialSchema } from './official.js'

/**
 * Search and Ask through the official client (`@gitbook/api`, `serviceBinding` to `api.fetch`):
 * each answer checked against the official schema of its operation, the Ask stream read by the
 * client's own event-stream reader.
 */
describe('conformance: search and Ask through @gitbook/api', () => {
  it('searchSpaceContent and searchOrganizationContent, with paging', async () => {
    const w = await askWorld()
    const gb = w.client(w.tokens.ada)
    const space = await gb.spaces.searchSpaceContent(w.spaces.handbook, { query: 'lantern', limit: 1 })
    expect(space.status).toBe(200)
    expectOfficialResponse('searchSpaceContent', 200, space.data)
    expect(space.data.count).toBe(2)
    const second = await gb.spaces.searchSpaceContent(w.spaces.handbook, { query: 'lantern', limit: 1, page: space.data.next!.page })
    expectOfficialResponse('searchSpaceContent', 200, second.data)
    expect([space.data.items[0]!.rank, second.data.items[0]!.rank]).toEqual([1, 2])
    expect(second.data.next).toBeUndefined()

    const org = await gb.orgs.searchOrganizationContent(w.org.id, { query: 'lantern' })
    expectOfficialResponse('searchOrganizationContent', 200, org.data)
    expect(org.data.items.map((s) => s.title).sort()).toEqual(['Api', 'Handbook', 'Private notes', 'Recipes'])

    await expect(gb.spaces.searchSpaceContent(w.spaces.handbook, { query: 'q'.repeat(513) })).rejects.toSatisfy(
      (e) => e instanceof GitBookAPIError && e.code === 400,
    )
    await expect(w.client(w.tokens.olga).orgs.searchOrganizationContent(w.org.id, { query: 'lantern' })).rejects.toSatisfy(
      (e) => e instanceof GitBookAPIError && e.code === 404,
    )
  })

  it('streamAskInSite: the official client reads the stream, every event an official SearchAIAnswerStream', async () => {
    const w = await askWorld()
    const gb = w.client(w.tokens.ada)
    const events = []
    for await (const event of gb.orgs.streamAskInSite(w.org.id, w.site.id, { question: 'How do I upgrade the lantern?', scope: { mode: 'default' } }))
      events.push(event)
    expect(events.length).toBeGreaterThan(0)
    for (const event of events) expectOfficialSchema('SearchAIAnswerStream', event)
    const last = events.at(-1)!
    expect(last.answer.sources[0]).toMatchObject({ type: 'page', page: w.pages.install, space: w.spaces.handbook, sections: [`${w.pages.install}#upgrading`] })
    expect(last.answer.answer).toHaveProperty('document')

    const markdown = []
    for await (const event of gb.orgs.streamAskInSite(
      w.org.id,
      w.site.id,
      { question: 'What is the capital of Mars?', scope: { mode: 'all' } },
      { format: 'markdown' },
    ))
      markdown.push(event)
    expect(markdown).toHaveLength(1)
    expectOfficialSchema('SearchAIAnswerStream', markdown[0])
    expect(markdown[0]!.answer).toEqual({ answer: { markdown: expect.stringContaining("couldn't find") }, followupQuestions: [], sources: [] })
  })

  it('streamAskInSite: errors before the stream are HTTP errors, errors during it reach the client as errors', async () => {
    const w = await askWorld()
    const read = async (iterator: AsyncIterable<unknown>) => {
      for await (const event of iterator) void event
    }
    const gb = w.client(w.tokens.ada)
    await expect(read(gb.orgs.streamAskInSite(w.org.id, w.site.id, { question: 'q'.repeat(513), scope: { mode: 'all' } }))).rejects.toThrow('400')
    await expect(read(gb.orgs.streamAskInSite(w.org.id, 'no-such-site', { question: 'lantern', scope: { mode: 'all' } }))).rejects.toThrow('404')
    const busy = w.api.fork({
      ask: () => {
        throw new ApiError('TOO_MANY_REQUESTS', 'The model is busy')
      },
    })
    const viaFork = new GitBookAPI({ endpoint: 'http://localhost:4000', authToken: w.tokens.ada, serviceBinding: { fetch: busy.fetch } })
    await expect(read(viaFork.orgs.streamAskInSite(w.org.id, w.site.id, { question: 'lantern', scope: { mode: 'all' } }))).rejects.toThrow('The model is busy')
  })
})
