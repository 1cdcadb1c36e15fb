import { z } from 'zod'
import { listQuery, queryBoolean } from '../../core/paging.js'
import { TimestampSchema } from '../common/schemas.js'
import { JsonDocumentSchema } from './document-schema.js'

/**
 * Shapes of a space's content: documents, pages, files, revisions. A JSON document is checked
 * node by node against the official schema (document-schema.ts); a markdown body is parsed.
 */
export { JsonDocumentSchema, TOP_LEVEL_BLOCK_TYPES } from './document-schema.js'

/** A body as a client may send it: `{ markdown }`, `{ document }`, or `{}` (empty). */
export const DocumentInputSchema = z
  .union(
    [
      z.strictObject({ markdown: z.string().max(1_000_000, 'must be at most 1000000 characters') }),
      z.strictObject({ document: JsonDocumentSchema }),
      // The other forms' keys fail this one outright (an unknown key is only a non-fatal issue
      // for zod, which would then report a `{"document": ...}` with a bad block as "not {}").
      z.strictObject({ markdown: z.never().optional(), document: z.never().optional() }),
    ],
    { error: 'must be {"markdown": "..."}, {"document": {...}} or {}' },
  )
  .meta({ id: 'Document', description: 'A document as markdown, as a JSON document, or empty.' })

export const DocumentFormatSchema = z.enum(['document', 'markdown'], { error: 'must be "document" or "markdown"' })

/** Query flags the content reads accept (`metadata` and `computed` change nothing here: no git metadata, no computed content). */
export const RevisionQuerySchema = z.object({
  metadata: queryBoolean.optional(),
  computed: queryBoolean.optional(),
})

/**
 * How a document is answered (the official `documentEvaluated` and `documentDereferenced`):
 * `evaluated` resolves its expressions (content/evaluate.ts); `dereferenced` (`true` or
 * `reusable-contents`) inlines the reusable contents its blocks name (content/dereference.ts).
 */
export const DocumentQuerySchema = z.object({
  evaluated: z.enum(['true', 'false', 'deterministic-only'], { error: 'must be true, false or "deterministic-only"' }).optional(),
  dereferenced: z.enum(['true', 'false', 'reusable-contents'], { error: 'must be true, false or "reusable-contents"' }).optional(),
})

/** The official `documentSchema` query: the version of the document schema asked for (one here: both answer the same). */
export const DocumentSchemaQuerySchema = z.object({ schema: z.enum(['current', 'next'], { error: 'must be "current" or "next"' }).optional() })

export const PageQuerySchema = RevisionQuerySchema.extend({
  format: DocumentFormatSchema.optional(),
  'format.markdown.refs': z.enum(['relative', 'stable'], { error: 'must be "relative" or "stable"' }).optional(),
  ...DocumentQuerySchema.shape,
})

export const FileSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    contentType: z.string(),
    downloadURL: z.string(),
    size: z.number(),
    dimensions: z.object({ width: z.number(), height: z.number() }).optional(),
  })
  .meta({ id: 'RevisionFile' })

/** A page as answered (tree fields recursive; the document or markdown by `format`). */
export const PageSchema: z.ZodType<Record<string, unknown>> = z
  .looseObject({
    id: z.string(),
    title: z.string(),
    kind: z.string(),
    type: z.string(),
    slug: z.string(),
    path: z.string(),
    pages: z.array(z.lazy(() => PageSchema)),
  })
  .meta({ id: 'RevisionPage' })

export const PagesSchema = z.object({ pages: z.array(PageSchema) })

/** A reusable content of a revision (the official `RevisionReusableContent`). */
export const ReusableContentSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    document: z.string().optional(),
    git: z.object({ oid: z.string(), path: z.string() }).optional(),
  })
  .meta({ id: 'RevisionReusableContent' })

export const RevisionSchema = z
  .looseObject({
    object: z.literal('revision'),
    id: z.string(),
    parents: z.array(z.string()),
    type: z.string(),
    pages: z.array(PageSchema),
    files: z.array(FileSchema),
    reusableContents: z.array(ReusableContentSchema),
    tags: z.array(z.unknown()),
    variables: z.record(z.string(), z.string()),
    createdAt: TimestampSchema,
    urls: z.object({ app: z.string() }),
  })
  .meta({ id: 'Revision' })

export const LinksQuerySchema = listQuery.extend({ status: z.enum(['ok', 'broken', 'in-app'], { error: 'must be ok, broken or in-app' }).optional() })

export const LinkSchema = z
  .object({
    status: z.enum(['ok', 'broken', 'in-app']),
    relation: z.enum(['page', 'file', 'url']),
    source: z.object({ page: z.string() }),
    targetReference: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'ContentLink' })

export const LinksSchema = z.object({
  items: z.array(LinkSchema),
  count: z.number(),
  next: z.object({ page: z.string() }).optional(),
  stats: z.object({ total: z.number(), broken: z.object({ total: z.number(), changeRequest: z.number() }) }),
})

export const BacklinkSchema = z.object({
  kind: z.literal('page'),
  organization: z.string(),
  space: z.string(),
  versionContext: z.object({ type: z.literal('revision'), revision: z.string() }),
  page: z.string(),
  file: z.string(),
})
