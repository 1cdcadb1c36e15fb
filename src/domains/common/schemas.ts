import { z } from 'zod'
import { ROLES } from '../../core/roles.js'
import { EXPRESSION_MAX_LENGTH, expressionProblem } from './expressions.js'
import { linkTargetProblem } from './link-target.js'

/** Schemas shared by several areas. Ids in `.meta` name the official component they mirror. */

export const RoleSchema = z.enum(ROLES).meta({ id: 'MemberRole', description: 'Role of a member: read < comment < edit < review < create < admin.' })
export const RoleOrGuestSchema = RoleSchema.nullable().meta({ id: 'MemberRoleOrGuest', description: 'A role, or null for a guest.' })
export const DefaultLevelSchema = z
  .union([RoleSchema, z.null(), z.literal('inherit')])
  .meta({ id: 'DefaultLevel', description: 'Default level of organization members on a piece of content; null for none, `inherit` to follow the parent.' })

export const TimestampSchema = z.string().meta({ id: 'Timestamp', description: 'ISO 8601 date-time.' })
/**
 * Text that goes into URLs (percent-encoded): any characters but a lone UTF-16 surrogate, which
 * JSON can carry but no URL can encode (encodeURIComponent throws on it).
 */
export const UrlTextSchema = z.string().regex(/^(?:[^\uD800-\uDFFF]|[\uD800-\uDBFF][\uDC00-\uDFFF])*$/, 'must be well-formed Unicode text (no lone surrogate)')
/** An absolute URL of any scheme (`z.url()` takes `javascript:` and `data:`): for a schema that narrows the schemes itself. */
export const UrlOfAnySchemeSchema = z.url({ error: 'must be a URL' }).max(2048, 'must be at most 2048 characters')

/**
 * An absolute URL a page may link to or show (an icon, a logo, an integration's link): http, https
 * or mailto (link-target.ts), never `javascript:` or `data:`.
 */
export const UrlSchema = UrlOfAnySchemeSchema.superRefine((url, ctx) => {
  const problem = linkTargetProblem(url)
  if (problem) ctx.addIssue({ code: 'custom', message: problem, input: url })
})

/**
 * A condition or expression as a request writes it: at most 1024 characters, and one that parses
 * (common/expressions.ts), so a typo is a 400 naming the field and the problem rather than content
 * silently hidden from every visitor. Empty (or only spaces) is accepted: it is the condition that
 * lets everyone in, as in GitBook.
 */
export const ExpressionSchema = z
  .string()
  .max(EXPRESSION_MAX_LENGTH, `must be at most ${EXPRESSION_MAX_LENGTH} characters`)
  .superRefine((text, ctx) => {
    if (text.length > EXPRESSION_MAX_LENGTH || text.trim() === '') return
    const problem = expressionProblem(text)
    if (problem) ctx.addIssue({ code: 'custom', message: `must be a valid expression: ${problem}`, input: text })
  })
  .meta({ id: 'Expression', description: 'An expression deciding whether the item is shown to a visitor.' })
/** An expression as stored: not parsed again when state is loaded (one that fails to parse is false for every visitor). */
export const StoredExpressionSchema = z.string().max(EXPRESSION_MAX_LENGTH, `must be at most ${EXPRESSION_MAX_LENGTH} characters`)

const userIds = z.array(z.string())
export const MergeRuleSchema = z.union([
  z.object({ rule: z.enum(['require_specific_reviewers', 'require_one_of_specific_reviewers', 'allow_bypass']), users: userIds }),
  z.object({
    rule: z.enum([
      'require_at_least_one_review',
      'require_at_least_one_approved_review',
      'require_all_reviews_approved',
      'require_agent_review',
      'require_up_to_date_change_request',
      'require_change_request_subject',
      'require_change_request_description',
      'require_author_to_merge',
    ]),
  }),
  z.object({ rule: z.literal('custom'), expression: z.string().max(1024), message: z.string().optional() }),
])
export const StandaloneMergeRulesSchema = z
  .discriminatedUnion('type', [z.object({ type: z.literal('rules'), rules: z.array(MergeRuleSchema) }), z.object({ type: z.literal('none') })])
  .meta({ id: 'MergeRulesStandaloneConfiguration' })
export const MergeRulesSchema = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('inherit') }),
    z.object({ type: z.literal('rules'), rules: z.array(MergeRuleSchema) }),
    z.object({ type: z.literal('none') }),
  ])
  .meta({ id: 'MergeRulesSpaceConfiguration' })

export const UserSchema = z
  .object({
    object: z.literal('user'),
    id: z.string(),
    displayName: z.string(),
    email: z.string().optional(),
    photoURL: z.string().optional(),
    urls: z.object({ location: z.string() }),
  })
  .meta({ id: 'User' })

/** The `permissions` object of a resource: one boolean per key (the keys of its policy actions). */
export function permissionsSchema<const K extends string>(keys: readonly K[]) {
  return z.object(Object.fromEntries(keys.map((k) => [k, z.boolean()])) as Record<K, z.ZodBoolean>)
}

/** The `shareKey` query parameter (official `siteShareKey`): the key of a share link, opening a share-link site. */
export const ShareKeySchema = z
  .string()
  .optional()
  .meta({ description: 'Key of an active share link: opens a published `share-link` site and the spaces it publishes; published URLs then carry it.' })

/** The paged list envelope around `item`. */
export function listOf<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    count: z.number(),
    next: z.object({ page: z.string() }).optional(),
  })
}

/** A path parameter object with the given names, each a non-empty string. */
export function pathParams<const K extends string>(...names: K[]) {
  const shape = {} as Record<K, z.ZodString>
  for (const name of names) shape[name] = z.string().min(1)
  return z.object(shape)
}

/** A pointer to a sibling: `{ type, [key]: id }` (the key is the type unless given, e.g. `site-space` / `siteSpace`). */
export function pointerSchema<const T extends string, const K extends string = T>(type: T, key?: K) {
  return z.object({ type: z.literal(type), [key ?? type]: z.string().min(1, 'must not be empty') } as { type: z.ZodLiteral<T> } & Record<K, z.ZodString>)
}

/** Where to put an item among its siblings: `before` or `after` the sibling `pointer` names. */
export function positionOf<P extends z.ZodType>(pointer: P) {
  return z
    .object({ before: pointer.optional(), after: pointer.optional() })
    .refine((p) => !(p.before && p.after), { message: 'give either `before` or `after`, not both' })
}

/** Where to put an item among its siblings of the same type (`before` or `after` another). */
export function positionSchema<const T extends string>(type: T) {
  return positionOf(pointerSchema(type))
}
