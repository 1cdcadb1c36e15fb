import { SeedTimestampSchema, seedRule } from '../../state/seed.js'
import { formatOf } from './read.js'
import { OpenAPISpecRowSchema, OpenAPISpecVersionRowSchema } from './rows.js'

const specRow = OpenAPISpecRowSchema.shape

/**
 * OpenAPI specs and their versions in a state document. A spec left `pending` or in `progress`
 * (a dump taken while it was processed) needs its `pendingSource`, and is processed again once
 * the document is loaded (resume.ts); a `complete` one has none.
 */
export const openapiSpecSeedRules = [
  seedRule({
    collection: 'openapiSpecs',
    row: (d) =>
      // The error count is the errors' when left out.
      OpenAPISpecRowSchema.partial({ lastProcessedErrorCount: true })
        .extend({
          createdAt: SeedTimestampSchema.default(d.now),
          updatedAt: SeedTimestampSchema.default(d.now),
          visibility: specRow.visibility.default('private'),
          processingState: specRow.processingState.default('complete'),
          run: specRow.run.default(1),
          lastProcessedErrors: specRow.lastProcessedErrors.default([]),
        })
        .transform((row) => ({ ...row, lastProcessedErrorCount: row.lastProcessedErrorCount ?? row.lastProcessedErrors.length })),
    check: ({ ctx, fail }, row) => {
      if (!ctx.tx.get('organizations', row.organization)) return fail('organization', `no organization "${row.organization}"`)
      // The first row with a slug keeps it: a later one is at fault.
      if (ctx.tx.scan('openapiSpecs', 'bySlug', `${row.organization}/${row.slug}`, { limit: 1 })[0]!.row.id !== row.id)
        fail('slug', `"${row.slug}" is the slug of another spec of organization "${row.organization}"`)
      if (row.processingState === 'complete' && row.pendingSource) fail('pendingSource', 'must be left out of a complete spec')
      // Processed again once the document is in (the job that was running is gone): resume.ts.
      if (row.processingState !== 'complete' && !row.pendingSource)
        fail('pendingSource', `is required while the spec is ${row.processingState} (the source to process)`)
    },
  }),
  seedRule({
    collection: 'openapiSpecVersions',
    row: (d) =>
      // The spec's organization and the text's format are filled in when left out.
      OpenAPISpecVersionRowSchema.partial({ organization: true, format: true })
        .extend({ createdAt: SeedTimestampSchema.default(d.now) })
        .transform(({ organization, format, ...v }) => ({
          ...v,
          organization: organization ?? d.tx.get('openapiSpecs', v.spec)?.organization ?? '',
          format: format ?? formatOf(v.text),
        })),
    check: ({ ctx, fail }, row) => {
      const spec = ctx.tx.get('openapiSpecs', row.spec)
      if (!spec) return fail('spec', `no OpenAPI spec "${row.spec}"`)
      if (spec.organization !== row.organization) fail('organization', `must be the spec's organization "${spec.organization}"`)
    },
    finish: ({ ctx, fail }) => {
      ctx.tx.all('openapiSpecs').forEach((spec, i) => {
        if (spec.lastVersion === undefined) return
        if (ctx.tx.get('openapiSpecVersions', spec.lastVersion)?.spec !== spec.id)
          fail(`openapiSpecs[${i}].lastVersion`, `no version "${spec.lastVersion}" of this spec`)
      })
    },
  }),
]
