import { AIMessageRole, AIModel, GitBookAPI, GitBookAPIError, SiteCoreChannelType } from '@gitbook/api'
import { describe, expect, it } from 'vitest'
import { call, expectError, siteToken } from '../helpers.js'
import { questionsWorld } from '../domains/ask/helpers.js'
import { expectOfficialResponse, expectOfficialSchema } from './official.js'

/**
 * Recommended questions, Ask in an organization and the assistant through the official client
 * (`@gitbook/api`, `serviceBinding` to `api.fetch`): its stream methods read the event streams,
 * every event checked against the official schema of the operation's stream, every JSON answer
 * against its response schema (docs/behaviour/ask.md).
 */

async function read<T>(iterator: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = []
  for await (const event of iterator) out.push(event)
  return out
}

const rejectsWith = (promise: Promise<unknown>, status: number) => expect(promise).rejects.toThrow(String(status))

/** The world with its site published, and a site token of it minted as the renderer gets one (resolvePublishedContentByUrl's apiToken). */
async function published() {
  const w = await questionsWorld()
  expect((await call(w.api, w.tokens.ada, 'POST', `${w.base}/publish`)).status).toBe(200)
  const site = (await call(w.api, w.tokens.ada, 'GET', w.base)).body
  const token = await siteToken(w.api, site.urls.published)
  return { ...w, siteToken: token, visitor: new GitBookAPI({ endpoint: 'http://localhost:4000', authToken: token, serviceBinding: { fetch: w.api.fetch } }) }
}

