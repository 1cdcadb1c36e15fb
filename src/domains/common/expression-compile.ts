import jsep from 'jsep'

/**
 * Compiling an expression's text (GitBook's adaptive-content language: a JavaScript expression)
 * into a small closed tree that expression-evaluate.ts walks. jsep parses; this file decides what
 * is allowed, so the evaluator never meets a construct it has no rule for: literals, names,
 * member access, the whitelisted methods, `!`/`-`/`+`/`typeof`, comparisons, arithmetic, `&&`,
 * `||`, `??`, the ternary and array literals. Nothing else parses (no assignment, no `this`, no
 * `new`, no call of anything but a listed method), and no key of an object's machinery
 * (`__proto__`, `constructor`, `prototype`) can be named.
 */

// jsep's configuration is global to the process: these are the only two changes this module makes.
// `=>` is read as a binary operator (the same precedence jsep's arrow plugin uses) and turned into
// a callback below, where a method takes one; `typeof` is a prefix operator like `!`.
jsep.addBinaryOp('=>', 0.1, true)
jsep.addUnaryOp('typeof')

/** GitBook's limit on an expression (the official `Expression`: at most 1024 characters). */
export const EXPRESSION_MAX_LENGTH = 1024
/** How deeply an expression may nest (brackets, operators, member chains): ample for a condition, and it bounds recursion. */
export const EXPRESSION_MAX_DEPTH = 64

export type Primitive = string | number | boolean | null | undefined

/** Keys that reach an object's machinery rather than its data: never read, by name or computed. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set([
  '__proto__',
  'constructor',
  'prototype',
  '__defineGetter__',
  '__defineSetter__',
  '__lookupGetter__',
  '__lookupSetter__',
])

/** Methods of strings and arrays an expression may call (GitBook's standard library, a few more). */
export const STRING_METHODS = ['at', 'startsWith', 'endsWith', 'includes', 'indexOf', 'toLowerCase', 'toUpperCase', 'trim'] as const
export const ARRAY_METHODS = ['at', 'includes', 'indexOf', 'some', 'every', 'find', 'filter', 'map'] as const
export const CALLBACK_METHODS = ['some', 'every', 'find', 'filter', 'map'] as const
export type MethodName = (typeof STRING_METHODS)[number] | (typeof ARRAY_METHODS)[number]
type CallbackMethod = (typeof CALLBACK_METHODS)[number]

/** How many arguments each method takes (a callback counts as one). */
const ARITY: Record<MethodName, readonly [number, number]> = {
  at: [1, 1],
  startsWith: [1, 2],
  endsWith: [1, 2],
  includes: [1, 2],
  indexOf: [1, 2],
  toLowerCase: [0, 0],
  toUpperCase: [0, 0],
  trim: [0, 0],
  some: [1, 1],
  every: [1, 1],
  find: [1, 1],
  filter: [1, 1],
  map: [1, 1],
}
const METHODS = new Set<string>(Object.keys(ARITY))
const isCallbackMethod = (name: string): name is CallbackMethod => (CALLBACK_METHODS as readonly string[]).includes(name)

export type UnaryOperator = '!' | '-' | '+' | 'typeof'
export type BinaryOperator = '===' | '!==' | '==' | '!=' | '<' | '<=' | '>' | '>=' | '+' | '-' | '*' | '/' | '%'
export type LogicalOperator = '&&' | '||' | '??'
const UNARY = new Set<string>(['!', '-', '+', 'typeof'])
const BINARY = new Set<string>(['===', '!==', '==', '!=', '<', '<=', '>', '>=', '+', '-', '*', '/', '%'])
const LOGICAL = new Set<string>(['&&', '||', '??'])

/** A callback (`x => ...` or `(x, i) => ...`): its parameters are slots of the evaluation's locals. */
export interface Callback {
  element: number
  index: number | undefined
  body: ExprNode
}

