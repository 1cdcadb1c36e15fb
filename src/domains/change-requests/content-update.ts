import type { Context } from '../context.js'
import type { ChangeRequestRow } from './rows.js'
import { RevisionDraft } from '../content/draft.js'
import { requireRevision } from '../content/revision.js'
import { requireContentEditable, withContributor } from './model.js'
import type { ContentChange } from './schemas.js'
import type { Batch, BatchRef, Outcome, Prepared } from './content-update/batch.js'
import { deletePage } from './content-update/delete-page.js'
import { insertFiles } from './content-update/insert-files.js'
import { insertPage } from './content-update/insert-page.js'
import { insertedPageRefs, pageOfRef } from './content-update/refs.js'
import { revertPageChange } from './content-update/revert-page.js'
import { updatePage } from './content-update/update-page.js'
import { deleteReusableContent, insertReusableContent, updateReusableContent } from './content-update/reusable-content.js'

export type { PreparedFile } from './content-update/batch.js'

/**
 * Apply a batch of content changes to a change request: one new revision for the whole batch,
 * or nothing at all when any change is invalid (the transaction rolls back). Main is untouched.
 * Each kind of change is applied by its own module (content-update/<kind>.ts), in the batch's order.
 */
export function applyContentChanges(ctx: Context, cr: ChangeRequestRow, changes: readonly ContentChange[], prepared: Prepared) {
  const space = requireContentEditable(ctx, cr)
  const current = requireRevision(ctx, space, cr.revision)
  const draft = new RevisionDraft(ctx, current)
  const now = ctx.nowIso()
  const outcomes = new Map<string, Outcome>()
  // One outcome per page, in first-touched order (Map keeps it): the first, unless the page is deleted later.
  const note = (o: Outcome) => {
    if (!outcomes.has(o.page) || o.object === 'deleted_page') outcomes.set(o.page, o)
  }

  // Refs first: pages and files of the batch can link to each other whatever their order.
  const refs = new Map<string, BatchRef>()
  const pageIds = insertedPageRefs(ctx, changes, refs)
  const files = insertFiles(ctx, space, draft, prepared.files, refs, now)
  const batch: Batch = { ctx, cr, space, draft, now, prepared, refs, pageIds, pageOf: pageOfRef(draft, refs), note }

  changes.forEach((change, i) => {
    switch (change.operation) {
      case 'insert_page':
        return insertPage(batch, change, i)
      case 'update_page':
        return updatePage(batch, change, i)
      case 'delete_page':
        return deletePage(batch, change, i)
      case 'revert_page':
        return revertPageChange(batch, change, i)
      case 'insert_files':
        // Inserted with the refs, above.
        return
      case 'insert_reusable_content':
        return insertReusableContent(batch, change, i)
      case 'update_reusable_content':
        return updateReusableContent(batch, change, i)
      case 'delete_reusable_content':
        return deleteReusableContent(batch, change, i)
    }
  })

  const revision = draft.commit({ type: 'edits', parents: [current.id], changeRequest: cr.id })
  const updated = ctx.tx.update('changeRequests', { ...cr, revision: revision.id, updatedAt: now, contributors: withContributor(ctx, cr) })
  return { changeRequest: updated, outcomes: [...outcomes.values()], files }
}
