import { z } from 'zod'
import { SeedIdSchema, SeedTimestampSchema, seedRule } from '../../state/seed.js'
import { emptyDocument } from '../content/document.js'
import { JsonDocumentSchema } from '../content/schemas.js'
import { LanguageSchema } from '../spaces/schemas.js'

const count = z.number().int().min(0)

/**
 * Translations in a state document. What runs left (the result, statistics, the pages and files
 * reused by the next run) loads as it was; a run does not travel in a document: a translation
 * saved `pending` or `running` is run again once loaded (resume.ts).
 */
export const translationSeedRules = [
  seedRule({
    collection: 'translations',
    row: (d) =>
      z.strictObject({
        id: SeedIdSchema,
        organization: SeedIdSchema,
        source: z.strictObject({ space: SeedIdSchema, language: LanguageSchema }),
        language: LanguageSchema,
        instructions: JsonDocumentSchema.default(emptyDocument),
        createdBy: SeedIdSchema,
        createdAt: SeedTimestampSchema.default(d.now),
        updatedAt: SeedTimestampSchema.default(d.now),
        status: z.enum(['pending', 'running', 'completed']).default('completed'),
        runToken: z.string().default(''),
        runStartedAt: SeedTimestampSchema.optional(),
        result: z.strictObject({ space: SeedIdSchema, revision: SeedIdSchema, language: LanguageSchema }).optional(),
        stats: z
          .strictObject({ runs: count, totalWords: count, totalPages: count, totalDuration: count, latestRunDuration: count, latestPages: count, latestWords: count })
          .default({ runs: 0, totalWords: 0, totalPages: 0, totalDuration: 0, latestRunDuration: 0, latestPages: 0, latestWords: 0 }),
        translatedPages: z.array(SeedIdSchema).default([]),
        pages: z.record(z.string(), z.strictObject({ source: SeedIdSchema, result: SeedIdSchema })).default({}),
        files: z.record(z.string(), SeedIdSchema).default({}),
        lastRunError: z.strictObject({ message: z.string(), at: SeedTimestampSchema }).optional(),
      }),
    check: ({ ctx, fail }, row) => {
      if (!ctx.tx.get('organizations', row.organization)) fail('organization', `no organization "${row.organization}"`)
      if (!ctx.tx.get('spaces', row.source.space)) fail('source.space', `no space "${row.source.space}"`)
      if (!ctx.tx.get('users', row.createdBy)) fail('createdBy', `no user "${row.createdBy}"`)
      if (row.language === row.source.language) fail('language', 'must differ from `source.language`')
      if (row.result && row.result.language !== row.language) fail('result.language', 'must be the translation\'s `language`')
      for (const [page, { source, result }] of Object.entries(row.pages)) {
        if (ctx.tx.get('pageVersions', source)?.page !== page) fail(`pages.${page}.source`, `no version "${source}" of page "${page}"`)
        if (ctx.tx.get('pageVersions', result)?.page !== page) fail(`pages.${page}.result`, `no version "${result}" of page "${page}"`)
      }
      for (const [file, copy] of Object.entries(row.files)) {
        if (!ctx.tx.get('files', file)) fail(`files.${file}`, `no file "${file}"`)
        if (!ctx.tx.get('files', copy)) fail(`files.${file}`, `no file "${copy}"`)
      }
    },
    finish: ({ ctx, fail }) => {
      const seen = new Set<string>()
      ctx.tx.all('translations').forEach((t, i) => {
        const key = `${t.source.space}/${t.language}`
        if (seen.has(key)) fail(`translations[${i}].language`, `space "${t.source.space}" already has a translation into "${t.language}"`)
        seen.add(key)
      })
    },
  }),
]
