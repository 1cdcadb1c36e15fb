import { z } from 'zod'

/**
 * A site's visitor schema (the JSON Schema, draft-07, of its visitors' claims) as a site row holds
 * it: what a caller may send, strictly (every object rejects unknown keys, so a message names the
 * exact field), and its normalised form, the official `SiteAdaptiveJSONSchema`. Kept with the
 * sites, not in adaptive-content, because a state document's sites carry it (sites/seed.ts);
 * the adaptive-content area reads and sets it. Neither schema carries a `.meta({ id })`: they hold
 * a property named `$schema`, which must stay out of the document's components (zod markers are
 * checked for).
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
  description: z
    .string()
    .optional()
    .meta({ description: `Answered as "${UNSIGNED_DESCRIPTION}" whatever is sent.` }),
  properties: z.record(ClaimNameSchema, claimInput('must be "boolean": unsigned claims are booleans'), {
    error: (issue) => (issue.code === 'invalid_key' ? CLAIM_NAME_RULE : undefined),
  }),
  additionalProperties: z.literal(false, { error: 'must be false: visitors carry only the declared claims' }),
})

/**
 * `properties`: the `unsigned` object and boolean claims. Names are checked even when a claim
 * fails (`when`), so one answer lists every problem of the object.
 */
const PropertiesShapeSchema = z
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

/**
 * `properties` as a request or a state document gives it, declared: the inferred input type (the
 * `unsigned` key beside an index signature of claims) cannot be written in a declaration file
 * (TS2411 under a consumer's strict `tsc`), and `StateDocumentInput` carries it there.
 */
export type AdaptivePropertiesInput = { unsigned?: z.input<typeof UnsignedInputSchema> } & {
  [name: string]: z.input<typeof UnsignedInputSchema> | z.input<ReturnType<typeof claimInput>> | undefined
}
const PropertiesInputSchema = PropertiesShapeSchema as unknown as z.ZodType<z.output<typeof PropertiesShapeSchema>, AdaptivePropertiesInput>

export const AdaptiveJsonSchemaInputSchema = z.strictObject({
  $schema: z.literal(DRAFT_07, { error: `must be "${DRAFT_07}" (JSON Schema draft-07)` }).optional(),
  type: z.literal('object', { error: 'must be "object"' }),
  properties: PropertiesInputSchema,
  additionalProperties: z.literal(false, { error: 'must be false: visitors carry only the declared claims' }),
})

export type AdaptiveJsonSchemaInput = z.output<typeof AdaptiveJsonSchemaInputSchema>

/** A boolean claim of the visitor. */
export interface Claim {
  type: 'boolean'
  description: string
}

/** The object of unsigned claims. */
export interface UnsignedClaims {
  type: 'object'
  description: typeof UNSIGNED_DESCRIPTION
  properties: Record<string, Claim>
  additionalProperties: false
}

/** A site's visitor schema, normalised (the shape of `AdaptiveJsonSchemaSchema`, adaptive-content/schemas.ts); a plain JSON object. */
export type AdaptiveJsonSchema = {
  $schema?: typeof DRAFT_07
  type: 'object'
  properties: { unsigned?: UnsignedClaims; [name: string]: Claim | UnsignedClaims | undefined }
  additionalProperties: false
}

const claimOf = (name: string, description: string | undefined): Claim => ({ type: 'boolean', description: description ?? name })

/** The top-level claims of a schema, in the order sent (`unsigned` left out). */
export function topLevelClaims(properties: AdaptiveJsonSchema['properties'] | AdaptiveJsonSchemaInput['properties']) {
  return Object.entries(properties).filter((e): e is [string, { type: 'boolean'; description?: string }] => e[0] !== 'unsigned' && e[1]?.type === 'boolean')
}

/**
 * The accepted schema in the official response shape: a claim without a description gets its
 * property name (the official schema requires one), and the unsigned object gets the one fixed
 * description the official schema allows. `unsigned` comes first (as in the default schema and
 * the official one), then the claims in the order sent.
 */
export function normaliseAdaptiveSchema(input: AdaptiveJsonSchemaInput): AdaptiveJsonSchema {
  const properties: AdaptiveJsonSchema['properties'] = {}
  const unsigned = input.properties.unsigned
  if (unsigned) {
    const claims = Object.entries(unsigned.properties).map(([name, c]) => [name, claimOf(name, c.description)] as const)
    properties.unsigned = { type: 'object', description: UNSIGNED_DESCRIPTION, properties: Object.fromEntries(claims), additionalProperties: false }
  }
  for (const [name, claim] of topLevelClaims(input.properties)) properties[name] = claimOf(name, claim.description)
  return {
    ...(input.$schema !== undefined && { $schema: input.$schema }),
    type: 'object',
    properties,
    additionalProperties: false,
  }
}
