import { describe, expect, it } from 'vitest'
import { ApiError } from '../../../src/index.js'
import { call, expectError, siteToken } from '../../helpers.js'
import { expectOfficialEventStream } from '../../conformance/official.js'
import { answerText, askWorld, getStream, type AnswerEvent } from './helpers.js'

/** Ask in an organization (docs/behaviour/ask.md): the Ask answerer over the spaces the caller finds in the organization's search. */

const json = async (res: Response) => ({ status: res.status, body: await res.json(), headers: res.headers })

describe('Ask in an organization', () => {
  it("answers from the spaces the caller finds in its search: a member every space, a guest those granted him, a site token's visitor none", async () => {
    const w = await askWorld()
    const org = `/v1/orgs/${w.org.id}`
    const cited = async (token: string) => {
      const res = await call(w.api, token, 'POST', `${org}/ask?format=markdown`, { query: 'lantern password' })
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      return { spaces: [...new Set(res.body.answer.sources.map((s: { space: string }) => s.space))], text: res.body.answer.answer.markdown as string }
    }
    // A member with a role reads the private notes, which no site publishes.
    expect(await cited(w.tokens.ada)).toMatchObject({ spaces: [w.spaces.notes], text: expect.stringContaining('hunter2') })
    expect((await cited(w.tokens.rita)).spaces).toEqual([w.spaces.notes])
    // A guest finds nothing until a space is shared with him; then that space only.
    const guest = await cited(w.tokens.gina)
    expect(guest.spaces).toEqual([])
    expect(guest.text).not.toContain('hunter2')
    await w.api.fixtures.grantSpace(w.spaces.recipes, { user: w.users.gina.id }, 'read')
    expect((await cited(w.tokens.gina)).spaces).toEqual([w.spaces.recipes])
    // A site token's visitor is a guest of the organization with no grant of his own: nothing beyond its site.
    await call(w.api, w.tokens.ada, 'POST', `${w.base}/publish`)
    const site = (await call(w.api, w.tokens.ada, 'GET', w.base)).body
    const token = await siteToken(w.api, site.urls.published)
    expect((await cited(token)).spaces).toEqual([])
  })

  it('streams the same answer (GET with `query`), each event the answer so far; refuses bad input as JSON naming the parameter', async () => {
    const w = await askWorld()
    const org = `/v1/orgs/${w.org.id}`
    const res = await getStream(w.api, w.tokens.ada, `${org}/ask/stream?query=${encodeURIComponent('How do I upgrade the lantern?')}&format=markdown`)
    const events = expectOfficialEventStream('streamAskInOrganization', await res.text()) as AnswerEvent[]
    const whole = (await call(w.api, w.tokens.ada, 'POST', `${org}/ask?format=markdown`, { query: 'How do I upgrade the lantern?' })).body
    expect(events.at(-1)!.answer).toEqual(whole.answer)
    expect(answerText(events.at(-1)!)).toContain('Run the upgrade command')

    const before = w.api.dump()
    expectError(await json(await getStream(w.api, w.tokens.ada, `${org}/ask/stream`)), 400, 'query parameter `query`: is required')
    expectError(await json(await getStream(w.api, w.tokens.ada, `${org}/ask/stream?query=`)), 400, 'query parameter `query`: must not be empty')
    expectError(
      await json(await getStream(w.api, w.tokens.ada, `${org}/ask/stream?query=${'q'.repeat(513)}`)),
      400,
      'query parameter `query`: must be at most 512 characters',
    )
    expectError(await json(await getStream(w.api, w.tokens.ada, `${org}/ask/stream?query=x&format=html`)), 400, 'query parameter `format`')
    expectError(await call(w.api, w.tokens.ada, 'POST', `${org}/ask`, { query: '' }), 400, 'body field `query`: must not be empty')
    expectError(await call(w.api, w.tokens.ada, 'POST', `${org}/ask`, {}), 400, 'body field `query`: is required')
    expectError(
      await call(w.api, w.tokens.ada, 'POST', `${org}/ask`, { query: 'x', previousQueries: Array(11).fill('q') }),
      400,
      'body field `previousQueries`',
    )
    expectError(await call(w.api, w.tokens.olga, 'POST', `${org}/ask`, { query: 'x' }), 404, 'Organization not found')
    expectError(await json(await getStream(w.api, w.tokens.olga, `${org}/ask/stream?query=x`)), 404, 'Organization not found')
    expect(w.api.dump()).toEqual(before)
  })

  it("answers an answerer's failure as the request's error (its status when it says one), and an answerer's last answer when it streams", async () => {
    const w = await askWorld()
    const org = `/v1/orgs/${w.org.id}`
    const busy = w.api.fork({
      ask: () => {
        throw new ApiError('TOO_MANY_REQUESTS', 'The model is busy')
      },
    })
    expectError(await call(busy, w.tokens.ada, 'POST', `${org}/ask`, { query: 'lantern' }), 429, 'The model is busy')
    const crashed = w.api.fork({
      ask: () => {
        throw new Error('boom')
      },
      onError: () => {},
    })
    expectError(await call(crashed, w.tokens.ada, 'POST', `${org}/ask`, { query: 'lantern' }), 500, '')
    const stepwise = w.api.fork({
      ask: async function* () {
        yield { markdown: 'one' }
        yield { markdown: 'one two' }
      },
    })
    expect((await call(stepwise, w.tokens.ada, 'POST', `${org}/ask?format=markdown`, { query: 'lantern' })).body).toEqual({
      answer: { answer: { markdown: 'one two' }, followupQuestions: [], sources: [] },
    })
  })
})
