import { z } from 'zod'
import { TimestampSchema } from '../common/schemas.js'

/**
 * Schemas of the adaptive content schema: the JSON Schema (draft-07) of a site's visitor claims.
 * What a caller may send is the reference's shape, strictly (every object rejects unknown keys, so
 * a message names the exact field); what we answer is that shape normalised to the official
 * `SiteAdaptiveJSONSchema` (see model.ts). Neither carries a `.meta({ id })`: they hold a property
 * named `$schema`, which must stay out of the document's components (zod markers are checked for).
 */

export const DRAFT_07 = 'http://json-schema.org/draft-07/schema#' as const
export const UNSIGNED_DESCRIPTION = 'Unsigned claims of the site visitor.' as const

/** Claim names are identifiers so a condition can name them (`visitor.claims.<name>`). */
export const CLAIM_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/
const CLAIM_NAME_RULE = 'must be an identifier (a letter or `_`, then letters, digits or `_`) so conditions can name it'

const claimInput = (typeRule: string) =>
  z.strictObject({
    type: z.literal('boolean', { error: typeRule }),
    description: z.string().optional().meta({ description: 'What the claim says; the property name when left out.' }),
  })

const ClaimNameSchema = z.string().regex(CLAIM_NAME)

const UnsignedInputSchema = z.strictObject({
  type: z.literal('object', { error: 'must be "object": `unsigned` is reserved for the object of unsigned claims' }),
  description: z.string().optional().meta({ description: `Answered as "${UNSIGNED_DESCRIPTION}" whatever is sent.` }),
  properties: z.record(ClaimNameSchema, claimInput('must be "boolean": unsigned claims are booleans'), {
    error: (issue) => (issue.code === 'invalid_key' ? CLAIM_NAME_RULE : undefined),
  }),
  additionalProperties: z.literal(false, { error: 'must be false: visitors carry only the declared claims' }),
})

/**
 * `properties`: the `unsigned` object and boolean claims. Names are checked even when a claim
 * fails (`when`), so one answer lists every problem of the object.
 */
const PropertiesInputSchema = z
  .strictObject({ unsigned: UnsignedInputSchema.optional() })
  .catchall(claimInput('must be "boolean": claims are booleans (only `unsigned` may be an object)'))
  .superRefine(
    (properties, ctx) => {
      for (const name of Object.keys(properties)) {
        if (!CLAIM_NAME.test(name)) ctx.addIssue({ code: 'custom', path: [name], message: CLAIM_NAME_RULE })
      }
    },
    { when: (payload) => typeof payload.value === 'object' && payload.value !== null && !Array.isArray(payload.value) },
  )
  // The refinement is invisible to the document: say the naming rule there too.
  .meta({
    description: 'The `unsigned` object of unsigned claims, and boolean claims; names are identifiers.',
    propertyNames: { type: 'string', pattern: CLAIM_NAME.source },
  })

export const AdaptiveJsonSchemaInputSchema = z.strictObject({
  $schema: z.literal(DRAFT_07, { error: `must be "${DRAFT_07}" (JSON Schema draft-07)` }).optional(),
  type: z.literal('object', { error: 'must be "object"' }),
  properties: PropertiesInputSchema,
  additionalProperties: z.literal(false, { error: 'must be false: visitors carry only the declared claims' }),
})

export const UpdateAdaptiveSchemaSchema = z.object({
  jsonSchema: AdaptiveJsonSchemaInputSchema.meta({ description: 'The JSON schema to set on the site (JSON Schema draft-07).' }),
})

const ClaimSchema = z.object({ type: z.literal('boolean'), description: z.string() })

export const UnsignedClaimsSchema = z.object({
  type: z.literal('object'),
  description: z.literal(UNSIGNED_DESCRIPTION),
  properties: z.record(z.string(), ClaimSchema),
  additionalProperties: z.literal(false),
})

/** The stored and answered schema: every claim with a description, `unsigned` with the fixed one. */
export const AdaptiveJsonSchemaSchema = z.object({
  $schema: z.literal(DRAFT_07).optional(),
  type: z.literal('object'),
  properties: z.object({ unsigned: UnsignedClaimsSchema.optional() }).catchall(ClaimSchema),
  additionalProperties: z.literal(false),
})

export const SiteAdaptiveSchemaSchema = z.object({
  object: z.literal('site-adaptive-schema'),
  jsonSchema: AdaptiveJsonSchemaSchema,
  updatedAt: TimestampSchema,
})

export const TemplateConditionSchema = z
  .object({
    description: z.string().meta({ description: 'A short description of the suggested condition.' }),
    condition: z.string().meta({ description: 'The suggested condition (an expression on `visitor.claims`).' }),
  })
  .meta({ id: 'SiteAdaptiveTemplateCondition' })

export const TemplateConditionsSchema = z.object({ items: z.array(TemplateConditionSchema) })

export type AdaptiveJsonSchemaInput = z.output<typeof AdaptiveJsonSchemaInputSchema>
