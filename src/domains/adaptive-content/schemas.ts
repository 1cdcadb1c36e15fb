import { z } from 'zod'
import { TimestampSchema } from '../common/schemas.js'
import { AdaptiveJsonSchemaInputSchema, DRAFT_07, UNSIGNED_DESCRIPTION } from '../sites/adaptive-schema.js'

/**
 * Schemas of the adaptive content operations. What a caller may send (the input schema) and its
 * normalisation live with the sites, whose rows hold it (sites/adaptive-schema.ts); what we answer
 * is that shape normalised to the official `SiteAdaptiveJSONSchema`. Neither carries a
 * `.meta({ id })`: they hold a property named `$schema`, which must stay out of the document's
 * components (zod markers are checked for).
 */

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
