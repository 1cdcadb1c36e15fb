import type { ReadContext } from '../context.js'
import { ApiError } from '../../core/errors.js'
import type { ReadTx } from '../../storage/port.js'
import type { AppSchema } from '../schema.js'
import type { ReusableContentVersionRow, RevisionRow } from './rows.js'

/**
 * Reusable contents of a revision (the official `RevisionReusableContent`): titled documents a
 * page includes with a `reusable-content` block (`data.ref: { kind: 'reusable-content',
 * reusableContent }`). A revision names each by its stable id and current version
 * (`RevisionRow.reusableContents`); the version's id is the content's `document` id.
 */

/** How many reusable contents a revision holds at most (a batch, an import or a merge making more is refused). */
export const MAX_REUSABLE_CONTENTS = 1000

const NONE: Readonly<Record<string, string>> = Object.freeze({})

/** The revision's reusable contents: id → version id, in creation order. */
export const reusableContentsOf = (rev: RevisionRow): Readonly<Record<string, string>> => rev.reusableContents ?? NONE

/** A reusable content of a revision by id (one read), or undefined. */
export function reusableContentIn(tx: ReadTx<AppSchema>, rev: RevisionRow, id: string): ReusableContentVersionRow | undefined {
  const version = Object.hasOwn(reusableContentsOf(rev), id) ? reusableContentsOf(rev)[id] : undefined
  return version === undefined ? undefined : tx.get('reusableContentVersions', version)
}

export function requireReusableContent(ctx: ReadContext, rev: RevisionRow, id: string): ReusableContentVersionRow {
  const found = reusableContentIn(ctx.tx, rev, id)
  if (!found) throw new ApiError('NOT_FOUND', 'Reusable content not found')
  return found
}

/** Every reusable content of a revision, in creation order. */
export function listReusableContents(tx: ReadTx<AppSchema>, rev: RevisionRow): ReusableContentVersionRow[] {
  const out: ReusableContentVersionRow[] = []
  for (const version of Object.values(reusableContentsOf(rev))) {
    const row = tx.get('reusableContentVersions', version)
    if (row) out.push(row)
  }
  return out
}

/** The official `RevisionReusableContent`: its id, title, document id and, when imported, its Git blob. */
export function encodeReusableContent(row: ReusableContentVersionRow) {
  return {
    id: row.reusableContent,
    title: row.title,
    document: row.id,
    ...(row.git && { git: row.git }),
  }
}
