import { ApiError } from '../../../core/errors.js'
import { field, type Batch, type ChangeOf } from './batch.js'
import { removeSubtree, unplace } from './tree.js'

/** `delete_page`: the page and its subpages, each noted as deleted. */
export function deletePage({ draft, note }: Batch, change: ChangeOf<'delete_page'>, i: number): void {
  const page = draft.get(change.page)
  if (!page) throw new ApiError('BAD_REQUEST', `${field(i, 'page')}: no page "${change.page}" in the change request`)
  unplace(draft, page.parent, change.page)
  removeSubtree(draft, change.page, (id) => note({ object: 'deleted_page', page: id }))
}