describe('conformance: recommended questions, Ask in an organization and the assistant through @gitbook/api', () => {
  it('streamRecommendedQuestionsInSite: a member and the site token read the questions of the content the site publishes', async () => {
    const w = await published()
    const expected = ['How do I reset the lantern?', 'Does it float?', 'Why is the lantern dark?', 'Is it waterproof?']
    for (const gb of [w.client(w.tokens.ada), w.visitor]) {
      const events = await read(gb.orgs.streamRecommendedQuestionsInSite(w.org.id, w.site.id))
      for (const event of events) expectOfficialSchema('SearchAIRecommendedQuestionStream', event)
      expect(events.map((e) => e.question)).toEqual(expected)
    }
    // The renderer passes the current site-space: its questions only.
    const recipes = await read(w.visitor.orgs.streamRecommendedQuestionsInSite(w.org.id, w.site.id, { siteSpaceId: w.siteSpaces.recipes }))
    expect(recipes).toEqual([{ question: 'Can I cook with the lantern?' }])
    // A bad site-space is a 400 before any event; an outsider and a guest get 404.
    await rejectsWith(read(w.visitor.orgs.streamRecommendedQuestionsInSite(w.org.id, w.site.id, { siteSpaceId: 'nope' })), 400)
    await rejectsWith(read(w.client(w.tokens.olga).orgs.streamRecommendedQuestionsInSite(w.org.id, w.site.id)), 404)
    await rejectsWith(read(w.client(w.tokens.gina).orgs.streamRecommendedQuestionsInSite(w.org.id, w.site.id)), 404)
  })

  it('streamAIResponseInSite: the assistant answers the renderer as it asks, citing pages of the site; every event an official AIStreamResponse', async () => {
    const w = await published()
    const events = await read(
      w.visitor.orgs.streamAiResponseInSite(w.org.id, w.site.id, {
        input: [
          {
            role: AIMessageRole.User,
            content: 'How do I upgrade the lantern?',
            context: { location: { spaceId: w.spaces.handbook, pageId: w.pages.install } },
          },
        ],
        model: AIModel.ReasoningLow,
        session: { visitorId: 'v1', sessionId: 's1' },
        channel: { type: SiteCoreChannelType.Site },
      }),
    )
    for (const event of events) expectOfficialSchema('AIStreamResponse', event)
    expect(events.map((e) => e.type)).toEqual([
      'response_start',
      'response_step_start',
      'response_tool_call',
      'response_step_start',
      'response_document',
      'response_document',
      'response_finish',
    ])
    const search = events.find((e) => e.type === 'response_tool_call')!
    expect(search).toMatchObject({
      toolCall: { tool: 'search', query: 'How do I upgrade the lantern?', results: [{ type: 'page', pageId: w.pages.install, spaceId: w.spaces.handbook }] },
    })
    expect(JSON.stringify(events)).toContain('Run the upgrade command')
    expect(JSON.stringify(events)).toContain(JSON.stringify({ kind: 'page', page: w.pages.install, space: w.spaces.handbook }))
    const finish = events.at(-1)!
    expect(finish).toMatchObject({ type: 'response_finish', response: { id: expect.any(String) } })
    // A member asks too; an outsider and a guest get 404; bad input is a 400 before any event.
    expect(
      (await read(w.client(w.tokens.rita).orgs.streamAiResponseInSite(w.org.id, w.site.id, { input: [{ role: AIMessageRole.User, content: 'lantern' }] })))
        .length,
    ).toBeGreaterThan(0)
    await rejectsWith(
      read(w.client(w.tokens.olga).orgs.streamAiResponseInSite(w.org.id, w.site.id, { input: [{ role: AIMessageRole.User, content: 'lantern' }] })),
      404,
    )
    await rejectsWith(
      read(w.client(w.tokens.gina).orgs.streamAiResponseInSite(w.org.id, w.site.id, { input: [{ role: AIMessageRole.User, content: 'lantern' }] })),
      404,
    )
    await rejectsWith(
      read(w.visitor.orgs.streamAiResponseInSite(w.org.id, w.site.id, { input: [{ role: AIMessageRole.User, content: 'q'.repeat(2049) }] })),
      400,
    )
    await rejectsWith(read(w.visitor.orgs.streamAiResponseInSite(w.org.id, w.site.id, { input: [] })), 400)
  })

  it('askInOrganization and streamAskInOrganization: the answer from the spaces the caller finds in the organization', async () => {
    const w = await questionsWorld()
    const gb = w.client(w.tokens.ada)
    const whole = await gb.orgs.askInOrganization(w.org.id, { query: 'What is the lantern password?' })
    expectOfficialResponse('askInOrganization', 200, whole.data)
    expect(whole.data.answer!.sources[0]).toMatchObject({ type: 'page', space: w.spaces.notes })
    expect(whole.data.answer!.answer).toHaveProperty('document')
    const markdown = await gb.orgs.askInOrganization(w.org.id, { query: 'upgrade command' }, { format: 'markdown', details: true })
    expectOfficialResponse('askInOrganization', 200, markdown.data)
    expect(markdown.data.answer!.answer).toEqual({ markdown: expect.stringContaining('Run the upgrade command') })

    const events = await read(gb.orgs.streamAskInOrganization(w.org.id, { query: 'How do I upgrade the lantern?' }))
    for (const event of events) expectOfficialSchema('SearchAIAnswerStream', event)
    expect(events.at(-1)!.answer.sources[0]).toMatchObject({ page: w.pages.install, space: w.spaces.handbook })

    await expect(gb.orgs.askInOrganization(w.org.id, { query: 'q'.repeat(513) })).rejects.toSatisfy((e) => e instanceof GitBookAPIError && e.code === 400)
    await expect(w.client(w.tokens.olga).orgs.askInOrganization(w.org.id, { query: 'lantern' })).rejects.toSatisfy(
      (e) => e instanceof GitBookAPIError && e.code === 404,
    )
    await rejectsWith(read(gb.orgs.streamAskInOrganization(w.org.id, { query: '' })), 400)
    await rejectsWith(read(w.client(w.tokens.olga).orgs.streamAskInOrganization(w.org.id, { query: 'lantern' })), 404)
  })

  it('getRecommendedQuestionsInOrganization and streamRecommendedQuestionsInOrganization: the questions of the spaces the caller finds', async () => {
    const w = await questionsWorld()
    const gb = w.client(w.tokens.ada)
    const list = await gb.orgs.getRecommendedQuestionsInOrganization(w.org.id)
    expectOfficialResponse('getRecommendedQuestionsInOrganization', 200, list.data)
    expect(list.data.questions).toContain('What is the lantern password?')
    const events = await read(gb.orgs.streamRecommendedQuestionsInOrganization(w.org.id))
    for (const event of events) expectOfficialSchema('SearchAIRecommendedQuestionStream', event)
    expect(events.map((e) => e.question)).toEqual(list.data.questions)
    // A guest without a grant finds no space: no question. An outsider: 404.
    expect((await w.client(w.tokens.gina).orgs.getRecommendedQuestionsInOrganization(w.org.id)).data).toEqual({ questions: [] })
    const outsider = await call(w.api, w.tokens.olga, 'GET', `/v1/orgs/${w.org.id}/ask/questions`)
    expectError(outsider, 404, 'Organization not found')
    await rejectsWith(read(w.client(w.tokens.olga).orgs.streamRecommendedQuestionsInOrganization(w.org.id)), 404)
  })
})
