import type { z } from 'zod'
import type { ReadContext } from '../context.js'
import type { TranslationRow } from './rows.js'
import type { TranslationSchema } from './schemas.js'

/** A translation as answered: `permissions` from POLICY.organization (viewTranslations, manageTranslations). */
export function encodeTranslation(ctx: ReadContext, row: TranslationRow): z.input<typeof TranslationSchema> {
  const level = ctx.access.level('organization', row.organization)
  const out: z.input<typeof TranslationSchema> = {
    object: 'translation',
    id: row.id,
    status: row.status,
    source: row.source as z.input<typeof TranslationSchema>['source'],
    language: row.language as z.input<typeof TranslationSchema>['language'],
    instructions: row.instructions,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    stats: row.stats,
    permissions: {
      view: ctx.access.allows('organization', level, 'viewTranslations'),
      edit: ctx.access.allows('organization', level, 'manageTranslations'),
    },
    urls: { location: ctx.urls.api(`/orgs/${row.organization}/translations/${row.id}`) },
  }
  if (row.result) out.result = row.result as NonNullable<typeof out.result>
  if (row.lastRunError) out.lastRunError = row.lastRunError
  return out
}
