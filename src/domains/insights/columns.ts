import type { SiteInsightEventRow } from './rows.js'
import type { Column } from './schemas.js'

/**
 * The value of a dimension column for one stored event, as the official
 * `SiteInsightsQueryEventsValues` types it; undefined when the event has none (a column of
 * another event type: `eventSearchQuery` of a page view), which leaves the event out of a query
 * grouping or filtering by it.
 */
type Extract = (row: SiteInsightEventRow, column: Column) => unknown

const data = (row: SiteInsightEventRow, key: string) => row.data[key] as Record<string, unknown> | string | number | undefined
const obj = (row: SiteInsightEventRow, key: string) => {
  const value = data(row, key)
  return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined
}

function parsedUrl(text: string): URL | undefined {
  try {
    return new URL(text)
  } catch {
    return undefined
  }
}

const utm =
  (name: string): Extract =>
  (row) =>
    parsedUrl(row.url)?.searchParams.get(name) ?? ''

/**
 * The start of the `interval` an instant falls in (UTC; weeks start on Monday). Stored instants
 * are ISO strings of `toISOString` (model.ts, seed.ts): hours, days and months are cut from the
 * text, with no date parsed for each of a site's thousands of events.
 */
export function bucketOf(at: string, interval: 'hour' | 'day' | 'week' | 'month'): string {
  if (interval === 'hour') return `${at.slice(0, 13)}:00:00.000Z`
  if (interval === 'day') return `${at.slice(0, 10)}T00:00:00.000Z`
  if (interval === 'month') return `${at.slice(0, 7)}-01T00:00:00.000Z`
  const d = new Date(`${at.slice(0, 10)}T00:00:00.000Z`)
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7))
  return d.toISOString()
}

/** The path of an absolute URL, read without parsing it whole (`new URL` for each event is the cost of a query). */
function pathOf(url: string): string {
  const m = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*([^?#]*)/i.exec(url)
  return m ? m[1] || '/' : ''
}

function linkTarget(row: SiteInsightEventRow): Record<string, unknown> | undefined {
  return obj(row, 'link')?.target as Record<string, unknown> | undefined
}

const EXTRACT: Record<string, Extract> = {
  datetime: (row, column) => bucketOf(row.at, (column as { interval?: 'hour' | 'day' | 'week' | 'month' }).interval ?? 'day'),
  dayOfWeek: (row) => ((new Date(row.at).getUTCDay() + 6) % 7) + 1,
  hourOfDay: (row) => new Date(row.at).getUTCHours(),
  url: (row) => row.url,
  urlPath: (row) => pathOf(row.url),
  eventType: (row) => row.type,
  siteSection: (row) => row.siteSection,
  siteSpace: (row) => row.siteSpace,
  siteShareKey: (row) => row.siteShareKey,
  displayContext: (row) => row.displayContext,
  page: (row) => (row.space ? { page: row.page, space: row.space } : null),
  // This API locates no visitor (no IP address is kept).
  visitorGeoCountry: () => null,
  visitorGeoPoint: () => null,
  visitorDevice: (row) => row.device,
  visitorBrowser: (row) => row.browser,
  visitorOS: (row) => row.os,
  visitorBot: (row) => row.bot,
  visitorLanguage: (row) => row.language,
  visitorAuthenticated: (row) => Object.keys(row.claims).length > 0,
  visitorClaim: (row, column) => {
    const value = row.claims[(column as { claim: string }).claim]
    return value === undefined ? undefined : typeof value === 'string' ? value : JSON.stringify(value)
  },
  // The names of the visitor's claims, sorted and joined with commas ('' without claims).
  visitorClaimProperty: (row) => Object.keys(row.claims).sort().join(','),
  eventLinkTargetValue: (row) => linkTarget(row),
  eventLinkTargetKind: (row) => linkTarget(row)?.kind,
  eventLinkTargetDomain: (row) => {
    const target = linkTarget(row)
    if (!target) return undefined
    return target.kind === 'url' && typeof target.url === 'string' ? (parsedUrl(target.url)?.hostname ?? null) : null
  },
  eventLinkPosition: (row) => obj(row, 'link')?.position,
  eventAPIOperationPath: (row) => (obj(row, 'operation')?.path as string | undefined) ?? null,
  eventAPIOperationMethod: (row) => (obj(row, 'operation')?.method as string | undefined) ?? null,
  eventLLMSVariant: (row) => data(row, 'llmsVariant') ?? null,
  // Not computed (no adaptive-content check at ingest): null.
  eventPageNotFoundType: () => null,
  eventMarkdownSource: (row) => data(row, 'markdownSource') ?? null,
  eventSearchQuery: (row) => data(row, 'query'),
  eventSearchResultRecordId: (row) => {
    const result = obj(row, 'result')
    return result ? ((result.recordId as string | undefined) ?? null) : undefined
  },
  eventPageFeedbackRating: (row) => obj(row, 'feedback')?.rating,
  eventPageFeedbackComment: (row) => obj(row, 'feedback')?.comment,
  eventAskResponseRating: (row) => (row.type === 'ask_rate_response' ? data(row, 'rating') : undefined),
  referrer: (row) => row.referrer ?? '',
  referrerDomain: (row) => (row.referrer ? (parsedUrl(row.referrer)?.hostname ?? '') : ''),
  utmSource: utm('utm_source'),
  utmMedium: utm('utm_medium'),
  utmCampaign: utm('utm_campaign'),
  utmTerm: utm('utm_term'),
  utmContent: utm('utm_content'),
  eventAdDomain: (row) => obj(row, 'ad')?.domain,
  eventAdPlacement: (row) => obj(row, 'ad')?.placement,
  eventTrademarkPlacement: (row) => data(row, 'placement'),
}

/** The metric columns: computed over a group of events. */
export const METRICS = new Set(['eventsCount', 'sessionsCount', 'visitorsCount', 'pageFeedbackRating', 'askResponseRating'])

export const isMetric = (column: Column) => METRICS.has(column.column)

export function dimensionOf(row: SiteInsightEventRow, column: Column): unknown {
  return EXTRACT[column.column]!(row, column)
}

export function metricOf(rows: readonly SiteInsightEventRow[], column: Column): unknown {
  switch (column.column) {
    case 'eventsCount':
      return rows.length
    case 'sessionsCount':
      return new Set(rows.map((r) => r.session)).size
    case 'visitorsCount':
      return new Set(rows.map((r) => r.visitor)).size
    case 'pageFeedbackRating': {
      const counts = { ok: 0, good: 0, bad: 0 }
      for (const r of rows) {
        const rating = obj(r, 'feedback')?.rating
        if (r.type === 'page_post_feedback' && (rating === 'ok' || rating === 'good' || rating === 'bad')) counts[rating]++
      }
      return counts
    }
    default: {
      const counts = { positive: 0, negative: 0 }
      for (const r of rows) {
        if (r.type !== 'ask_rate_response') continue
        if (data(r, 'rating') === 1) counts.positive++
        else if (data(r, 'rating') === -1) counts.negative++
      }
      return counts
    }
  }
}
