import type { z } from 'zod'
import type { Context, ReadContext } from '../context.js'
import { ApiError } from '../../core/errors.js'
import { compareKeys, paginate, type Page, type SortKey } from '../../core/paging.js'
import type { Entry } from '../../storage/port.js'
import type { SiteRow } from '../sites/rows.js'
import { checkDestination } from './destination.js'
import { leadsToItself, loopFrom } from './loops.js'
import { redirectListKey, redirectSourceKey, type SiteRedirectRow } from './rows.js'
import type { CreateSiteRedirectSchema, ListSiteRedirectsQuerySchema, UpdateSiteRedirectSchema } from './schemas.js'
import { sourceKey } from './source.js'

const bad = (field: string, rule: string) => new ApiError('BAD_REQUEST', `Invalid request: body field \`${field}\`: ${rule}`)

/** A redirect of the site, or undefined (one of another site is not found either). */
export function findRedirect(ctx: ReadContext, site: SiteRow, id: string): SiteRedirectRow | undefined {
  const row = ctx.tx.get('siteRedirects', id)
  return row && row.site === site.id ? row : undefined
}

/** A redirect of the site, or a 404. */
export function getRedirect(ctx: ReadContext, site: SiteRow, id: string): SiteRedirectRow {
  const row = findRedirect(ctx, site, id)
  if (!row) throw new ApiError('NOT_FOUND', 'Site redirect not found')
  return row
}

/** The live (or draft) redirect of a source, compared as source.ts says. */
export function redirectOfSource(ctx: ReadContext, site: string, draft: boolean, source: string): SiteRedirectRow | undefined {
  return ctx.tx.scan('siteRedirects', 'bySource', redirectSourceKey(site, draft, source), { limit: 1 })[0]?.row
}

const kindOf = (draft: boolean) => (draft ? 'draft' : 'live')

/** A 409 when another redirect of the site has this source and state (`except` is the one being changed). */
function requireFreeSource(ctx: ReadContext, site: string, draft: boolean, source: string, except?: string): void {
  const other = redirectOfSource(ctx, site, draft, source)
  if (other && other.id !== except) {
    throw new ApiError(
      'CONFLICT',
      `The source \`${source}\` already has a ${kindOf(draft)} redirect in this site (${other.id}; sources are compared case-insensitively)`,
    )
  }
}

/**
 * The checks a redirect must pass once written (in the request's transaction, other rows of the
 * request included): it does not lead back to its own source, and a live one is in no loop.
 * `field` is the body field the failure names.
 */
export function checkWritten(ctx: Context, site: SiteRow, row: SiteRedirectRow, field: string): void {
  if (leadsToItself(ctx, site, row)) throw bad(field, `leads back to its own source \`${row.source}\``)
  if (row.draft) return
  const loop = loopFrom(ctx, site, row)
  if (loop) throw bad(field, `the redirects would loop: ${loop.join(' → ')}`)
}

/** Create a redirect (201); its destination checked against the site, its source free for its state (409 otherwise). */
export function createRedirect(ctx: Context, site: SiteRow, input: z.output<typeof CreateSiteRedirectSchema>): SiteRedirectRow {
  const destination = checkDestination(ctx, site, input.destination, 'destination')
  requireFreeSource(ctx, site.id, input.draft, input.source)
  const row = ctx.tx.insert('siteRedirects', {
    id: ctx.newId(),
    site: site.id,
    organization: site.organization,
    source: input.source,
    draft: input.draft,
    captureWildcard: input.captureWildcard,
    permanent: input.permanent,
    destination,
    createdAt: ctx.nowIso(),
  })
  checkWritten(ctx, site, row, 'destination')
  return row
}

/** Change the fields given (no write when nothing changes); `draft: false` makes a draft live. */
export function updateRedirect(ctx: Context, site: SiteRow, row: SiteRedirectRow, patch: z.output<typeof UpdateSiteRedirectSchema>): SiteRedirectRow {
  const destination = patch.destination === undefined ? row.destination : checkDestination(ctx, site, patch.destination, 'destination')
  const next: SiteRedirectRow = {
    ...row,
    source: patch.source ?? row.source,
    draft: patch.draft ?? row.draft,
    captureWildcard: patch.captureWildcard ?? row.captureWildcard,
    permanent: patch.permanent ?? row.permanent,
    destination,
  }
  if (sameRedirect(next, row)) return row
  if (next.draft !== row.draft || sourceKey(next.source) !== sourceKey(row.source)) requireFreeSource(ctx, site.id, next.draft, next.source, row.id)
  const written = ctx.tx.update('siteRedirects', { ...next, updatedAt: ctx.nowIso() })
  // The failure names what the request changed that made it: the destination, else the source, else the state.
  checkWritten(ctx, site, written, patch.destination !== undefined ? 'destination' : patch.source !== undefined ? 'source' : 'draft')
  return written
}

/** Whether two versions of a redirect say the same (a destination's keys compared whatever their order: a loaded row may list them in another). */
function sameRedirect(a: SiteRedirectRow, b: SiteRedirectRow): boolean {
  const fields = ['source', 'draft', 'captureWildcard', 'permanent'] as const
  if (fields.some((k) => a[k] !== b[k])) return false
  const x = a.destination as Record<string, string>
  const y = b.destination as Record<string, string>
  return Object.keys(x).length === Object.keys(y).length && Object.keys(x).every((k) => x[k] === y[k])
}

export function deleteRedirect(ctx: Context, row: SiteRedirectRow): void {
  ctx.tx.delete('siteRedirects', row.id)
}

/**
 * One page of the site's live (or, with `draft`, draft) redirects: newest created first
 * (`createdAt`), newest changed first (`updatedAt`, a redirect never changed by its creation), or
 * by source (`source`, as compared). `search` keeps those whose source contains the text, in any case.
 */
export function listRedirects(ctx: ReadContext, site: SiteRow, query: z.output<typeof ListSiteRedirectsQuerySchema>): Page<SiteRedirectRow> {
  const text = query.search?.toLowerCase()
  const entries = ctx.tx
    .scan('siteRedirects', 'byList', redirectListKey(site.id, query.draft ?? false))
    .filter((e) => text === undefined || e.row.source.toLowerCase().includes(text))
  const keyOf = (e: Entry<SiteRedirectRow>): SortKey =>
    query.orderBy === 'source'
      ? [sourceKey(e.row.source), e.seq]
      : [query.orderBy === 'updatedAt' ? (e.row.updatedAt ?? e.row.createdAt) : e.row.createdAt, e.seq]
  const order = query.orderBy === 'source' ? 'asc' : 'desc'
  const sorted = entries.sort((a, b) => (order === 'asc' ? compareKeys(keyOf(a), keyOf(b)) : compareKeys(keyOf(b), keyOf(a))))
  const page = paginate(sorted, keyOf, query, order)
  return { ...page, items: page.items.map((e) => e.row) }
}
