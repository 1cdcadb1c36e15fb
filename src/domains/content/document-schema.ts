import { z } from 'zod'
import type { JsonDocument } from './document.js'
import { TopLevelBlockSchema } from './document-schema/blocks.js'

/**
 * The JSON document (`JSONDocument`) as the official schema has it, node by node: every block,
 * inline, text, leaf and mark is checked against its official component (document-schema/*), so
 * whatever is accepted is answered back valid, and whatever the official schema allows is
 * accepted (but the `button` inline, which no value satisfies, and a few table cell values the
 * official `oneOf` makes ambiguous: see table.ts). Unknown keys are kept where the official
 * schema allows them and refused where it says `additionalProperties: false`.
 *
 * The schemas are written by hand from the official document's components rather than built from
 * them at run time: the official document is a development dependency, and the library reads no
 * file at run time (it runs in browsers and workers too).
 */
export { BLOCK_TYPES, TOP_LEVEL_BLOCK_TYPES } from './document-schema/blocks.js'

/** How deep objects and lists may nest in a document (a block takes two levels: itself and its `nodes`). */
export const MAX_DOCUMENT_DEPTH = 128
/** How many objects and lists a document may hold in all (blocks, texts, leaves, marks, data...). */
export const MAX_DOCUMENT_OBJECTS = 200_000
/** How many blocks a document may hold at its top level. */
export const MAX_TOP_LEVEL_BLOCKS = 10_000

/**
 * Why a document is beyond the limits (undefined when within), walked without recursion before
 * the node schemas (which recurse) see it: pathological nesting is a 400, never a stack
 * overflow, and the walk costs one visit per object. Also applied to documents made from
 * markdown, so every stored document loads back from a state document.
 */
export function documentLimitProblem(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object') return undefined
  const stack: object[] = [value]
  const depths: number[] = [1]
  let count = 1
  while (stack.length > 0) {
    const node = stack.pop()!
    const depth = depths.pop()!
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child === null || typeof child !== 'object') continue
      if (depth + 1 > MAX_DOCUMENT_DEPTH) return `must nest at most ${MAX_DOCUMENT_DEPTH} levels of objects and lists`
      if (++count > MAX_DOCUMENT_OBJECTS) return `must hold at most ${MAX_DOCUMENT_OBJECTS} objects and lists in all`
      stack.push(child)
      depths.push(depth + 1)
    }
  }
  const nodes = (value as { nodes?: unknown }).nodes
  if (Array.isArray(nodes) && nodes.length > MAX_TOP_LEVEL_BLOCKS) return `must have at most ${MAX_TOP_LEVEL_BLOCKS} blocks`
  return undefined
}

function checkLimits(value: unknown, ctx: z.core.$RefinementCtx): unknown {
  const problem = documentLimitProblem(value)
  if (problem) ctx.addIssue({ code: 'custom', message: problem, input: value })
  return value
}

const DocumentObjectSchema = z.looseObject({
  object: z.literal('document', { error: 'must be "document"' }),
  data: z.looseObject({ schemaVersion: z.number().int('must be a whole number').optional() }).default({}),
  nodes: z
    .array(TopLevelBlockSchema, { error: (issue) => (issue.input === undefined ? 'is required: a list of blocks' : 'must be a list of blocks') })
    .max(MAX_TOP_LEVEL_BLOCKS, `must have at most ${MAX_TOP_LEVEL_BLOCKS} blocks`),
  meta: z.looseObject({ token: z.string().optional() }).optional(),
})

export const JsonDocumentSchema = z.preprocess(checkLimits, DocumentObjectSchema).meta({
  id: 'JSONDocument',
  description: 'A rich-text document: blocks down to text leaves with marks, as the official JSONDocument.',
}) as unknown as z.ZodType<JsonDocument, unknown>
