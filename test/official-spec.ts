import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'

/**
 * The official OpenAPI document (`@gitbook/api/spec/openapi.json`) as the tests validate against
 * it: as it is, but for one reading, documented in docs/behaviour/content-and-change-requests.md.
 * `PlainObject` (an integration block's `props`, a render's `props`, visitor claims) lists its
 * values as a `oneOf` of a PlainObject, a string, a boolean, a number and an array; its PlainObject
 * branch has no `type`, so read strictly every string matches two branches and only objects pass,
 * refusing what GitBook's renderer and its integrations send (mermaid's `props.content`). The tests
 * read that `oneOf` as the `anyOf` it is meant as; nothing else is relaxed.
 */
const require = createRequire(import.meta.url)

export function loadOfficialSpec(): any {
  const spec = JSON.parse(readFileSync(require.resolve('@gitbook/api/spec/openapi.json'), 'utf8'))
  spec.$id = 'openapi.json'
  const plain = spec.components.schemas.PlainObject
  if (!plain?.additionalProperties?.oneOf) throw new Error('The official PlainObject changed: review test/official-spec.ts')
  plain.additionalProperties = { anyOf: plain.additionalProperties.oneOf }
  return spec
}
