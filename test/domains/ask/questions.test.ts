import { describe, expect, it } from 'vitest'
import { call, expectError } from '../../helpers.js'
import { MAX_QUESTIONS } from '../../../src/domains/ask/questions.js'
import { page, publish } from '../search/helpers.js'
import { getStream, questionEvents, questionsWorld } from './helpers.js'
import { longestStall } from '../../stall.js'

/** Recommended questions (docs/behaviour/ask.md): from the content the site publishes, FAQ first, bounded, deterministic. */

const siteQuestions = (w: Awaited<ReturnType<typeof questionsWorld>>, query = '', token = w.tokens.ada) =>
  questionEvents(w.api, token, 'streamRecommendedQuestionsInSite', `${w.base}/ask/questions${query}`)

const paragraph = (text: string) => ({
  object: 'block',
  type: 'paragraph',
  data: {},
  nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }],
})

/** An expandable block (the usual shape of an FAQ entry in GitBook). */
const expandable = (title: string, body: string) => ({
  object: 'block',
  type: 'expandable',
  isVoid: true,
  data: {},
  meta: { id: 'entry' },
  fragments: [
    { object: 'fragment', fragment: 'expandable-title', type: 'expandable-title', nodes: [paragraph(title)] },
    { object: 'fragment', fragment: 'expandable-body', type: 'expandable-body', nodes: [paragraph(body)] },
  ],
})

const json = async (res: Response) => ({ status: res.status, body: await res.json(), headers: res.headers })

describe('recommended questions of a site', () => {
  it('are the questions its default content asks: FAQ parts first, then headings ending in `?`, in page and document order', async () => {
    const w = await questionsWorld()
    // The FAQ page's heading and paragraph; then Troubleshooting's headings (a "Questions" heading is no FAQ).
    expect(await siteQuestions(w)).toEqual(['How do I reset the lantern?', 'Does it float?', 'Why is the lantern dark?', 'Is it waterproof?'])
    // The private notes (not in the site) never; Recipes only when asked for (not default content).
    expect(await siteQuestions(w, `?siteSpaceId=${w.siteSpaces.recipes}`)).toEqual(['Can I cook with the lantern?'])
    expect(await siteQuestions(w, `?spaceId=${w.spaces.recipes}`)).toEqual(['Can I cook with the lantern?'])
    // The same content asks the same questions.
    expect(await siteQuestions(w)).toEqual(await siteQuestions(w))
  })

  it('reads FAQ sections, page titles and expandables; leaves out hidden, noIndex and conditional pages; each question once, at most MAX_QUESTIONS', async () => {
    const w = await questionsWorld()
    await publish(w, w.spaces.api, [
      page('Can I call it twice?', 'Yes.'),
      page('Overview', 'Intro.\n\n## FAQ\n\nIs there a limit?\n\n### How fast is it?\n\nFast.\n\n## Errors\n\nNot a question here?'),
      page('Hidden', '## Is this hidden?\n\nYes.', { hidden: true }),
      page('Unindexed', '## Is this unindexed?\n\nYes.', { noIndex: true }),
      page('Again', '## how do I reset the lantern?\n\nDuplicate of the FAQ, case aside.'),
      page('Conditional', '## Is this conditional?\n\nYes.', { condition: 'visitor.claims.unsigned.beta' }),
      { operation: 'insert_page', title: 'Folded', document: { document: { object: 'document', data: {}, nodes: [expandable('Does it fold?', 'Twice.')] } } },
    ])
    const questions = await siteQuestions(w)
    expect(questions.slice(0, 4)).toEqual(['How do I reset the lantern?', 'Does it float?', 'Is there a limit?', 'How fast is it?'])
    expect(questions).toContain('Can I call it twice?')
    // A paragraph asks only in an FAQ part: the FAQ heading's part ends at the next heading of its level.
    expect(questions).not.toContain('Not a question here?')
    expect(questions).not.toContain('Is this hidden?')
    expect(questions).not.toContain('Is this unindexed?')
    expect(questions).not.toContain('Is this conditional?')
    expect(questions).toContain('Does it fold?')
    expect(questions.filter((q) => q.toLowerCase() === 'how do i reset the lantern?')).toHaveLength(1)

    // Many questions: the first MAX_QUESTIONS.
    await publish(w, w.spaces.handbook, [page('More', Array.from({ length: 20 }, (_, i) => `## Question number ${i}?\n\nAnswer.`).join('\n\n'))])
    const bounded = await siteQuestions(w)
    expect(bounded).toHaveLength(MAX_QUESTIONS)
    expect(bounded.slice(0, 2)).toEqual(['How do I reset the lantern?', 'Does it float?'])
  })

  it('follows what the site publishes: a hidden site-space asks nothing, a merge changes the questions', async () => {
    const w = await questionsWorld()
    await publish(w, w.spaces.handbook, [{ operation: 'delete_page', page: w.faqPage }])
    expect(await siteQuestions(w)).toEqual(['Why is the lantern dark?', 'Is it waterproof?'])
    await call(w.api, w.tokens.ada, 'PATCH', `${w.base}/site-spaces/${w.siteSpaces.recipes}`, { hidden: true })
    expect(await siteQuestions(w, `?siteSpaceId=${w.siteSpaces.recipes}`)).toEqual([])
  })

  it('refuses before the stream, as JSON: a site-space or space not of the site (400 naming the parameter), an unknown site, a guest, an outsider (404); nothing changes', async () => {
    const w = await questionsWorld()
    const before = w.api.dump()
    const res = await json(await getStream(w.api, w.tokens.ada, `${w.base}/ask/questions?siteSpaceId=nope`))
    expect(res.headers.get('content-type')).toContain('application/json')
    expectError(res, 400, 'query parameter `siteSpaceId`: no site-space nope in this site')
    expectError(await json(await getStream(w.api, w.tokens.ada, `${w.base}/ask/questions?spaceId=${w.spaces.notes}`)), 400, 'query parameter `spaceId`')
    expectError(await json(await getStream(w.api, w.tokens.ada, `/v1/orgs/${w.org.id}/sites/nope/ask/questions`)), 404, 'Site not found')
    expectError(await json(await getStream(w.api, w.tokens.gina, `${w.base}/ask/questions`)), 404, 'Site not found')
    expectError(await json(await getStream(w.api, w.tokens.olga, `${w.base}/ask/questions`)), 404, 'Organization not found')
    expect(w.api.dump()).toEqual(before)
  })

  it('is journaled once streamed (the events as sent)', async () => {
    const w = await questionsWorld()
    const res = await getStream(w.api, w.tokens.ada, `${w.base}/ask/questions`)
    const text = await res.text()
    expect(w.api.journal.last({ operationId: 'streamRecommendedQuestionsInSite' })).toMatchObject({ status: 200, responseBody: text })
    expect(text.endsWith('event: done\ndata: {}\n\n')).toBe(true)
  })
})

