import { GitBookAPI, type SiteInsightsEvent } from '@gitbook/api'
import { describe, expect, it } from 'vitest'
import { BASE, call, expectError, siteToken } from '../helpers.js'
import { insightsWorld } from '../domains/insights/helpers.js'
import { expectOfficialResponse } from './official.js'

/** Site insights through `@gitbook/api` (docs/behaviour/insights.md). */
describe('conformance: site insights through @gitbook/api', () => {
  it('trackEventsInSiteById with no token (the renderer), aggregateSiteEvents and listSiteVisitorSegments answer the official shapes', async () => {
    const w = await insightsWorld()
    const anonymous = new GitBookAPI({ endpoint: BASE, serviceBinding: { fetch: w.api.fetch } })
    const events = [
      w.pageView(),
      w.pageView({ location: { url: `${w.siteUrl}/install`, page: w.pages.install } }),
      w.pageView({ session: { visitorId: 'visitor-2', sessionId: 'session-2', visitorAuthClaims: { plan: { pro: null } } } }),
      w.pageView({ type: 'search_type_query', query: 'linux' }),
    ] as unknown as SiteInsightsEvent[]
    const tracked = await anonymous.orgs.trackEventsInSiteById(w.org.id, w.site.id, { events })
    expect(tracked.status).toBe(204)

    const gb = w.client(w.tokens.rita).orgs
    const path = new URL(w.siteUrl).pathname
    const aggregated = await gb.aggregateSiteEvents(w.org.id, w.site.id, {
      range: 'last24Hours',
      select: [{ column: 'eventsCount' }, { column: 'visitorsCount' }, { column: 'sessionsCount' }],
      groupBy: [{ column: 'urlPath' }, { column: 'eventType' }],
    } as never)
    expect(aggregated.status).toBe(200)
    expect(aggregated.data).toEqual({
      columns: [
        { column: 'urlPath', values: [`${path}/`, `${path}/install`, `${path}/`] },
        { column: 'eventType', values: ['page_view', 'page_view', 'search_type_query'] },
        { column: 'eventsCount', values: [2, 1, 1] },
        { column: 'visitorsCount', values: [2, 1, 1] },
        { column: 'sessionsCount', values: [2, 1, 1] },
      ],
    })
    expectOfficialResponse('aggregateSiteEvents', 200, aggregated.data)

    const trend = await gb.aggregateSiteEvents(w.org.id, w.site.id, {
      range: 'last7Days',
      groupBy: [{ column: 'datetime', interval: 'day' }],
      select: [{ column: 'visitorsCount' }],
      where: [{ column: 'eventType', values: ['page_view'] }],
    } as never)
    expect(trend.data).toEqual({
      columns: [
        { column: 'datetime', values: ['2026-03-01T00:00:00.000Z'] },
        { column: 'visitorsCount', values: [2] },
      ],
    })
    expectOfficialResponse('aggregateSiteEvents', 200, trend.data)

    const segments = await gb.listSiteVisitorSegments(w.org.id, w.site.id)
    expect(segments.data).toEqual({
      items: [
        { title: 'Visitors without claims', claims: {}, events: 3, visitors: 1, sessions: 1 },
        { title: 'plan: {"pro":null}', claims: { plan: { pro: null } }, events: 1, visitors: 1, sessions: 1 },
      ],
      count: 2,
    })
    expectOfficialResponse('listSiteVisitorSegments', 200, segments.data)
  })

  it('the site token of a visit tracks events too', async () => {
    const w = await insightsWorld()
    const token = await siteToken(w.api, w.siteUrl)
    const res = await w.client(token).orgs.trackEventsInSiteById(w.org.id, w.site.id, { events: [w.pageView()] as unknown as SiteInsightsEvent[] })
    expect(res.status).toBe(204)
    expect(w.api.store.read((tx) => tx.all('siteInsightEvents')).length).toBe(1)
  })

  it('submitSiteAgentFeedback (the renderer MCP server, with the site token) and submitAgentFeedbackToSite', async () => {
    const w = await insightsWorld()
    const token = await siteToken(w.api, w.siteUrl)
    const byPage = await w.client(token).orgs.submitSiteAgentFeedback(w.org.id, w.site.id, {
      feedback: 'The Linux page misses the ARM packages.',
      url: `${w.siteUrl}/install/linux`,
      spaceId: w.spaces.guide.id,
      pageId: w.pages.linux,
      goal: 'Install on a Raspberry Pi',
    })
    expect(byPage.status).toBe(204)
    const structured = await w.client(token).orgs.submitAgentFeedbackToSite(w.org.id, w.site.id, {
      reportedBy: { model: 'some-model', onDemand: false },
      subject: { kind: 'mcp-tool', toolName: 'searchDocumentation' },
      feedback: { category: 'usability', severity: 'low', summary: 'The tool name is unclear' },
    } as never)
    expect(structured.status).toBe(201)
    expect(structured.data).toEqual({ id: expect.any(String), result: expect.any(String) })
    expectOfficialResponse('submitAgentFeedbackToSite', 201, structured.data)
    const rows = w.api.store.read((tx) => tx.all('siteAgentFeedback'))
    expect(rows.map((r) => [r.subject.kind, r.feedback.category, r.page])).toEqual([
      ['documentation', 'documentation', w.pages.linux],
      ['mcp-tool', 'usability', undefined],
    ])
  })

  it('bad input is a 400 naming the field; nothing is stored', async () => {
    const w = await insightsWorld()
    expectError(await w.track([w.pageView({ type: 'page_jump' })]), 400, '`events[0].type`')
    expectError(await w.track([w.pageView(), w.pageView({ location: { url: 'not a url' } })]), 400, '`events[1].location.url`')
    expectError(await w.track([w.pageView({ timestamp: '2026-03-01T09:00:00.000Z' })]), 400, '`events[0].timestamp`: must be within 5 minutes')
    expectError(await w.track(Array.from({ length: 101 }, () => w.pageView())), 400, '`events`: must hold at most 100 events')
    expectError(await w.aggregate({ range: 'lastDecade' }), 400, '`range`')
    expectError(await w.aggregate({ range: 'last7Days', limit: 1001 }), 400, '`limit`')
    expectError(await w.aggregate({ range: 'last7Days', where: [{ column: 'dayOfWeek', values: [8] }] }), 400, '`where[0].values[0]`')
    expectError(await w.aggregate({ range: { from: '2026-03-02T00:00:00Z', to: '2026-03-01T00:00:00Z' } }), 400, '`range.to`')
    const token = await siteToken(w.api, w.siteUrl)
    const feedback = { feedback: 'x', url: `${w.siteUrl}/`, spaceId: 'elsewhere', pageId: 'p' }
    expectError(await call(w.api, token, 'POST', `${w.base}/agent-feedback`, feedback), 400, '`spaceId`')
    expectError(await call(w.api, token, 'POST', `${w.base}/agent-feedback`, { ...feedback, feedback: '' }), 400, '`feedback`')
    expectError(
      await call(w.api, token, 'POST', `${w.base}/agents/feedback`, {
        subject: { kind: 'generic' },
        feedback: { category: 'usability', summary: 'x'.repeat(257) },
      }),
      400,
      '`feedback.summary`',
    )
    expect(w.api.store.read((tx) => [tx.all('siteInsightEvents').length, tx.all('siteAgentFeedback').length])).toEqual([0, 0])
  })

  it('no access: an unknown or unpublished site is a 404 to tracking; insights are for members (404 outsider, 403 site token)', async () => {
    const w = await insightsWorld()
    expectError(await call(w.api, undefined, 'POST', `/v1/orgs/${w.org.id}/sites/nope/insights/events`, { events: [w.pageView()] }), 404, '')
    const draft = await w.api.fixtures.createSite(w.org.id, { title: 'Draft', spaces: [w.spaces.guide.id] })
    const draftBase = `/v1/orgs/${w.org.id}/sites/${draft.id}`
    expectError(await call(w.api, undefined, 'POST', `${draftBase}/insights/events`, { events: [w.pageView()] }), 404, '')
    // Its members may (a preview of the site).
    expect((await call(w.api, w.tokens.rita, 'POST', `${draftBase}/insights/events`, { events: [w.pageView()] })).status).toBe(204)

    expectError(await w.aggregate({ range: 'last7Days' }, w.tokens.olga), 404, '')
    expectError(await call(w.api, w.tokens.olga, 'GET', `${w.base}/insights/visitor-segments`), 404, '')
    const token = await siteToken(w.api, w.siteUrl)
    expectError(await w.aggregate({ range: 'last7Days' }, token), 403, '')
    expectError(await call(w.api, token, 'GET', `${w.base}/insights/visitor-segments`), 403, '')
    const feedback = { feedback: 'x', url: `${w.siteUrl}/`, spaceId: w.spaces.guide.id, pageId: 'p' }
    expectError(await call(w.api, undefined, 'POST', `${w.base}/agent-feedback`, feedback), 401, '')
    expectError(await call(w.api, w.tokens.olga, 'POST', `${w.base}/agent-feedback`, feedback), 404, '')
  })
})
