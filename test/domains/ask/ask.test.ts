import { describe, expect, it } from 'vitest'
import { call, expectError } from '../../helpers.js'
import { NO_ANSWER } from '../../../src/domains/ask/extractive.js'
import { publish } from '../search/helpers.js'
import { answerText, ask, askEvents, askWorld, citedSpaces } from './helpers.js'

const all = { mode: 'all' } as const

describe('ask: answers from the content a site publishes', () => {
  it('quotes the best sections of the site, cites their pages as they are now, and never a space the site does not publish', async () => {
    const w = await askWorld()
    const events = await askEvents(w.api, w.tokens.ada, w.org.id, w.site.id, { question: 'How do I upgrade the lantern?', scope: all })
    const last = events.at(-1)!
    expect(answerText(last)).toContain('Install › Upgrading')
    expect(answerText(last)).toContain('Run the upgrade command')
    expect(last.answer.sources[0]).toEqual({
      type: 'page',
      page: w.pages.install,
      revision: expect.any(String),
      space: w.spaces.handbook,
      sections: [`${w.pages.install}#upgrading`],
    })
    expect(last.answer.followupQuestions).toEqual([])
    // Every source is a page of the space's current revision, in a space the site publishes.
    for (const source of last.answer.sources) {
      expect([w.spaces.handbook, w.spaces.recipes, w.spaces.api]).toContain(source.space)
      const space = (await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${source.space}/content`)).body
      expect(source.revision).toBe(space.id)
      expect((await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${source.space}/revisions/${source.revision}/page/${source.page}`)).status).toBe(200)
    }
    // "lantern" is in every space, the private notes' included: never quoted, never cited.
    const lantern = await askEvents(w.api, w.tokens.ada, w.org.id, w.site.id, { question: 'lantern', scope: all })
    expect(citedSpaces(lantern)).not.toContain(w.spaces.notes)
    expect(lantern.map(answerText).join('\n')).not.toContain('hunter2')
    // The answer streams: one event per passage added, each the whole answer so far.
    expect(lantern.length).toBeGreaterThan(1)
    expect(answerText(lantern.at(-1)!)).toContain(answerText(lantern[0]!))
  })

  it('says so, without sources, when nothing matches; answers markdown when asked', async () => {
    const w = await askWorld()
    const none = await askEvents(w.api, w.tokens.ada, w.org.id, w.site.id, { question: 'What is the capital of Mars?', scope: all })
    expect(none).toHaveLength(1)
    expect(none[0]!.answer.sources).toEqual([])
    expect(answerText(none[0]!)).toBe(NO_ANSWER)
    const markdown = await askEvents(w.api, w.tokens.ada, w.org.id, w.site.id, { question: 'support help', scope: all }, '?format=markdown')
    expect(markdown.at(-1)!.answer.answer).toEqual({ markdown: '**Support**\n\nWrite to support for help with the lantern.\n' })
    const document = await askEvents(w.api, w.tokens.ada, w.org.id, w.site.id, { question: 'support help', scope: all }, '?format=document')
    expect(document.at(-1)!.answer.answer).toHaveProperty('document.object', 'document')
  })

  it('follows the scope: default content, the current site-space, the others, specific ones, all; hidden site-spaces and trashed spaces never', async () => {
    const w = await askWorld()
    // An answerer that answers with the spaces of its passages: what was retrieved, whatever an answer would quote.
    const api = w.api.fork({ ask: ({ passages }) => ({ markdown: [...new Set(passages.map((p) => p.space))].sort().join(',') }) })
    const searched = async (scope: object) =>
      answerText((await askEvents(api, w.tokens.ada, w.org.id, w.site.id, { question: 'lantern', scope }, '?format=markdown')).at(-1)!).split(',')
    const { handbook, recipes, api: reference } = w.spaces
    expect(await searched({ mode: 'default' })).toEqual([handbook, reference].sort())
    expect(await searched({ mode: 'default', currentSiteSpace: w.siteSpaces.recipes })).toEqual([handbook, recipes, reference].sort())
    expect(await searched({ mode: 'default', currentSiteSpace: w.siteSpaces.recipes, restrictTo: 'currentSiteSpace' })).toEqual([recipes])
    expect(await searched({ mode: 'default', currentSiteSpace: w.siteSpaces.handbook, restrictTo: 'otherSiteSpaces' })).toEqual([reference])
    expect(await searched({ mode: 'specific', siteSpaceIds: [w.siteSpaces.recipes, w.siteSpaces.api] })).toEqual([recipes, reference].sort())
    expect(await searched(all)).toEqual([handbook, recipes, reference].sort())
    await call(api, w.tokens.ada, 'PATCH', `${w.base}/site-spaces/${w.siteSpaces.recipes}`, { hidden: true })
    await call(api, w.tokens.ada, 'DELETE', `/v1/spaces/${reference}`)
    expect(await searched(all)).toEqual([handbook])
    expect(await searched({ mode: 'specific', siteSpaceIds: [w.siteSpaces.recipes] })).toEqual([''])
  })

  it('answers members from a site not yet published, from what it would publish (hidden site-spaces and trashed spaces left out), as once published', async () => {
    const w = await askWorld()
    expect((await call(w.api, w.tokens.ada, 'GET', `${w.base}`)).body.published).toBe(false)
    // Members with a role preview the site, as they preview its published profile.
    const profile = await call(w.api, w.tokens.rita, 'GET', `${w.base}/published`)
    expect(profile.status).toBe(200)
    const reader = await askEvents(w.api, w.tokens.rita, w.org.id, w.site.id, { question: 'upgrade command', scope: all })
    expect(answerText(reader.at(-1)!)).toContain('Run the upgrade command')
    expect(citedSpaces(reader)).toEqual([w.spaces.handbook])
    // What is searched: the site-spaces it would publish.
    const api = w.api.fork({ ask: ({ passages }) => ({ markdown: [...new Set(passages.map((p) => p.space))].sort().join(',') }) })
    const searched = async () =>
      answerText((await askEvents(api, w.tokens.rita, w.org.id, w.site.id, { question: 'lantern', scope: all }, '?format=markdown')).at(-1)!).split(',')
    expect(await searched()).toEqual([w.spaces.handbook, w.spaces.recipes, w.spaces.api].sort())
    await call(api, w.tokens.ada, 'PATCH', `${w.base}/site-spaces/${w.siteSpaces.recipes}`, { hidden: true })
    await call(api, w.tokens.ada, 'DELETE', `/v1/spaces/${w.spaces.api}`)
    const unpublished = await searched()
    expect(unpublished).toEqual([w.spaces.handbook])
    expect((await call(api, w.tokens.ada, 'POST', `${w.base}/publish`)).status).toBe(200)
    expect((await call(api, w.tokens.ada, 'GET', `${w.base}`)).body.published).toBe(true)
    expect(await searched()).toEqual(unpublished)
    // A guest is refused, published or not (site.ask: members with a role).
    const guest = await ask(api, w.tokens.gina, w.org.id, w.site.id, { question: 'lantern', scope: all })
    expectError({ status: guest.status, body: await guest.json(), headers: guest.headers }, 404, 'Site not found')
  })

  it('cites what is there now: a page deleted by a merge is no longer quoted', async () => {
    const w = await askWorld()
    expect(citedSpaces(await askEvents(w.api, w.tokens.ada, w.org.id, w.site.id, { question: 'upgrade command', scope: all }))).toEqual([w.spaces.handbook])
    await publish(w, w.spaces.handbook, [{ operation: 'delete_page', page: w.pages.install }])
    const after = await askEvents(w.api, w.tokens.ada, w.org.id, w.site.id, { question: 'upgrade command', scope: all })
    expect(after.at(-1)!.answer.sources.map((s) => s.page)).not.toContain(w.pages.install)
    expect(after.map(answerText).join('\n')).not.toContain('Run the upgrade command')
  })

  it('refuses before the stream starts, as JSON: a bad question or scope (400), an unknown or hidden site (404), no token (401); nothing changes', async () => {
    const w = await askWorld()
    const before = w.api.dump()
    const json = async (res: Response) => ({ status: res.status, body: await res.json(), headers: res.headers })
    const bad = async (body: unknown, message: string) => {
      const res = await json(await ask(w.api, w.tokens.ada, w.org.id, w.site.id, body))
      expect(res.headers.get('content-type')).toContain('application/json')
      expectError(res, 400, message)
    }
    await bad({ question: 'q'.repeat(513), scope: all }, 'body field `question`: must be at most 512 characters')
    await bad({ question: '', scope: all }, 'body field `question`: must not be empty')
    await bad({ scope: all }, 'body field `question`: is required')
    await bad({ question: 'lantern' }, 'body field `scope`: is required')
    await bad({ question: 'lantern', scope: { mode: 'everything' } }, 'body field `scope.mode`')
    await bad({ question: 'lantern', scope: { mode: 'specific', siteSpaceIds: [] } }, 'body field `scope.siteSpaceIds`: must hold at least 1 site-space')
    await bad(
      { question: 'lantern', scope: { mode: 'specific', siteSpaceIds: [w.siteSpaces.api, 'nope'] } },
      'body field `scope.siteSpaceIds[1]`: no site-space nope in this site',
    )
    await bad({ question: 'lantern', scope: { mode: 'default', currentSiteSpace: 'nope' } }, 'body field `scope.currentSiteSpace`')
    await bad({ question: 'lantern', scope: { mode: 'default', restrictTo: 'currentSiteSpace' } }, '`restrictTo` needs `currentSiteSpace`')
    expect(w.api.dump()).toEqual(before)
    const other = await w.api.fixtures.createSite(w.org.id, { title: 'Other', spaces: [w.spaces.notes] })
    const otherSiteSpace = (await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}/sites/${other.id}/site-spaces`)).body.items[0].id
    await bad({ question: 'lantern', scope: { mode: 'specific', siteSpaceIds: [otherSiteSpace] } }, 'no site-space')
    const afterSite = w.api.dump()
    const body = { question: 'lantern', scope: all }
    expectError(await json(await ask(w.api, w.tokens.ada, w.org.id, 'no-such-site', body)), 404, 'Site not found')
    expectError(await json(await ask(w.api, w.tokens.gina, w.org.id, w.site.id, body)), 404, 'Site not found')
    expectError(await json(await ask(w.api, w.tokens.olga, w.org.id, w.site.id, body)), 404, 'Organization not found')
    expectError(await json(await ask(w.api, undefined, w.org.id, w.site.id, body)), 401, '')
    expect(w.api.dump()).toEqual(afterSite)
    // Readers ask (site.ask: read).
    expect((await askEvents(w.api, w.tokens.rita, w.org.id, w.site.id, body)).length).toBeGreaterThan(0)
  })

  it('is journaled once streamed (the events as sent) and carries CORS headers', async () => {
    const w = await askWorld()
    const api = w.api.fork({ cors: true })
    const res = await ask(api, w.tokens.ada, w.org.id, w.site.id, { question: 'support', scope: all }, '', { origin: 'https://app.example.com' })
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    const entry = () => api.journal.last({ operationId: 'streamAskInSite' })!
    expect(entry()).toMatchObject({ status: 200, user: w.users.ada.id, requestBody: { question: 'support', scope: all } })
    const text = await res.text()
    expect(entry().responseBody).toBe(text)
    expect(text.endsWith('event: done\ndata: {}\n\n')).toBe(true)
  })
})