describe('recommended questions of an organization', () => {
  it('are those of the spaces the caller finds in its search: a member every space, a guest those granted him', async () => {
    const w = await questionsWorld()
    const org = `/v1/orgs/${w.org.id}`
    const all = (await call(w.api, w.tokens.ada, 'GET', `${org}/ask/questions`)).body.questions
    // FAQ parts first, then the other questions of every space (the private notes' included).
    expect(all.slice(0, 2)).toEqual(['How do I reset the lantern?', 'Does it float?'])
    expect(all.slice(2).sort()).toEqual(['Can I cook with the lantern?', 'Is it waterproof?', 'What is the lantern password?', 'Why is the lantern dark?'])
    expect((await call(w.api, w.tokens.gina, 'GET', `${org}/ask/questions`)).body).toEqual({ questions: [] })
    await w.api.fixtures.grantSpace(w.spaces.recipes, { user: w.users.gina.id }, 'read')
    expect((await call(w.api, w.tokens.gina, 'GET', `${org}/ask/questions`)).body).toEqual({ questions: ['Can I cook with the lantern?'] })
    expect(await questionEvents(w.api, w.tokens.gina, 'streamRecommendedQuestionsInOrganization', `${org}/ask/questions/stream`)).toEqual([
      'Can I cook with the lantern?',
    ])
  })
})

describe('recommended questions of a large site', () => {
  it('are worked out in slices the first time (the event loop keeps turning), then answered from the cache', async () => {
    const w = await questionsWorld()
    // FAQ pages of many short paragraphs (JSON documents: markdown of this size would take most of the test to parse).
    const changes = (batch: number) =>
      Array.from({ length: 30 }, (_, i) => batch * 30 + i).map((n) => ({
        operation: 'insert_page',
        title: `FAQ ${n}`,
        document: {
          document: { object: 'document', data: {}, nodes: Array.from({ length: 2_000 }, (_, i) => paragraph(i === 0 ? `Question ${n}?` : `Line ${i}.`)) },
        },
      }))
    for (let batch = 0; batch < 4; batch++) await publish(w, w.spaces.handbook, changes(batch))
    const first = await longestStall(() => getStream(w.api, w.tokens.ada, `${w.base}/ask/questions`).then((res) => res.text()))
    expect(first.result).toContain('Question 0?')
    expect(first.stall).toBeLessThan(first.total / 3)
    const again = await longestStall(() => getStream(w.api, w.tokens.ada, `${w.base}/ask/questions`).then((res) => res.text()))
    expect(again.result).toBe(first.result)
    expect(again.total).toBeLessThan(first.total / 3)
  })
})