/** The compiled tree. Optional members and calls short-circuit their chain on null or undefined. */
export type ExprNode =
  | { type: 'literal'; value: Primitive }
  | { type: 'global'; name: string }
  | { type: 'local'; slot: number }
  | { type: 'member'; object: ExprNode; key: string | ExprNode; optional: boolean }
  | { type: 'call'; object: ExprNode; method: MethodName; args: ExprNode[]; callback: Callback | undefined; optional: boolean }
  | { type: 'unary'; operator: UnaryOperator; argument: ExprNode }
  | { type: 'binary'; operator: BinaryOperator; left: ExprNode; right: ExprNode }
  | { type: 'logical'; operator: LogicalOperator; operands: ExprNode[] }
  | { type: 'conditional'; test: ExprNode; consequent: ExprNode; alternate: ExprNode }
  | { type: 'array'; elements: ExprNode[] }

export interface CompiledTree {
  root: ExprNode
  /** Names read from the evaluation's scope (`visitor`, `space`, `page`...), in order of first use. */
  globals: string[]
  /** Callback parameters in the whole tree: the size of the evaluation's locals. */
  slots: number
}

/** A problem with the text; its message is shown to the author as is. */
export class ExpressionSyntaxError extends Error {}

const fail = (message: string): never => {
  throw new ExpressionSyntaxError(message)
}

/**
 * Compile a non-empty text no longer than the limit. Throws ExpressionSyntaxError with a message
 * naming the problem (and, for jsep's errors, the character where it is).
 */
export function compileExpression(text: string): CompiledTree {
  checkNesting(text)
  let ast: jsep.Expression
  try {
    ast = jsep(text)
  } catch (error) {
    // jsep's messages say what it expected and at which character; a RangeError would be the
    // stack, which checkNesting keeps far away.
    throw new ExpressionSyntaxError(error instanceof Error ? error.message : 'cannot be parsed')
  }
  return new Compiler().compile(ast)
}

/**
 * Refuse brackets nested deeper than the limit before jsep, whose descent recurses per bracket,
 * sees the text. Quotes are followed so brackets inside string literals do not count.
 */
function checkNesting(text: string): void {
  let depth = 0
  let quote = ''
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!
    if (quote) {
      if (ch === '\\') i++
      else if (ch === quote) quote = ''
    } else if (ch === '"' || ch === "'") quote = ch
    else if (ch === '(' || ch === '[') {
      if (++depth > EXPRESSION_MAX_DEPTH) fail(`nests brackets deeper than ${EXPRESSION_MAX_DEPTH} levels`)
    } else if (ch === ')' || ch === ']') depth--
  }
}

class Compiler {
  private readonly globals: string[] = []
  /** Callback parameters in scope, innermost last. */
  private readonly params: Array<{ name: string; slot: number }> = []
  private slots = 0
  private depth = 0

  compile(ast: jsep.Expression): CompiledTree {
    if (ast.type === 'Compound') fail('must be a single expression (found several, separated by `,` or `;`)')
    const root = this.node(ast)
    return { root, globals: this.globals, slots: this.slots }
  }

  private node(ast: jsep.Expression): ExprNode {
    if (++this.depth > EXPRESSION_MAX_DEPTH) fail(`nests deeper than ${EXPRESSION_MAX_DEPTH} levels`)
    try {
      return this.convert(ast)
    } finally {
      this.depth--
    }
  }

