import { z } from 'zod'
import { linkTargetProblem } from '../../common/link-target.js'

/**
 * The pieces the document's node schemas share: the error messages of node lists and unions,
 * content references and the small value types, each as the official component of the same name
 * has it. An object is loose (unknown keys kept) unless the official schema says
 * `additionalProperties: false`, then strict.
 */

/** Something an error message function receives (zod's raw issue, read loosely). */
interface RawIssue {
  code?: string
  input?: unknown
}

/** A message that says a missing value is required and what it must be, else what it must be. */
export const expecting =
  (what: string) =>
  (issue: RawIssue): string =>
    issue.input === undefined ? `is required: ${what}` : `must be ${what}`

/** A list of nodes: `what` says what the list holds ("a list of texts and inlines"). */
export const listOf = <T extends z.ZodType>(element: T, what: string) => z.array(element, { error: expecting(what) })

/**
 * A union of nodes told apart by `key` (`type`, `object`, `kind`...), whose failures say what the
 * place holds: `nodes[2].type: must be one of paragraph, heading-1... (a hint holds no "code")`.
 * `names` are the values of `key` it accepts, in the order the message lists them; `note` ends
 * every message.
 */
export function nodeUnion<K extends string>(key: K, place: string, names: readonly string[], options: readonly z.ZodType[], note = '') {
  const list = names.join(', ')
  // A reference's kind says what it is; a node's type or object says what its place holds.
  const what = key === 'kind' ? `the kind of ${place}` : `what ${place} holds`
  const not = (value: unknown) => (key === 'kind' ? `${place} cannot be of kind ${JSON.stringify(value)}` : `${place} holds no ${JSON.stringify(value)}`)
  const error = (issue: RawIssue): string => {
    if (issue.code !== 'invalid_union') return `must be an object with a \`${key}\` of ${list} (${what})${note}`
    const value = (issue.input as Record<string, unknown> | undefined)?.[key]
    if (value === undefined) return `is required: one of ${list} (${what})${note}`
    return `must be one of ${list} (${not(value)})${note}`
  }
  return z.discriminatedUnion(key, options as unknown as [z.ZodObject, ...z.ZodObject[]], { error })
}

export const KeySchema = z.string().optional()

export const TextAlignmentSchema = z.enum(['start', 'center', 'end'])
export const VerticalAlignmentSchema = z.enum(['top', 'middle', 'bottom'])
/** `Icon`: an icon's name. */
export const IconSchema = z.string().max(50, 'must be at most 50 characters')
/** `DocumentTextColor`. */
export const TextColorSchema = z.enum([
  'default',
  'green',
  'blue',
  'red',
  'orange',
  'yellow',
  'purple',
  'pink',
  'violet',
  'cyan',
  '$primary',
  '$info',
  '$success',
  '$warning',
  '$danger',
  '$tint',
])
/** `Length`: a number, or a value with its unit. */
export const LengthSchema = z.union([z.number(), z.looseObject({ unit: z.string(), value: z.number() })], {
  error: 'must be a number or {"unit": "...", "value": <number>}',
})

/** `Timestamp` (format date-time, with a time zone), as the official document's date-time format checks it. */
export const DateTimeSchema = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time with a time zone (e.g. 2026-01-01T00:00:00Z)' })

const ref = <K extends string, S extends z.ZodRawShape>(kind: K, shape: S, id: string) => z.looseObject({ kind: z.literal(kind), ...shape }).meta({ id })

/**
 * Where a link, an image or an embed points: an http, https or mailto URL, or a relative one
 * (common/link-target.ts); `javascript:`, `data:` and other schemes are refused, naming the field.
 */
export const LinkTargetSchema = z.string().superRefine((url, ctx) => {
  const problem = linkTargetProblem(url)
  if (problem) ctx.addIssue({ code: 'custom', message: problem, input: url })
})

