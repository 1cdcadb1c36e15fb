import type { Context } from '../context.js'
import type { SiteRow } from '../sites/rows.js'
import { checkDestination } from './destination.js'
import { checkWritten, deleteRedirect, redirectOfSource } from './model.js'
import type { SiteRedirectRow } from './rows.js'
import type { BulkItem, BulkResult } from './schemas.js'
import { sourceKey } from './source.js'

/**
 * `bulkUpsertSiteRedirects`: up to 500 items, in order, each on the live or the draft redirect of
 * its source (an upsert, a deletion with `destination: null`, or `intent: publish`), with a
 * result per item. An item that cannot apply to the redirects as they are (nothing to delete or
 * publish, a source and intent already handled earlier in the request: the first one wins, as
 * GitBook's CSV import does) gets an `error` result and changes nothing; the others apply. An item
 * that is invalid (a destination outside the site, a redirect leading back to its source or into a
 * loop once every item is applied) fails the whole request with a 400 naming it, and nothing is
 * written.
 */
export function bulkUpsert(ctx: Context, site: SiteRow, items: readonly BulkItem[]): BulkResult[] {
  const handled = new Set<string>()
  /** Rows written live by the request, with the field a failure names: checked once all items are in. */
  const written: Array<{ id: string; field: string }> = []
  const results = items.map((item, i): BulkResult => {
    const field = `redirects[${i}]`
    const draft = item.intent === 'draft'
    const once = `${item.intent}/${sourceKey(item.source)}`
    if (handled.has(once))
      return { status: 'error', source: item.source, draft, error: 'this source and intent come earlier in the request: only the first is processed' }
    handled.add(once)

    if (item.intent === 'publish') {
      const row = redirectOfSource(ctx, site.id, true, item.source)
      if (!row) return { status: 'error', source: item.source, draft: false, error: 'no draft redirect of this source to publish' }
      const live = publish(ctx, site, row)
      written.push({ id: live.id, field: `${field}.source` })
      return { status: 'published', source: item.source, draft: false, id: live.id }
    }

    const existing = redirectOfSource(ctx, site.id, draft, item.source)
    if (item.destination === null) {
      if (!existing) return { status: 'error', source: item.source, draft, error: `no ${item.intent} redirect of this source to delete` }
      deleteRedirect(ctx, existing)
      return { status: 'deleted', source: item.source, draft }
    }
    const destination = checkDestination(ctx, site, item.destination, `${field}.destination`)
    const fields = {
      source: item.source,
      captureWildcard: item.captureWildcard,
      destination,
      ...(item.permanent !== undefined && { permanent: item.permanent }),
    }
    const row = existing
      ? ctx.tx.update('siteRedirects', { ...existing, ...fields, updatedAt: ctx.nowIso() })
      : ctx.tx.insert('siteRedirects', {
          id: ctx.newId(),
          site: site.id,
          organization: site.organization,
          draft,
          permanent: false,
          ...fields,
          createdAt: ctx.nowIso(),
        })
    written.push({ id: row.id, field: `${field}.destination` })
    return { status: existing ? 'updated' : 'created', source: item.source, draft, id: row.id }
  })
  // Loops are looked for in the redirects as the whole request leaves them (an item may remove
  // what an earlier one would have looped through); a row written twice is checked as it ends.
  const checked = new Set<string>()
  for (const { id, field } of written) {
    const row = ctx.tx.get('siteRedirects', id)
    if (!row || checked.has(id)) continue
    checked.add(id)
    checkWritten(ctx, site, row, field)
  }
  return results
}

/**
 * Publish a draft: the live redirect of its source takes the draft's settings (or the draft
 * becomes live when there is none), and the draft goes.
 */
function publish(ctx: Context, site: SiteRow, draft: SiteRedirectRow): SiteRedirectRow {
  const live = redirectOfSource(ctx, site.id, false, draft.source)
  const now = ctx.nowIso()
  if (!live) return ctx.tx.update('siteRedirects', { ...draft, draft: false, updatedAt: now })
  deleteRedirect(ctx, draft)
  const { source, captureWildcard, permanent, destination } = draft
  return ctx.tx.update('siteRedirects', { ...live, source, captureWildcard, permanent, destination, updatedAt: now })
}
