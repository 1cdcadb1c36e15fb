import type { z } from 'zod'
import type { AdaptiveSchemaState } from './model.js'
import type { AdaptiveJsonSchemaSchema } from './schemas.js'

/**
 * The API resource of a site's adaptive schema. The cast is a typing matter only: zod types
 * `properties` (a declared `unsigned` next to catch-all claims) as an intersection no object
 * literal satisfies, while `AdaptiveJsonSchema` describes the same JSON.
 */
export function encodeAdaptiveSchema(state: AdaptiveSchemaState) {
  return {
    object: 'site-adaptive-schema' as const,
    jsonSchema: state.jsonSchema as z.input<typeof AdaptiveJsonSchemaSchema>,
    updatedAt: state.updatedAt,
  }
}
