import type { Actor } from '../../core/context.js'
import { compileExpression, EXPRESSION_MAX_LENGTH, ExpressionSyntaxError, type CompiledTree } from './expression-compile.js'
import { evaluateTree } from './expression-evaluate.js'
import { rememberBounded, touch } from '../../core/bounded-map.js'

/**
 * GitBook's expressions (adaptive content): the `condition` of a site section, a site-space or a
 * page, and the inline expressions and `if` blocks of a document. They are JavaScript expressions
 * over the visitor (`visitor.claims.isBetaUser === true`, `visitor.claims.unsigned.plan == "pro"`,
 * `visitor.claims.roles.includes("admin")`) and, in documents, the variables (`space.vars.x`,
 * `page.vars.x`). GitBook evaluates them with a general JavaScript evaluator; here a whitelist
 * compiles them (expression-compile.ts) and a bounded evaluator runs them
 * (expression-evaluate.ts). docs/behaviour/share-links-and-adaptive-content.md says what is
 * supported and where this differs from GitBook.
 */

export { EXPRESSION_MAX_LENGTH, EXPRESSION_MAX_DEPTH } from './expression-compile.js'
export { EXPRESSION_MAX_STEPS } from './expression-evaluate.js'

/** An expression ready to evaluate: parse once, evaluate per request. */
export interface CompiledExpression {
  readonly text: string
  /** Names the expression reads from its scope (`visitor`, `space`...), in order of first use. */
  readonly globals: readonly string[]
  /** True when it does not read the visitor: its value is the same for every visitor. */
  readonly deterministic: boolean
  /** @internal The compiled tree. */
  readonly tree: CompiledTree
}

export type ExpressionParse = { ok: true; expression: CompiledExpression } | { ok: false; error: string }
export type ExpressionValue = { ok: true; value: unknown } | { ok: false; error: string }

/** The visitor as GitBook hands it to expressions: signed claims at the top, unsigned ones under `unsigned`. */
export interface Visitor {
  claims: Record<string, unknown>
}

/** Space and page variables, for expressions in documents (`space.vars.x`, `page.vars.x`). */
export interface ExpressionVariables {
  space?: Readonly<Record<string, unknown>>
  page?: Readonly<Record<string, unknown>>
}

/** The names GitBook's expressions may read that depend on who visits. */
const VISITOR_GLOBALS = new Set(['visitor'])

/** Compiled expressions by text, most recently used last: the same conditions come back on every request. */
const CACHE_SIZE = 500
const cache = new Map<string, ExpressionParse>()

/**
 * Parse an expression: a compiled expression, or an error saying what is wrong (and where, for a
 * syntax error: "Unexpected "}" at character 1"). Results, errors included, are cached by text.
 */
export function parseExpression(text: string): ExpressionParse {
  const cached = touch(cache, text)
  if (cached) return cached
  const parsed = parseUncached(text)
  // Texts over the limit fail before any work: not worth a cache entry, and unbounded in size.
  if (text.length <= EXPRESSION_MAX_LENGTH) {
    rememberBounded(cache, text, parsed, CACHE_SIZE)
  }
  return parsed
}

function parseUncached(text: string): ExpressionParse {
  if (text.length > EXPRESSION_MAX_LENGTH) return { ok: false, error: `is longer than ${EXPRESSION_MAX_LENGTH} characters` }
  if (text.trim() === '') return { ok: false, error: 'is empty' }
  try {
    const tree = compileExpression(text)
    const deterministic = !tree.globals.some((name) => VISITOR_GLOBALS.has(name))
    return { ok: true, expression: Object.freeze({ text, globals: Object.freeze([...tree.globals]), deterministic, tree }) }
  } catch (error) {
    if (error instanceof ExpressionSyntaxError) return { ok: false, error: error.message }
    throw error
  }
}

/** The problem with an expression's text, or undefined when it parses: for validating input. */
export function expressionProblem(text: string): string | undefined {
  const parsed = parseExpression(text)
  return parsed.ok ? undefined : parsed.error
}

const compiled = (expression: CompiledExpression | string): ExpressionParse =>
  typeof expression === 'string' ? parseExpression(expression) : { ok: true, expression }

/**
 * The value of an expression in a scope of named values (`{ visitor, space: { vars }, page: { vars } }`):
 * names the scope does not hold are undefined, as in GitBook. An evaluation that fails (reading a
 * property of undefined, calling a method on the wrong type, too much work) is an error.
 */
export function evaluateExpression(expression: CompiledExpression | string, scope: Readonly<Record<string, unknown>>): ExpressionValue {
  const parsed = compiled(expression)
  if (!parsed.ok) return parsed
  try {
    return { ok: true, value: evaluateTree(parsed.expression.tree, scope) }
  } catch (error) {
    // ExpressionEvaluationError says why; anything else (a RangeError from a pathological value)
    // is a failed evaluation too, never an exception out of a request.
    return { ok: false, error: error instanceof Error ? error.message : 'cannot be evaluated' }
  }
}

/**
 * The scope GitBook evaluates a visitor's expressions in: `visitor.claims` with `unsigned` always
 * an object (so `visitor.claims.unsigned.x` is undefined rather than an error for a visitor with
 * no unsigned claims), and the variables under `space.vars` and `page.vars`.
 */
export function visitorScope(visitor: Visitor, variables: ExpressionVariables = {}): Record<string, unknown> {
  const { claims } = visitor
  const unsigned = Object.getOwnPropertyDescriptor(claims, 'unsigned')?.value
  // Copied by descriptors, not spread: a spread would run any getter the claims carry.
  const withUnsigned =
    typeof unsigned === 'object' && unsigned !== null && !Array.isArray(unsigned)
      ? claims
      : Object.defineProperties(
          {},
          { ...Object.getOwnPropertyDescriptors(claims), unsigned: { value: {}, enumerable: true, writable: true, configurable: true } },
        )
  return {
    visitor: { claims: withUnsigned },
    space: { vars: variables.space ?? {} },
    ...(variables.page && { page: { vars: variables.page } }),
  }
}

/**
 * Whether a condition lets this visitor in. As GitBook: an empty condition (or only spaces) is
 * true; one that does not parse or fails to evaluate is false; otherwise its value's truthiness.
 */
export function evaluateCondition(condition: CompiledExpression | string, visitor: Visitor, variables?: ExpressionVariables): boolean {
  if (typeof condition === 'string' && condition.trim() === '') return true
  const result = evaluateExpression(condition, visitorScope(visitor, variables))
  return result.ok && Boolean(result.value)
}

/**
 * Whether an expression's value is the same for every visitor (it reads no `visitor`): those are
 * the ones `evaluated=deterministic-only` evaluates. An empty or unparseable text is deterministic
 * too: its result (true, or a failure) does not depend on the visitor either.
 */
export function isDeterministic(expression: CompiledExpression | string): boolean {
  if (typeof expression !== 'string') return expression.deterministic
  if (expression.trim() === '') return true
  const parsed = parseExpression(expression)
  return !parsed.ok || parsed.expression.deterministic
}

/** A value as text, as GitBook's renderer shows an inline expression's value (nothing for objects, null and undefined). */
export function formatExpressionValue(value: unknown): string {
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return ''
}

/**
 * The visitor of a caller: the claims of its site token (as GitBook's renderer has them,
 * `unsigned` always present), none for any other caller.
 */
export function visitorOf(actor: Actor): Visitor {
  return { claims: { unsigned: {}, ...actor.content?.claims } }
}
