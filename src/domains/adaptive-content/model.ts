import type { Context } from '../context.js'
import type { SiteRow } from '../sites/rows.js'
import {
  normaliseAdaptiveSchema,
  topLevelClaims,
  UNSIGNED_DESCRIPTION,
  type AdaptiveJsonSchema,
  type AdaptiveJsonSchemaInput,
} from '../sites/adaptive-schema.js'

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
