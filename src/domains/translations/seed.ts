import { SeedTimestampSchema, seedRule } from '../../state/seed.js'
import { emptyDocument } from '../content/document.js'
import { TranslationRowSchema } from './rows.js'

const translationRow = TranslationRowSchema.shape

/**
 * Translations in a state document. What runs left (the result, statistics, the pages and files
 * reused by the next run) loads as it was; a run does not travel in a document: a translation
 * saved `pending` or `running` is run again once loaded (resume.ts).
 */
export const translationSeedRules = [
  seedRule({
    collection: 'translations',
    row: (d) =>
      TranslationRowSchema.extend({
        instructions: translationRow.instructions.default(emptyDocument),
        createdAt: SeedTimestampSchema.default(d.now),
        updatedAt: SeedTimestampSchema.default(d.now),
        status: translationRow.status.default('completed'),
        runToken: translationRow.runToken.default(''),
        stats: translationRow.stats.default({ runs: 0, totalWords: 0, totalPages: 0, totalDuration: 0, latestRunDuration: 0, latestPages: 0, latestWords: 0 }),
        translatedPages: translationRow.translatedPages.default([]),
        pages: translationRow.pages.default({}),
        files: translationRow.files.default({}),
      }),
    check: ({ ctx, fail }, row) => {
      if (!ctx.tx.get('organizations', row.organization)) fail('organization', `no organization "${row.organization}"`)
      if (!ctx.tx.get('spaces', row.source.space)) fail('source.space', `no space "${row.source.space}"`)
      if (!ctx.tx.get('users', row.createdBy)) fail('createdBy', `no user "${row.createdBy}"`)
      if (row.language === row.source.language) fail('language', 'must differ from `source.language`')
      if (row.result && row.result.language !== row.language) fail('result.language', "must be the translation's `language`")
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
