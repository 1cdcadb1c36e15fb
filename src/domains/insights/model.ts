import { ApiError } from '../../core/errors.js'
import type { Context, ReadContext } from '../context.js'
import type { SiteRow } from '../sites/rows.js'
import type { SiteInsightEventRow } from './rows.js'
import type { SiteInsightsEvent } from './schemas.js'
import { classifyUserAgent } from './ua.js'

/** The events kept per site: past it the site's oldest go first (docs/behaviour/insights.md). */
export const MAX_EVENTS_PER_SITE = 5000
/** The events kept in all: past it the oldest of any site go first. */
export const MAX_EVENTS_TOTAL = 50_000
/** How far from the API's clock an event's `timestamp` may be (the official "within 5 minutes"). */
export const TIMESTAMP_TOLERANCE_MS = 5 * 60 * 1000
/** The longest text an event keeps (ids, queries, comments): longer is cut there. */
export const MAX_KEPT_TEXT = 2048
/** The largest claims an event keeps (as JSON text): larger ones are kept as `{}`. */
export const MAX_KEPT_CLAIMS = 1024

const clip = (s: string, n = MAX_KEPT_TEXT) => (s.length > n ? s.slice(0, n) : s)
const clipNullable = (s: string | null | undefined, n = MAX_KEPT_TEXT) => (s == null ? null : clip(s, n))

/** A JSON value with every string cut at MAX_KEPT_TEXT (what an event's type adds, kept bounded). */
function clipDeep(value: unknown): unknown {
  if (typeof value === 'string') return clip(value)
  if (Array.isArray(value)) return value.map(clipDeep)
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, clipDeep(v)]))
  return value
}

/** The site a tracking request names; its answer, like the site's pages, is a 404 when the site is not published (to all but its members). */
export function trackedSite(ctx: ReadContext, site: SiteRow | undefined): SiteRow {
  if (!site || (!site.published && !ctx.access.can('site', site.id, 'access'))) throw new ApiError('NOT_FOUND', 'Site not found')
  return site
}

/** The stored row of an event (what aggregations read; nothing of the visitor's cookies, IP address or token). */
function eventRow(ctx: Context, site: SiteRow, event: SiteInsightsEvent, at: string): SiteInsightEventRow {
  const { session, location, timestamp: _t, type, ...data } = event
  const claims = session.visitorAuthClaims ?? {}
  return {
    id: ctx.newId(),
    site: site.id,
    organization: site.organization,
    at,
    type,
    visitor: clip(session.visitorId, 200),
    session: clip(session.sessionId, 200),
    url: location.url,
    displayContext: location.displayContext ?? 'site',
    siteSection: clipNullable(location.siteSection, 200),
    siteSpace: clipNullable(location.siteSpace, 200),
    siteShareKey: clipNullable(location.siteShareKey, 200),
    space: clipNullable(location.space, 200),
    revision: clipNullable(location.revision, 200),
    page: clipNullable(location.page, 200),
    referrer: session.referrer ? session.referrer : null,
    language: clipNullable(session.language, 64),
    ...classifyUserAgent(session.userAgent),
    claims: JSON.stringify(claims).length <= MAX_KEPT_CLAIMS ? claims : {},
    data: clipDeep(data) as SiteInsightEventRow['data'],
  }
}

/**
 * Store a request's events (all or none: a timestamp more than 5 minutes from the API's clock is a
 * 400 naming it), then drop the oldest past the caps.
 */
export function trackEvents(ctx: Context, site: SiteRow, events: readonly SiteInsightsEvent[]): void {
  const now = ctx.now().getTime()
  const times = events.map((event, i) => {
    if (event.timestamp === undefined) return ctx.nowIso()
    const at = Date.parse(event.timestamp)
    if (Math.abs(at - now) > TIMESTAMP_TOLERANCE_MS) {
      throw new ApiError('BAD_REQUEST', `Invalid request: body field \`events[${i}].timestamp\`: must be within 5 minutes of the current time`)
    }
    return new Date(at).toISOString()
  })
  events.forEach((event, i) => ctx.tx.insert('siteInsightEvents', eventRow(ctx, site, event, times[i]!)))
  keepNewest(ctx, 'siteInsightEvents', site.id, MAX_EVENTS_PER_SITE, MAX_EVENTS_TOTAL)
}

/**
 * What the insights keep is bounded per site and in all: past either cap, the oldest rows go (the
 * `bySite` and `all` indexes are in insertion order; their counts are kept by the store, so this
 * reads only what it removes).
 */
export function keepNewest(ctx: Context, collection: 'siteInsightEvents' | 'siteAgentFeedback', site: string, perSite: number, total: number): void {
  for (const [index, key, cap] of [
    ['bySite', site, perSite],
    ['all', 'all', total],
  ] as const) {
    const excess = ctx.tx.count(collection, index, key) - cap
    if (excess > 0) for (const { row } of ctx.tx.scan(collection, index, key, { limit: excess })) ctx.tx.delete(collection, (row as { id: string }).id)
  }
}
