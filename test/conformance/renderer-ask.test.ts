import { AIMessageRole, AIModel, SiteCoreChannelType, type AIStreamResponse } from '@gitbook/api'
import { rendererWorld } from './renderer-world.js'
import { describe, expect, it } from 'vitest'
import { expectOfficialSchema } from './official.js'

/**
 * The renderer's Ask panel and assistant (GitBook Open, packages/gitbook/src/components), replayed
 * over the demo data with the calls it makes, through `@gitbook/api` as it makes them, with the
 * site token of the visit:
 *
 * - Search/server-actions.tsx `streamRecommendedQuestions`: `streamRecommendedQuestionsInSite`
 *   with the current `siteSpaceId`, each event pushed to the panel as it is (`{question}`);
 * - AI/server-actions/chat.ts `streamAIChatResponse`: `streamAiResponseInSite` with the visitor's
 *   message and its context, `model: reasoning-low`, the built-in tools, the session and the
 *   channel; api.tsx `streamRenderAIMessage` builds the message from the events (steps by
 *   `stepIndex`, each added only right after the last; documents by `insert`/`update`; tool
 *   calls), and needs a `response_finish` whose `response.id` the next turn sends back as
 *   `previousResponseId`.
 */

/** The renderer's built-in tools as it sends them (useAIChat.tsx: name, description, input schema). */
const TOOLS = [
  {
    name: 'navigateToPage',
    description: 'Navigate the visitor to a page of the site.',
    inputSchema: { type: 'object', properties: { url: { type: 'string', description: 'The page URL' } } },
  },
  { name: 'submitAssistantFeedback', description: 'Send feedback about the assistant.', inputSchema: { type: 'object', properties: {} } },
]

interface Step {
  phase?: string
  content: { object: 'document'; data: object; nodes: unknown[] }
  toolCalls?: unknown[]
}

/** What api.tsx `streamRenderAIMessage` and `parseResponse` make of the events: the message's steps, or the error it throws. */
async function renderMessage(stream: AsyncIterable<AIStreamResponse>) {
  const steps: Step[] = []
  const update = (stepIndex: number, callback: (step: Step) => void) => {
    if (stepIndex > steps.length) throw new Error(`Step index out of bounds ${stepIndex} (${steps.length} steps)`)
    steps[stepIndex] ??= { content: { object: 'document', data: {}, nodes: [] } }
    callback(steps[stepIndex])
  }
  let responseId: string | null | undefined
  const events: AIStreamResponse[] = []
  for await (const event of stream) {
    events.push(event)
    switch (event.type) {
      case 'response_step_start':
        update(event.stepIndex, (step) => (step.phase = event.phase))
        break
      case 'response_tool_call':
        update(event.stepIndex, (step) => (step.toolCalls ??= []).push(event.toolCall))
        break
      case 'response_document':
        update(event.stepIndex, (step) => {
          if (event.operation === 'insert') step.content.nodes.push(...event.blocks)
          else step.content.nodes.splice(-event.blocks.length, event.blocks.length, ...event.blocks)
        })
        break
      case 'response_finish':
        responseId = event.response.id ?? null
        break
    }
  }
  if (responseId === undefined) throw new Error('No response found')
  return { steps, responseId, events }
}

/** The page references of a document (links the renderer resolves to the site's pages). */
const pageRefs = (nodes: unknown[]) =>
  [...JSON.stringify(nodes).matchAll(/"ref":\{"kind":"page","page":"([^"]+)","space":"([^"]+)"\}/g)].map((m) => ({ page: m[1], space: m[2] }))

describe("contract: GitBook renderer's Ask panel and assistant over the demo data", () => {
  it('lists the recommended questions of the site and answers the assistant citing pages of the site, turn after turn', async () => {
    const { site, visit } = await rendererWorld()
    const { content: data, gb: visitor } = await visit(`${site.urls.published}/installation`)

    // The Ask panel's recommended questions, for the current site-space.
    const questions: unknown[] = []
    for await (const chunk of visitor.orgs.streamRecommendedQuestionsInSite(data.organization, data.site, { siteSpaceId: data.siteSpace })) {
      expectOfficialSchema('SearchAIRecommendedQuestionStream', chunk)
      questions.push(chunk)
    }
    expect(questions).toEqual([{ question: 'Which Node.js version do I need?' }, { question: 'Where does Acme keep my data?' }])

    // The assistant, asked one of them from the installation page.
    const page = (await visitor.spaces.getPageInRevisionByPath(data.space, (await visitor.spaces.getSpaceById(data.space)).data.revision, 'installation')).data
    const turn = (message: string, previousResponseId?: string) =>
      renderMessage(
        visitor.orgs.streamAiResponseInSite(data.organization, data.site, {
          input: [{ role: AIMessageRole.User, content: message, context: { location: { spaceId: data.space, pageId: page.id } } }],
          model: AIModel.ReasoningLow,
          ...(previousResponseId && { previousResponseId }),
          tools: TOOLS as never,
          session: { visitorId: 'visitor-1', sessionId: 'session-1' },
          channel: { type: SiteCoreChannelType.Site },
        }),
      )
    const first = await turn('Which Node.js version do I need?')
    for (const event of first.events) expectOfficialSchema('AIStreamResponse', event)
    const answer = first.steps.find((s) => s.phase === 'final_answer')!
    expect(JSON.stringify(answer.content.nodes)).toContain('Node.js 20 or later')
    // It cites a page of the site (a link the renderer resolves), and its search lists that page.
    const faq = (await visitor.spaces.getPageInRevisionByPath(data.space, (await visitor.spaces.getSpaceById(data.space)).data.revision, 'faq')).data
    expect(pageRefs(answer.content.nodes)).toContainEqual({ page: faq.id, space: data.space })
    expect(first.steps.flatMap((s) => s.toolCalls ?? [])).toContainEqual(
      expect.objectContaining({ tool: 'search', results: expect.arrayContaining([expect.objectContaining({ pageId: faq.id, spaceId: data.space })]) }),
    )
    expect(first.responseId).toEqual(expect.any(String))

    // The next turn sends the response's id back.
    const second = await turn('How do I install the command line?', first.responseId!)
    expect(second.events.at(-1)).toMatchObject({ type: 'response_finish', response: { previous: first.responseId } })
    expect(JSON.stringify(second.steps.at(-1)!.content.nodes)).toContain('npm install -g acme-cli')
  })
})
