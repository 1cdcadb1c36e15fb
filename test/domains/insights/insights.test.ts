import { describe, expect, it } from 'vitest'
import { MAX_EVENTS_PER_SITE, MAX_EVENTS_TOTAL } from '../../../src/domains/insights/model.js'
import { MAX_FEEDBACK_PER_SITE } from '../../../src/domains/insights/feedback.js'
import { call } from '../../helpers.js'
import { insightsWorld } from './helpers.js'

/** docs/behaviour/insights.md: what is stored of an event, the caps, the clock, aggregations. */

const events = (w: Awaited<ReturnType<typeof insightsWorld>>) => w.api.store.read((tx) => tx.all('siteInsightEvents'))

describe('insights: tracking', () => {
  it('stores what aggregations read, never cookies, the IP address or the visitor token; the user agent as browser, OS, device, bot', async () => {
    const w = await insightsWorld()
    const res = await w.track([
      w.pageView({
        session: {
          cookies: { secret: 'x' },
          ip: '203.0.113.9',
          visitorAuthToken: 'jwt',
          userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
          referrer: 'https://www.google.com/search?q=acme',
        },
      }),
      w.pageView({ session: { userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' } }),
    ])
    expect(res.status).toBe(204)
    const [first, second] = events(w)
    expect(JSON.stringify(first)).not.toMatch(/secret|203\.0\.113\.9|jwt/)
    // Nor does the request journal.
    expect(JSON.stringify(w.api.journal.entries.map((e) => e.requestBody))).not.toMatch(/secret|203\.0\.113\.9|"jwt"/)
    expect(first).toMatchObject({
      browser: 'safari',
      os: 'ios',
      device: 'mobile',
      bot: null,
      referrer: 'https://www.google.com/search?q=acme',
      at: w.clock.now().toISOString(),
    })
    expect(second).toMatchObject({ bot: 'googlebot' })
  })

  it("a timestamp within 5 minutes of the API's clock is kept; one further is a 400 (the clock is the API's, moved by the test)", async () => {
    const w = await insightsWorld()
    const in4 = new Date(w.clock.now().getTime() - 4 * 60_000).toISOString()
    expect((await w.track([w.pageView({ timestamp: in4 })])).status).toBe(204)
    expect(events(w)[0]!.at).toBe(in4)
    w.clock.advance(2 * 60_000)
    expect((await w.track([w.pageView({ timestamp: in4 })])).status).toBe(400)
    expect(events(w)).toHaveLength(1)
  })

  it(`keeps at most ${MAX_EVENTS_PER_SITE} events per site: the oldest go first`, async () => {
    const w = await insightsWorld()
    const batch = (n: number, from: number) => Array.from({ length: n }, (_, i) => w.pageView({ session: { visitorId: `v${from + i}` } }))
    for (let sent = 0; sent < MAX_EVENTS_PER_SITE + 1000; sent += 100) expect((await w.track(batch(100, sent))).status).toBe(204)
    const kept = events(w)
    expect(kept).toHaveLength(MAX_EVENTS_PER_SITE)
    expect(kept[0]!.visitor).toBe('v1000')
    expect(kept.at(-1)!.visitor).toBe(`v${MAX_EVENTS_PER_SITE + 999}`)
    expect(MAX_EVENTS_TOTAL).toBeGreaterThan(MAX_EVENTS_PER_SITE)
  })

  it('texts are cut, large claims are not kept; the events and feedback of a deleted site go with it', async () => {
    const w = await insightsWorld()
    const feedback = { subject: { kind: 'generic' }, feedback: { category: 'usability', summary: 'x' } }
    expect((await call(w.api, w.tokens.rita, 'POST', `${w.base}/agents/feedback`, feedback)).status).toBe(201)
    const huge = { blob: 'x'.repeat(5000) }
    await w.track([w.pageView({ type: 'search_type_query', query: 'q'.repeat(10_000), session: { visitorAuthClaims: huge } })])
    const [row] = events(w)
    expect((row!.data.query as string).length).toBe(2048)
    expect(row!.claims).toEqual({})
    expect((await call(w.api, w.tokens.ada, 'DELETE', w.base)).status).toBe(204)
    expect(events(w)).toEqual([])
    expect(w.api.store.read((tx) => tx.all('siteAgentFeedback'))).toEqual([])
  })
})

describe('insights: aggregations', () => {
  it('filters by dimension and by metric, orders, limits, buckets by week and reads claims', async () => {
    const w = await insightsWorld()
    await w.track([
      w.pageView({ session: { visitorId: 'a', visitorAuthClaims: { plan: 'pro' } } }),
      w.pageView({ session: { visitorId: 'a', visitorAuthClaims: { plan: 'pro' } }, location: { url: `${w.siteUrl}/install` } }),
      w.pageView({ session: { visitorId: 'b', visitorAuthClaims: { plan: 'free' } }, location: { url: `${w.siteUrl}/install?utm_source=news` } }),
      w.pageView({ type: 'page_post_feedback', feedback: { rating: 'good' } }),
    ])
    const byClaim = await w.aggregate({
      range: 'last24Hours',
      groupBy: [{ column: 'visitorClaim', claim: 'plan' }],
      select: [{ column: 'eventsCount' }],
      where: [{ column: 'eventType', values: ['page_view'] }],
      order: { by: { column: 'eventsCount' }, direction: 'asc' },
    })
    expect(byClaim.body).toEqual({
      columns: [
        { column: 'visitorClaim', claim: 'plan', values: ['free', 'pro'] },
        { column: 'eventsCount', values: [1, 2] },
      ],
    })
    const busy = await w.aggregate({
      range: 'last24Hours',
      groupBy: [{ column: 'visitorClaim', claim: 'plan' }],
      where: [{ column: 'eventsCount', values: [1], operator: 'greaterThan' }],
    })
    expect(busy.body.columns[0].values).toEqual(['pro'])
    const utm = await w.aggregate({ range: 'last24Hours', groupBy: [{ column: 'utmSource' }], limit: 1 })
    expect(utm.body.columns).toEqual([
      { column: 'utmSource', values: [''] },
      { column: 'eventsCount', values: [3] },
    ])
    const ratings = await w.aggregate({ range: 'last7Days', select: [{ column: 'pageFeedbackRating' }, { column: 'visitorsCount' }] })
    expect(ratings.body.columns).toEqual([
      { column: 'pageFeedbackRating', values: [{ ok: 0, good: 1, bad: 0 }] },
      { column: 'visitorsCount', values: [3] },
    ])
    // 2026-03-01 is a Sunday: its week starts on Monday 2026-02-23.
    const weekly = await w.aggregate({ range: 'last30Days', groupBy: [{ column: 'datetime', interval: 'week' }, { column: 'dayOfWeek' }] })
    expect(weekly.body.columns.slice(0, 2)).toEqual([
      { column: 'datetime', values: ['2026-02-23T00:00:00.000Z'] },
      { column: 'dayOfWeek', values: [7] },
    ])
    // Out of the range: nothing, and a query without dimensions still answers its one group.
    w.clock.advance(2 * 24 * 3600_000)
    expect((await w.aggregate({ range: 'last24Hours' })).body).toEqual({ columns: [{ column: 'eventsCount', values: [0] }] })
    // An event-type column leaves out the events of other types.
    const queries = await w.aggregate({ range: 'last7Days', groupBy: [{ column: 'eventPageFeedbackRating' }] })
    expect(queries.body.columns).toEqual([
      { column: 'eventPageFeedbackRating', values: ['good'] },
      { column: 'eventsCount', values: [1] },
    ])
  })

  it(`an aggregation over a full site (${MAX_EVENTS_PER_SITE} events) reads in a bounded time against a small one`, async () => {
    const w = await insightsWorld()
    const query = {
      range: 'last24Hours',
      groupBy: [{ column: 'urlPath' }, { column: 'visitorBrowser' }],
      select: [{ column: 'visitorsCount' }, { column: 'sessionsCount' }],
    }
    await w.track(Array.from({ length: 100 }, (_, i) => w.pageView({ session: { visitorId: `v${i}` } })))
    const time = async () => {
      const started = performance.now()
      expect((await w.aggregate(query)).status).toBe(200)
      return performance.now() - started
    }
    await time()
    const small = await time()
    for (let sent = 100; sent < MAX_EVENTS_PER_SITE; sent += 100) {
      await w.track(Array.from({ length: 100 }, (_, i) => w.pageView({ session: { visitorId: `v${sent + i}` }, location: { url: `${w.siteUrl}/p${i % 50}` } })))
    }
    const large = await time()
    // 50 times the events: well under 500 times the time of the small query (no quadratic step).
    expect(large / Math.max(small, 1)).toBeLessThan(500)
  })
})

describe('insights: agent feedback', () => {
  it(`keeps at most ${MAX_FEEDBACK_PER_SITE} per site, the oldest dropped`, async () => {
    const w = await insightsWorld()
    const body = (i: number) => ({ subject: { kind: 'generic' }, feedback: { category: 'usability', summary: `s${i}` } })
    for (let i = 0; i < MAX_FEEDBACK_PER_SITE + 3; i++)
      expect((await call(w.api, w.tokens.rita, 'POST', `${w.base}/agents/feedback`, body(i))).status).toBe(201)
    const rows = w.api.store.read((tx) => tx.all('siteAgentFeedback'))
    expect(rows).toHaveLength(MAX_FEEDBACK_PER_SITE)
    expect(rows[0]!.feedback.summary).toBe('s3')
  })
})
