import type { ReadContext } from '../context.js'
import type { DocBlock, DocFragment, DocInline, DocNode, DocText, JsonDocument } from './document.js'
import type { RevisionRow } from './rows.js'
import { evaluateExpression, formatExpressionValue, parseExpression, visitorOf, visitorScope } from '../common/expressions.js'

/** What a document's expressions read: `visitor`, `space`, `page`. */
export type ExpressionInputs = Readonly<Record<string, unknown>>

/**
 * A document evaluated for one reader (the official `evaluated` query): its `if` blocks resolved
 * (kept as their blocks when the condition holds, dropped when it does not) and its inline
 * expressions replaced by their value as text. The inputs are what GitBook's renderer gives
 * expressions: `visitor.claims` (the claims of the caller's site token; none for other callers),
 * `space.vars` (the revision's variables) and `page.vars` (pages hold no variables here: `{}`).
 *
 * `all` (`evaluated=true`) evaluates every expression: a condition that fails to evaluate does not
 * hold, an inline expression that fails is left as it is. `deterministic` (`deterministic-only`)
 * evaluates only the expressions that read nothing but these inputs (every expression this API
 * can evaluate reads nothing else, common/expressions.ts: one naming `Date` or an unknown global
 * is left as it is, for a reader that knows more).
 *
 * Copy-on-write: a document without expressions comes back as the same object.
 */
export type EvaluationMode = 'all' | 'deterministic'

const ROOTS: ReadonlySet<string> = new Set(['visitor', 'space', 'page'])

/** The inputs of a document's expressions for this caller and revision. */
export function expressionInputs(ctx: ReadContext, rev: RevisionRow): ExpressionInputs {
  return visitorScope(visitorOf(ctx.actor), { space: { ...rev.variables }, page: {} })
}

/** The `evaluated` query as a mode (undefined: the document as stored). */
export function evaluationMode(evaluated: 'true' | 'false' | 'deterministic-only' | undefined): EvaluationMode | undefined {
  return evaluated === 'true' ? 'all' : evaluated === 'deterministic-only' ? 'deterministic' : undefined
}

type Verdict = { value: unknown } | { error: true } | undefined

export function evaluateDocument(document: JsonDocument, mode: EvaluationMode, inputs: ExpressionInputs): JsonDocument {
  /** An expression's value; `{ error }` when it fails; undefined when this mode leaves it as it is. */
  const verdict = (source: unknown): Verdict => {
    const parsed = parseExpression(typeof source === 'string' ? source : '')
    if (!parsed.ok) return mode === 'all' ? { error: true } : undefined
    if (mode === 'deterministic' && !parsed.expression.globals.every((name) => ROOTS.has(name))) return undefined
    const result = evaluateExpression(parsed.expression, inputs)
    return result.ok ? { value: result.value } : { error: true }
  }

  const mapNodes = <N extends DocNode>(nodes: readonly N[]): N[] => {
    let out: N[] | undefined
    nodes.forEach((node, i) => {
      const next = mapNode(node)
      if (next.length === 1 && next[0] === node) {
        out?.push(node)
        return
      }
      out ??= nodes.slice(0, i)
      out.push(...(next as N[]))
    })
    return out ?? (nodes as N[])
  }

  const mapFragments = (fragments: readonly DocFragment[]): DocFragment[] => {
    let changed = false
    const out = fragments.map((f) => {
      const nodes = mapNodes(f.nodes)
      if (nodes === f.nodes) return f
      changed = true
      return { ...f, nodes }
    })
    return changed ? out : (fragments as DocFragment[])
  }

  /** What a node becomes: itself, its evaluated copy, its children (a holding `if`), a text, or nothing. */
  const mapNode = (node: DocNode): DocNode[] => {
    if (node.object === 'text') return [node]
    if (node.object === 'block' && node.type === 'if') {
      const v = verdict(node.data?.expression)
      if (v !== undefined) return 'value' in v && v.value ? mapNodes(node.nodes ?? []) : []
    }
    if (node.object === 'inline' && node.type === 'expression') {
      const v = verdict(node.data?.expression)
      if (v !== undefined && 'value' in v) {
        const leaf: DocText = { object: 'text', leaves: [{ object: 'leaf', text: formatExpressionValue(v.value), marks: [] }] }
        return [leaf]
      }
      return [node]
    }
    const nodes = node.nodes && mapNodes(node.nodes as DocNode[])
    const fragments = 'fragments' in node && node.fragments ? mapFragments(node.fragments) : undefined
    if (nodes === node.nodes && fragments === (node as DocBlock).fragments) return [node]
    const copy = { ...node } as DocBlock | DocInline
    if (nodes) copy.nodes = nodes as DocBlock['nodes'] & DocInline['nodes']
    if (fragments) (copy as DocBlock).fragments = fragments
    return [copy]
  }

  const nodes = mapNodes(document.nodes)
  return nodes === document.nodes ? document : { ...document, nodes }
}
