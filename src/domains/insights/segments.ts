import type { ReadContext } from '../context.js'
import type { SiteRow } from '../sites/rows.js'

/** The segments a list answers at most: the biggest (by events). */
export const MAX_SEGMENTS = 100

const describe = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value))

/** A segment's title: its claims as `name: value` pairs, or "Visitors without claims". */
function titleOf(claims: Record<string, unknown>): string {
  const pairs = Object.keys(claims)
    .sort()
    .map((k) => `${k}: ${describe(claims[k])}`)
  const title = pairs.length ? pairs.join(', ') : 'Visitors without claims'
  return title.length > 200 ? `${title.slice(0, 199)}…` : title
}

/**
 * The visitor segments of a site: its stored events grouped by the visitor's claims (equal claims,
 * one segment), with their counts of events, visitors and sessions; the biggest first.
 */
export function visitorSegments(ctx: ReadContext, site: SiteRow) {
  const segments = new Map<string, { claims: Record<string, unknown>; events: number; visitors: Set<string>; sessions: Set<string> }>()
  for (const { row } of ctx.tx.scan('siteInsightEvents', 'bySite', site.id)) {
    const key = JSON.stringify(
      Object.keys(row.claims)
        .sort()
        .map((k) => [k, row.claims[k]]),
    )
    let segment = segments.get(key)
    if (!segment) segments.set(key, (segment = { claims: row.claims, events: 0, visitors: new Set(), sessions: new Set() }))
    segment.events++
    segment.visitors.add(row.visitor)
    segment.sessions.add(row.session)
  }
  const items = [...segments.values()]
    .sort((a, b) => b.events - a.events)
    .slice(0, MAX_SEGMENTS)
    .map((s) => ({
      title: titleOf(s.claims),
      claims: s.claims as Record<string, never>,
      events: s.events,
      visitors: s.visitors.size,
      sessions: s.sessions.size,
    }))
  return { items, count: items.length }
}
