import type { z } from 'zod'
import type { Context, ReadContext } from '../context.js'
import { ApiError } from '../../core/errors.js'
import type { TranslationRow } from './rows.js'
import { emptyDocument, type JsonDocument } from '../content/document.js'
import { requestRun } from './run.js'
import type { CreateTranslationSchema } from './schemas.js'

/** A translation of the organization in the path, or a 404 (one of another organization is not revealed). */
export function requireTranslation(ctx: ReadContext, organization: string, id: string): TranslationRow {
  const row = ctx.tx.get('translations', id)
  if (!row || row.organization !== organization) throw new ApiError('NOT_FOUND', 'Translation not found')
  return row
}

const invalid = (field: string, rule: string) => new ApiError('BAD_REQUEST', `Invalid request: body field \`${field}\`: ${rule}`)

/**
 * Create a translation of a live space of the organization into another language (one per source
 * space and language: another is a 409), and start its first run: it answers `pending`.
 */
export function createTranslation(ctx: Context, organization: string, input: z.output<typeof CreateTranslationSchema>): TranslationRow {
  const source = ctx.tx.get('spaces', input.source.space)
  if (!source || source.deletedAt || source.organization !== organization || !ctx.access.can('space', source.id, 'view')) {
    throw invalid('source.space', `no space "${input.source.space}" in this organization`)
  }
  if (input.language === input.source.language) throw invalid('language', `must differ from \`source.language\` ("${input.source.language}")`)
  for (const { row } of ctx.tx.scan('translations', 'bySource', source.id)) {
    if (row.language === input.language) throw new ApiError('CONFLICT', `Space "${source.id}" already has a translation into "${input.language}" (${row.id})`)
  }
  const now = ctx.nowIso()
  const row = ctx.tx.insert('translations', {
    id: ctx.newId(),
    organization,
    source: { space: source.id, language: input.source.language },
    language: input.language,
    instructions: input.instructions ?? emptyDocument(),
    createdBy: ctx.actor.user,
    createdAt: now,
    updatedAt: now,
    status: 'pending',
    runToken: '',
    stats: { runs: 0, totalWords: 0, totalPages: 0, totalDuration: 0, latestRunDuration: 0, latestPages: 0, latestWords: 0 },
    translatedPages: [],
    pages: {},
    files: {},
  })
  return requestRun(ctx, row)
}

/**
 * Replace the instructions. New instructions make the next run translate every page again (the
 * earlier translations followed the old ones); the same instructions change nothing.
 */
export function updateInstructions(ctx: Context, row: TranslationRow, instructions: JsonDocument): TranslationRow {
  if (JSON.stringify(instructions) === JSON.stringify(row.instructions)) return row
  return ctx.tx.update('translations', { ...row, instructions, pages: {}, updatedAt: ctx.nowIso() })
}

/** Delete a translation; its result space stays. A run under way finds it gone and writes nothing. */
export function deleteTranslation(ctx: Context, organization: string, id: string): boolean {
  const row = ctx.tx.get('translations', id)
  if (!row || row.organization !== organization) return false
  return ctx.tx.delete('translations', id)
}

/**
 * A purged space takes the translations of it along; a translation whose result it was loses its
 * `result` (and what a next run would reuse from it): its next run makes a new result space.
 */
export function removeSpaceTranslations(ctx: Context, space: string): void {
  for (const { row } of ctx.tx.scan('translations', 'bySource', space)) ctx.tx.delete('translations', row.id)
  for (const { row } of ctx.tx.scan('translations', 'byResult', space)) {
    const { result: _purged, ...rest } = row
    ctx.tx.update('translations', { ...rest, pages: {}, files: {} })
  }
}
