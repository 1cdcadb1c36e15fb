import { z } from 'zod'
import type { OpenAPISpecSource } from './rows.js'
import { TimestampSchema, UrlOfAnySchemeSchema } from '../common/schemas.js'

export const OpenAPISpecSlugSchema = z
  .string()
  .min(1, 'must be at least 1 character')
  .max(100, 'must be at most 100 characters')
  .regex(/^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$/, 'must be letters and digits in groups joined by single hyphens (e.g. "petstore-v2")')
  .meta({ id: 'OpenAPISpecSlug', description: 'Slug naming the spec in its organization.' })

/** The largest spec: its text as given, or the bytes fetched from its URL (10 MiB). */
export const MAX_SPEC_BYTES = 10 * 1024 * 1024

/**
 * The largest body of an operation that takes a spec's text: a spec of MAX_SPEC_BYTES, written as
 * a JSON string, fits. JSON.stringify escapes `"`, `\`, tab, newline and carriage return in two
 * characters and any other control character in six, which YAML and JSON texts cannot hold, so the
 * string is at most twice the text; 1 MiB more holds the rest of the body. (A client that also
 * escapes non-ASCII characters as `\uXXXX` needs more for a text mostly written in them.)
 */
export const MAX_SPEC_BODY_BYTES = 2 * MAX_SPEC_BYTES + 1024 * 1024

/** Whether a text is more than MAX_SPEC_BYTES once UTF-8 encoded (encoded only when it may be: a UTF-16 unit is at most 3 bytes). */
const tooLarge = (text: string) => text.length > MAX_SPEC_BYTES || (text.length > MAX_SPEC_BYTES / 3 && new TextEncoder().encode(text).length > MAX_SPEC_BYTES)

/**
 * Where a spec comes from: exactly one of `url` (fetched when processed) and `text` (JSON or
 * YAML). One object with both fields optional rather than a union, so that a 400 names the
 * field at fault (`source.url: must be a URL`) instead of "matches no alternative".
 */
export const OpenAPISpecSourceSchema = z
  .object({
    url: UrlOfAnySchemeSchema.optional().meta({ description: 'URL of the spec, fetched with the API’s `fetch` when it is processed.' }),
    text: z
      .string()
      .min(1, 'must not be empty')
      .refine((text) => !tooLarge(text), `must be at most ${MAX_SPEC_BYTES} bytes (10 MiB) of UTF-8 text, as a spec fetched from a URL`)
      .optional()
      .meta({ description: 'The spec itself, as JSON or YAML text (at most 10 MiB).' }),
  })
  .superRefine((source, ctx) => {
    const given = Number(source.url !== undefined) + Number(source.text !== undefined)
    if (given !== 1) ctx.addIssue({ code: 'custom', message: given === 0 ? 'give `url` or `text`' : 'give either `url` or `text`, not both' })
  })
  .transform((source): OpenAPISpecSource => (source.url !== undefined ? { url: source.url } : { text: source.text! }))
  .meta({ id: 'OpenAPISpecSource' })

export const OpenAPISpecVisibilitySchema = z
  .enum(['private', 'public'])
  .meta({ id: 'OpenAPISpecVisibility', description: '`private`: not publicly available; `public`: available to anyone with its published link.' })

export const CreateOpenAPISpecSchema = z.object({ slug: OpenAPISpecSlugSchema, source: OpenAPISpecSourceSchema })
export const PutOpenAPISpecSchema = z.object({ source: OpenAPISpecSourceSchema })
export const UpdateOpenAPISpecSchema = z.object({ visibility: OpenAPISpecVisibilitySchema })

const ProcessErrorSchema = z.object({ message: z.string(), code: z.string().optional() }).meta({ id: 'OpenAPIErrorObject' })

export const OpenAPISpecSchema = z
  .object({
    object: z.literal('openapi-spec'),
    id: z.string(),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
    slug: z.string(),
    sourceURL: z.string().optional().meta({ description: 'URL of the latest source, when it was a URL.' }),
    processingState: z.enum(['pending', 'progress', 'complete']).meta({
      description:
        '`pending` when a new source waits, `progress` while it is fetched and checked, `complete` once done (with a new version, or with `lastProcessErrorCode`).',
    }),
    visibility: OpenAPISpecVisibilitySchema,
    lastVersion: z.string().optional().meta({ description: 'Id of the latest processed version.' }),
    lastProcessedAt: TimestampSchema.optional(),
    lastProcessErrorCode: z
      .enum(['FETCH_TIMEOUT', 'FETCH_ERROR', 'PARSE_ERROR'])
      .optional()
      .meta({ description: 'Why the latest processing failed (absent when it succeeded).' }),
    lastProcessedErrors: z.array(ProcessErrorSchema).meta({ description: 'What the latest processing found wrong (its first 20).' }),
    lastProcessedErrorCount: z.number().int(),
    permissions: z.object({ view: z.boolean(), edit: z.boolean() }),
    urls: z.object({ location: z.string(), app: z.string(), published: z.string().optional() }),
  })
  .meta({ id: 'OpenAPISpec' })

export const OpenAPISpecVersionSchema = z
  .object({
    object: z.literal('openapi-spec-version'),
    id: z.string(),
    createdAt: TimestampSchema,
    url: z.string().meta({ description: 'Where the version can be read: its source URL, or its content in this API.' }),
    urls: z.object({ location: z.string() }),
  })
  .meta({ id: 'OpenAPISpecVersion' })

export const OpenAPISpecContentSchema = z
  .object({
    filesystem: z.record(z.string(), z.unknown()).meta({ description: 'The parsed document by file name (one file: a spec is one document).' }),
    urls: z.object({ source: z.string(), public: z.string().nullable() }),
  })
  .meta({ id: 'OpenAPISpecContent' })

export const OpenAPISpecRawContentSchema = z
  .object({ text: z.string(), format: z.enum(['json', 'yaml']) })
  .meta({ id: 'OpenAPISpecRawContent', description: 'The source text exactly as given or fetched.' })
