import { ApiError } from '../../core/errors.js'
import type { ReadContext } from '../context.js'
import type { SiteRow } from '../sites/rows.js'
import { dimensionOf, isMetric, metricOf } from './columns.js'
import type { SiteInsightEventRow } from './rows.js'
import type { AggregationBody, Column, Filter } from './schemas.js'

type Values = { column: string; claim?: string; values: unknown[] }

/** A column's identity (`{column: 'datetime', interval: 'week'}` differs from the daily one). */
const keyOf = (column: Column | Filter) =>
  JSON.stringify([
    column.column,
    'claim' in column ? column.claim : undefined,
    'interval' in column ? column.interval : undefined,
    'precision' in column ? column.precision : undefined,
  ])

/** A JSON value as text with its keys sorted: equal values, equal texts. */
function canonical(value: unknown): string {
  if (typeof value === 'string') return `"${value}`
  if (value === undefined) return 'undefined'
  if (value === null || typeof value !== 'object') return JSON.stringify(value)
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  return `{${Object.keys(value)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
    .join(',')}}`
}

/** The first and last instants of a range: a preset ends now (the API's clock). */
function rangeOf(ctx: ReadContext, range: AggregationBody['range']): [string, string] {
  if (typeof range === 'object') {
    const from = new Date(range.from)
    const to = new Date(range.to)
    if (to < from) throw new ApiError('BAD_REQUEST', 'Invalid request: body field `range.to`: must not be before `range.from`')
    return [from.toISOString(), to.toISOString()]
  }
  const now = ctx.now()
  const from = new Date(now)
  if (range === 'last24Hours') from.setTime(now.getTime() - 24 * 3600_000)
  else if (range === 'last7Days') from.setUTCDate(from.getUTCDate() - 7)
  else if (range === 'last30Days') from.setUTCDate(from.getUTCDate() - 30)
  else if (range === 'last3Months') from.setUTCMonth(from.getUTCMonth() - 3)
  else from.setUTCFullYear(from.getUTCFullYear() - 1)
  return [from.toISOString(), now.toISOString()]
}

/** Order of two values of one column: numbers by value, instants by time, the rest by their text. */
function compare(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0
  if (a === null || a === undefined) return b === null || b === undefined ? 0 : -1
  if (b === null || b === undefined) return 1
  const x = canonical(a)
  const y = canonical(b)
  return x < y ? -1 : x > y ? 1 : 0
}

/** A filter ready to test values: the texts of its values in a set (an event is compared with a set, not with each value). */
interface Test {
  filter: Filter
  column: Column
  texts: Set<string>
}

const testOf = (filter: Filter): Test => ({ filter, column: filter as unknown as Column, texts: new Set(filter.values.map(canonical)) })

function passes(value: unknown, { filter, texts }: Test): boolean {
  const op = filter.operator ?? 'in'
  if (op === 'in' || op === 'notIn') return texts.has(canonical(value)) === (op === 'in')
  if (value === undefined || value === null || filter.values.length === 0) return false
  const bound = filter.values[0]
  const c = filter.column === 'datetime' ? Date.parse(value as string) - Date.parse(bound as string) : compare(value, bound)
  return op === 'greaterThan' ? c > 0 : op === 'greaterThanOrEqual' ? c >= 0 : op === 'lessThan' ? c < 0 : c <= 0
}

/**
 * Answer an aggregation query from the site's stored events (docs/behaviour/insights.md): events
 * in the range pass the filters on dimensions; they are grouped by the `groupBy` columns and the
 * dimensions of `select`; filters on metrics then keep groups; groups are ordered and cut at `limit`.
 */
export function aggregateEvents(ctx: ReadContext, site: SiteRow, body: AggregationBody) {
  const [from, to] = rangeOf(ctx, body.range)
  const tests = ((body.where ?? []) as Filter[]).map(testOf)
  const eventTests = tests.filter((t) => !isMetric(t.column))
  const groupTests = tests.filter((t) => isMetric(t.column))

  const select = body.select?.length ? body.select : [{ column: 'eventsCount' } as Column]
  const dimensions: Column[] = []
  const seen = new Set<string>()
  for (const column of [...(body.groupBy ?? []), ...select.filter((c) => !isMetric(c))]) {
    if (isMetric(column) || seen.has(keyOf(column))) continue
    seen.add(keyOf(column))
    dimensions.push(column)
  }
  const output: Column[] = [...dimensions, ...select.filter((c) => isMetric(c) && !seen.has(keyOf(c)) && seen.add(keyOf(c)))]

  const groups = new Map<string, { keys: unknown[]; rows: SiteInsightEventRow[] }>()
  for (const { row } of ctx.tx.scan('siteInsightEvents', 'bySite', site.id)) {
    // Stored instants are ISO strings of one form: compared as text.
    if (row.at < from || row.at > to) continue
    if (!eventTests.every((t) => passes(dimensionOf(row, t.column), t))) continue
    const keys = dimensions.map((c) => dimensionOf(row, c))
    if (keys.includes(undefined)) continue
    const key = keys.map(canonical).join('\u0000')
    let group = groups.get(key)
    if (!group) groups.set(key, (group = { keys, rows: [] }))
    group.rows.push(row)
  }

  const valueOf = (group: { keys: unknown[]; rows: SiteInsightEventRow[] }, column: Column): unknown => {
    if (isMetric(column)) return metricOf(group.rows, column)
    const at = dimensions.findIndex((d) => keyOf(d) === keyOf(column))
    if (at >= 0) return group.keys[at]
    return group.rows[0] ? dimensionOf(group.rows[0], column) : null
  }
  let list = [...groups.values()].filter((g) => groupTests.every((t) => passes(metricOf(g.rows, t.column), t)))
  // A query without dimensions has one group, even when no event matched (counts of 0).
  if (dimensions.length === 0 && list.length === 0 && groupTests.every((t) => passes(metricOf([], t.column), t))) list = [{ keys: [], rows: [] }]

  const order = body.order ?? defaultOrder(dimensions, output)
  if (order) {
    const sign = order.direction === 'asc' ? 1 : -1
    const sortKey = (g: (typeof list)[number]) => {
      const v = valueOf(g, order.by)
      // Ratings order by their total.
      return v && typeof v === 'object' && !Array.isArray(v) && order.by.column.endsWith('Rating')
        ? Object.values(v).reduce((a: number, b) => a + (b as number), 0)
        : v
    }
    const keyed = list.map((g) => ({ g, k: sortKey(g) }))
    keyed.sort((a, b) => sign * compare(a.k, b.k))
    list = keyed.map((x) => x.g)
  }
  list = list.slice(0, body.limit ?? 1000)

  const columns: Values[] = output.map((column) => ({
    column: column.column,
    ...(column.column === 'visitorClaim' && { claim: column.claim }),
    values: list.map((g) => valueOf(g, column)),
  }))
  return { columns }
}

/** Time series read in time order; otherwise the biggest groups first (the first metric, descending). */
function defaultOrder(dimensions: Column[], output: Column[]): AggregationBody['order'] | undefined {
  const time = dimensions.find((c) => c.column === 'datetime')
  if (time) return { by: time, direction: 'asc' }
  const metric = output.find((c) => c.column === 'eventsCount' || c.column === 'sessionsCount' || c.column === 'visitorsCount')
  return metric && dimensions.length > 0 ? { by: metric, direction: 'desc' } : undefined
}
