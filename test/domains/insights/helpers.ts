import { call } from '../../helpers.js'
import { redirectWorld } from '../site-redirects/helpers.js'

/** A page view as the renderer sends it (tracking.ts: a session of the request, a location in the site), with `extra` over it. */
export function pageView(w: { siteUrl: string; spaces: { guide: { id: string } } }, extra: Record<string, any> = {}) {
  const { session, location, ...rest } = extra
  return {
    type: 'page_view',
    session: {
      sessionId: 'session-1',
      visitorId: 'visitor-1',
      userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36',
      language: 'en-US',
      cookies: {},
      referrer: null,
      ...session,
    },
    location: {
      url: `${w.siteUrl}/`,
      siteSection: null,
      siteSpace: null,
      siteShareKey: null,
      space: w.spaces.guide.id,
      revision: null,
      page: null,
      ...location,
    },
    ...rest,
  }
}

/** The published site of the redirects world, and `track(events, token?)` (no token: as the renderer sends them). */
export async function insightsWorld() {
  const w = await redirectWorld()
  const track = (events: unknown[], token?: string) => call(w.api, token, 'POST', `${w.base}/insights/events`, { events })
  const aggregate = (body: unknown, token = w.tokens.ada) => call(w.api, token, 'POST', `${w.base}/insights/events/aggregate`, body)
  return { ...w, track, aggregate, pageView: (extra: Record<string, any> = {}) => pageView(w, extra) }
}
