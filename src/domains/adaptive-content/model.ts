import type { Context } from '../context.js'
import type { SiteRow } from '../sites/rows.js'
import { UNSIGNED_DESCRIPTION, type AdaptiveJsonSchemaInput, type DRAFT_07 } from './schemas.js'

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

/** A site's visitor schema, normalised (the shape of `AdaptiveJsonSchemaSchema`); a plain JSON object. */
export type AdaptiveJsonSchema = {
  $schema?: typeof DRAFT_07
  type: 'object'
  properties: { unsigned?: UnsignedClaims; [name: string]: Claim | UnsignedClaims | undefined }
  additionalProperties: false
}

/** A site's adaptive schema and when it was set. */
export interface AdaptiveSchemaState {
  jsonSchema: AdaptiveJsonSchema
  updatedAt: string
}

/** The schema of a site that never set one: an empty `unsigned` object, nothing else. */
export function defaultAdaptiveSchema(): AdaptiveJsonSchema {
  return {
    type: 'object',
    properties: { unsigned: { type: 'object', description: UNSIGNED_DESCRIPTION, properties: {}, additionalProperties: false } },
    additionalProperties: false,
  }
}

/**
 * The site's schema; the default one, dated at the site's creation, when none was set. A stored
 * schema was written by `setAdaptiveSchema`, so it has the normalised shape the row type leaves open.
 */
export function adaptiveSchemaOf(site: SiteRow): AdaptiveSchemaState {
  if (!site.adaptiveSchema) return { jsonSchema: defaultAdaptiveSchema(), updatedAt: site.createdAt }
  return { jsonSchema: site.adaptiveSchema.jsonSchema as AdaptiveJsonSchema, updatedAt: site.adaptiveSchema.updatedAt }
}

const claimOf = (name: string, description: string | undefined): Claim => ({ type: 'boolean', description: description ?? name })

/** The top-level claims of a schema, in the order sent (`unsigned` left out). */
function topLevelClaims(properties: AdaptiveJsonSchema['properties'] | AdaptiveJsonSchemaInput['properties']) {
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

/**
 * Set the site's schema (normalised), dated now.
 */
export function setAdaptiveSchema(ctx: Context, site: SiteRow, input: AdaptiveJsonSchemaInput): AdaptiveSchemaState {
  const now = ctx.nowIso()
  const jsonSchema = normaliseAdaptiveSchema(input)
  ctx.tx.update('sites', { ...site, adaptiveSchema: { jsonSchema, updatedAt: now } })
  return { jsonSchema, updatedAt: now }
}

/** One condition a content author can start from. */
export interface TemplateCondition {
  description: string
  condition: string
}

/** "Visitors whose `isBeta` claim is true (Beta testers)": the description only when it says more than the name. */
const describe = (name: string, description: string, kind: string): string =>
  `Visitors whose ${kind}\`${name}\` claim is true${description === name ? '' : ` (${description})`}`

/**
 * A condition per boolean claim: the top-level claims (`visitor.claims.<name> === true`), then
 * the unsigned ones (`visitor.claims.unsigned.<name> === true`), each group in schema order.
 */
export function templateConditions(schema: AdaptiveJsonSchema): TemplateCondition[] {
  const signed = topLevelClaims(schema.properties).map(([name, claim]) => ({
    description: describe(name, claim.description ?? name, ''),
    condition: `visitor.claims.${name} === true`,
  }))
  const unsigned = Object.entries(schema.properties.unsigned?.properties ?? {}).map(([name, claim]) => ({
    description: describe(name, claim.description, 'unsigned '),
    condition: `visitor.claims.unsigned.${name} === true`,
  }))
  return [...signed, ...unsigned]
}