  private convert(ast: jsep.Expression): ExprNode {
    switch (ast.type) {
      case 'Literal':
        return this.literal(ast as jsep.Literal)
      case 'Identifier':
        return this.identifier((ast as jsep.Identifier).name)
      case 'MemberExpression':
        return this.member(ast as jsep.MemberExpression)
      case 'CallExpression':
        return this.call(ast as jsep.CallExpression)
      case 'UnaryExpression': {
        const { operator, argument } = ast as jsep.UnaryExpression
        if (!UNARY.has(operator)) fail(`the operator \`${operator}\` is not supported`)
        return { type: 'unary', operator: operator as UnaryOperator, argument: this.node(argument) }
      }
      case 'BinaryExpression':
        return this.binary(ast as jsep.BinaryExpression)
      case 'ConditionalExpression': {
        const { test, consequent, alternate } = ast as jsep.ConditionalExpression
        return { type: 'conditional', test: this.node(test), consequent: this.node(consequent), alternate: this.node(alternate) }
      }
      case 'ArrayExpression':
        // A hole (`[1, , 2]`) is undefined, as in JavaScript.
        return { type: 'array', elements: (ast as jsep.ArrayExpression).elements.map((e) => (e ? this.node(e) : { type: 'literal', value: undefined })) }
      case 'ThisExpression':
        return fail('`this` is not supported: name the visitor as `visitor`')
      case 'SequenceExpression':
        return fail('must be a single expression (found several, separated by `,`)')
      case 'Compound':
        return fail('must be a single expression (found several, separated by `,` or `;`)')
      default:
        return fail(`${ast.type} is not supported`)
    }
  }

  private literal(ast: jsep.Literal): ExprNode {
    const { value, raw } = ast
    // jsep reads the common escapes only (`\u0041` comes out as `u0041`): strings are decoded again
    // from their source text by JavaScript's rules.
    if (typeof value === 'string') return { type: 'literal', value: decodeString(raw) }
    if (value === null || typeof value === 'number' || typeof value === 'boolean') return { type: 'literal', value }
    return fail(`the literal ${raw} is not supported`)
  }

  private identifier(name: string): ExprNode {
    for (let i = this.params.length - 1; i >= 0; i--) if (this.params[i]!.name === name) return { type: 'local', slot: this.params[i]!.slot }
    if (name === 'undefined') return { type: 'literal', value: undefined }
    if (!this.globals.includes(name)) this.globals.push(name)
    return { type: 'global', name }
  }

  private member(ast: jsep.MemberExpression): ExprNode {
    const object = this.node(ast.object)
    const optional = ast.optional === true
    if (!ast.computed) return { type: 'member', object, key: this.key((ast.property as jsep.Identifier).name), optional }
    const property = ast.property
    // `a["b"]` and `a[0]` are static keys, checked now; a computed key is checked when evaluated.
    if (property.type === 'Literal') {
      const { value } = property as jsep.Literal
      if (typeof value === 'string') return { type: 'member', object, key: this.key(decodeString((property as jsep.Literal).raw)), optional }
      if (typeof value === 'number') return { type: 'member', object, key: String(value), optional }
    }
    return { type: 'member', object, key: this.node(property), optional }
  }

  private key(name: string): string {
    if (FORBIDDEN_KEYS.has(name)) fail(`the property \`${name}\` cannot be read`)
    return name
  }

  private call(ast: jsep.CallExpression): ExprNode {
    const callee = ast.callee
    const method =
      callee.type === 'MemberExpression' && !(callee as jsep.MemberExpression).computed
        ? ((callee as jsep.MemberExpression).property as jsep.Identifier).name
        : undefined
    if (method === undefined || !METHODS.has(method)) {
      const what = method === undefined ? 'only methods' : `\`${method}\` is not a supported method: only`
      fail(`${what} ${[...METHODS].join(', ')} can be called (on strings and arrays)`)
    }
    const name = method as MethodName
    const [min, max] = ARITY[name]
    if (ast.arguments.length < min || ast.arguments.length > max) {
      fail(`\`${name}\` takes ${min === max ? min : `${min} or ${max}`} argument${max === 1 ? '' : 's'}, not ${ast.arguments.length}`)
    }
    const member = callee as jsep.MemberExpression
    const object = this.node(member.object)
    // `a?.b()` short-circuits on `a`, `a.b?.()` on a receiver without that method.
    const optional = member.optional === true || ast.optional === true
    if (isCallbackMethod(name)) return { type: 'call', object, method: name, args: [], callback: this.callback(name, ast.arguments[0]!), optional }
    return { type: 'call', object, method: name, args: ast.arguments.map((a) => this.node(a)), callback: undefined, optional }
  }

