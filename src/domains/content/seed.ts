import { z } from 'zod'
import { SeedIdSchema, SeedTimestampSchema, seedRule } from '../../state/seed.js'
import { JsonDocumentSchema } from './schemas.js'

const ids = z.array(SeedIdSchema)

/**
 * Content rows in a state document, as `api.dump()` writes them: files, page versions, index
 * buckets and revisions (immutable rows, loaded as they are, their references checked).
 * A file's bytes come in the document's `blobs` (see state/seed.ts); its row names them by key.
 */
export const contentSeedRules = [
  seedRule({
    collection: 'files',
    row: (d) =>
      z.strictObject({
        id: SeedIdSchema,
        space: SeedIdSchema,
        name: z.string().min(1).max(256),
        contentType: z.string().min(1),
        size: z.number().int().min(0),
        dimensions: z.object({ width: z.number(), height: z.number() }).optional(),
        blob: z
          .string()
          .min(1)
          .transform((key, c) => d.blob(key) ?? (c.addIssue({ code: 'custom', message: `no bytes for blob "${key}" (give them in the document's \`blobs\`)` }), z.NEVER)),
        createdAt: SeedTimestampSchema.default(d.now),
        git: z.strictObject({ oid: z.string().min(1), path: z.string().min(1) }).optional(),
      }),
    check: ({ ctx, fail }, row) => {
      if (!ctx.tx.get('spaces', row.space)) fail('space', `no space "${row.space}"`)
    },
  }),
  seedRule({
    collection: 'pageVersions',
    row: (d) =>
      z.strictObject({
        id: SeedIdSchema,
        page: SeedIdSchema,
        space: SeedIdSchema,
        type: z.enum(['document', 'group', 'link']).default('document'),
        title: z.string().min(1),
        slug: z.string().max(100),
        parent: SeedIdSchema.optional(),
        children: ids.default([]),
        emoji: z.string().optional(),
        icon: z.string().optional(),
        description: z.string().optional(),
        hidden: z.boolean().optional(),
        noIndex: z.boolean().optional(),
        noRobotsIndex: z.boolean().optional(),
        condition: z.string().optional(),
        document: JsonDocumentSchema,
        createdAt: SeedTimestampSchema.default(d.now),
        updatedAt: SeedTimestampSchema.default(d.now),
      }),
    check: ({ ctx, fail }, row) => {
      if (!ctx.tx.get('spaces', row.space)) fail('space', `no space "${row.space}"`)
    },
  }),
  seedRule({
    collection: 'contentBuckets',
    row: () => z.strictObject({ id: SeedIdSchema, entries: z.record(z.string(), SeedIdSchema) }),
    check: ({ ctx, fail }, row) => {
      for (const [page, version] of Object.entries(row.entries)) if (ctx.tx.get('pageVersions', version)?.page !== page) fail(`entries.${page}`, `no version "${version}" of page "${page}"`)
    },
  }),
  seedRule({
    collection: 'revisions',
    row: (d) =>
      z.strictObject({
        id: SeedIdSchema,
        space: SeedIdSchema,
        parents: ids.default([]),
        type: z.enum(['edits', 'merge', 'update', 'rollback']).default('edits'),
        createdAt: SeedTimestampSchema.default(d.now),
        mergedFrom: SeedIdSchema.optional(),
        rootPages: ids.default([]),
        buckets: z.array(z.string()).default([]),
        files: ids.default([]),
        variables: z.record(z.string(), z.string()).default({}),
        git: z
          .strictObject({ oid: z.string().min(1), message: z.string(), createdByGitBook: z.boolean().default(false), ref: z.string().optional(), url: z.string().optional() })
          .optional(),
      }),
    check: ({ ctx, fail }, row) => {
      if (!ctx.tx.get('spaces', row.space)) fail('space', `no space "${row.space}"`)
      row.buckets.forEach((b, i) => {
        if (b !== '' && !ctx.tx.get('contentBuckets', b)) fail(`buckets.${i}`, `no content bucket "${b}"`)
      })
      row.files.forEach((f, i) => {
        if (ctx.tx.get('files', f)?.space !== row.space) fail(`files.${i}`, `no file "${f}" in space "${row.space}"`)
      })
    },
  }),
]