export const ContentRefUrlSchema = ref('url', { url: LinkTargetSchema }, 'ContentRefURL')
export const ContentRefFileSchema = ref('file', { file: z.string(), space: z.string().optional() }, 'ContentRefFile')
export const ContentRefPageSchema = ref('page', { page: z.string(), space: z.string().optional() }, 'ContentRefPage')
export const ContentRefAnchorSchema = ref('anchor', { anchor: z.string(), space: z.string().optional(), page: z.string().optional() }, 'ContentRefAnchor')
export const ContentRefUserSchema = ref('user', { user: z.string() }, 'ContentRefUser')
export const ContentRefCollectionSchema = ref('collection', { collection: z.string() }, 'ContentRefCollection')
export const ContentRefSpaceSchema = ref('space', { space: z.string() }, 'ContentRefSpace')
export const ContentRefReusableContentSchema = ref(
  'reusable-content',
  { reusableContent: z.string(), space: z.string().optional() },
  'ContentRefReusableContent',
)
export const ContentRefTagSchema = ref('tag', { tag: z.string(), space: z.string().optional() }, 'ContentRefTag')
export const ContentRefOpenApiSchema = ref('openapi', { spec: z.string() }, 'ContentRefOpenAPI')

/** The kinds of `ContentRef`, and their schemas (a table cell takes those that are no image, see table.ts). */
export const CONTENT_REFS = {
  file: ContentRefFileSchema,
  url: ContentRefUrlSchema,
  page: ContentRefPageSchema,
  anchor: ContentRefAnchorSchema,
  user: ContentRefUserSchema,
  collection: ContentRefCollectionSchema,
  space: ContentRefSpaceSchema,
  'reusable-content': ContentRefReusableContentSchema,
  tag: ContentRefTagSchema,
  openapi: ContentRefOpenApiSchema,
} as const

export const ContentRefSchema = nodeUnion('kind', 'a content reference', Object.keys(CONTENT_REFS), Object.values(CONTENT_REFS)).meta({ id: 'ContentRef' })
/** What an image may show: a file or a URL. */
export const ImageRefSchema = nodeUnion('kind', 'an image reference', ['url', 'file'], [ContentRefUrlSchema, ContentRefFileSchema])
/** What a file or drawing block shows: a file. */
export const FileRefSchema = nodeUnion('kind', 'a file reference', ['file'], [ContentRefFileSchema])

/**
 * `PlainObject` (an integration's props). Its values are a `oneOf` of a PlainObject, a string, a
 * boolean, a number and an array of those. Read strictly, the PlainObject branch (it has no `type`)
 * matches every value, so a string would match two branches and only objects and nulls would pass;
 * but the schema plainly means the listed types, and the programs that write props use them
 * (GitBook's renderer sends a block's props as stored; GitbookIO/integrations' `mermaid` keeps its
 * diagram in `props.content`, a string). So the listed types are taken, as the schema intends
 * (docs/behaviour/content-and-change-requests.md).
 */
const PlainScalarSchema = z.union([z.string(), z.boolean(), z.number()])
export const PlainObjectSchema: z.ZodType<{ [key: string]: PlainValue }> = z
  .record(
    z.string(),
    z.union(
      [
        z.null(),
        PlainScalarSchema,
        z.array(
          z.union([z.null(), PlainScalarSchema, z.lazy(() => PlainObjectSchema)], {
            error: 'must be a string, a number, a boolean, an object or null (an item of a PlainObject array)',
          }),
        ),
        z.lazy(() => PlainObjectSchema),
      ],
      {
        error: 'must be a string, a number, a boolean, an array of those or of objects, an object or null (the official PlainObject)',
      },
    ),
  )
  .meta({ id: 'PlainObject' })
type PlainValue = null | string | boolean | number | Array<null | string | boolean | number | { [key: string]: PlainValue }> | { [key: string]: PlainValue }

/** `ContentKitAction`: any object naming an action (its `anyOf` has a branch for any action). */
export const ContentKitActionSchema = z.looseObject({ action: z.string(), url: LinkTargetSchema.optional() })