  /** `x => body` or `(x, i) => body`, the only place an arrow function may stand. */
  private callback(method: string, ast: jsep.Expression): Callback {
    if (ast.type !== 'BinaryExpression' || (ast as jsep.BinaryExpression).operator !== '=>') fail(`\`${method}\` takes an arrow function (\`x => ...\`)`)
    const { left, right } = ast as jsep.BinaryExpression
    const params = left.type === 'SequenceExpression' ? (left as jsep.SequenceExpression).expressions : [left]
    if (params.length > 2 || params.some((p) => p.type !== 'Identifier'))
      fail(`the arrow function of \`${method}\` takes one or two names (\`x => ...\`, \`(x, i) => ...\`)`)
    const names = params.map((p) => (p as jsep.Identifier).name)
    if (names.includes('undefined')) fail('a parameter cannot be named `undefined`')
    const bound = names.map((name) => ({ name, slot: this.slots++ }))
    this.params.push(...bound)
    try {
      return { element: bound[0]!.slot, index: bound[1]?.slot, body: this.node(right) }
    } finally {
      this.params.length -= bound.length
    }
  }

  private binary(ast: jsep.BinaryExpression): ExprNode {
    const { operator } = ast
    if (operator === '=>') return fail('an arrow function can only be the argument of some, every, find, filter or map')
    if (LOGICAL.has(operator)) {
      // A chain `a && b && c` is one node whatever its length: jsep nests it leftwards, which
      // would otherwise count one level per operand.
      const operands: jsep.Expression[] = []
      let left: jsep.Expression = ast
      while (left.type === 'BinaryExpression' && (left as jsep.BinaryExpression).operator === operator) {
        operands.push((left as jsep.BinaryExpression).right)
        left = (left as jsep.BinaryExpression).left
      }
      operands.push(left)
      return { type: 'logical', operator: operator as LogicalOperator, operands: operands.reverse().map((o) => this.node(o)) }
    }
    if (!BINARY.has(operator)) fail(`the operator \`${operator}\` is not supported`)
    return { type: 'binary', operator: operator as BinaryOperator, left: this.node(ast.left), right: this.node(ast.right) }
  }
}

const SIMPLE_ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f', v: '\v', '0': '\0' }

/** The value of a string literal from its source (quotes included), by JavaScript's escape rules. */
function decodeString(raw: string): string {
  const body = raw.slice(1, -1)
  let out = ''
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!
    if (ch !== '\\') {
      out += ch
      continue
    }
    const next = body[++i] ?? ''
    if (next in SIMPLE_ESCAPES && !(next === '0' && /[0-9]/.test(body[i + 1] ?? ''))) out += SIMPLE_ESCAPES[next]
    else if (next === 'x') {
      const hex = body.slice(i + 1, i + 3)
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) fail('a string has an invalid `\\x` escape')
      out += String.fromCharCode(parseInt(hex, 16))
      i += 2
    } else if (next === 'u') {
      const braced = body[i + 1] === '{' ? /^\{([0-9a-fA-F]{1,6})\}/.exec(body.slice(i + 1)) : null
      const hex = braced ? braced[1]! : body.slice(i + 1, i + 5)
      const code = /^[0-9a-fA-F]+$/.test(hex) && (braced || hex.length === 4) ? parseInt(hex, 16) : NaN
      if (!(code <= 0x10ffff)) fail('a string has an invalid `\\u` escape')
      out += String.fromCodePoint(code)
      i += braced ? braced[0].length : 4
    } else if (next === '\r') {
      if (body[i + 1] === '\n') i++ // a line continuation
    } else if (next !== '\n' && next !== '\u2028' && next !== '\u2029') out += next
  }
  return out
}
