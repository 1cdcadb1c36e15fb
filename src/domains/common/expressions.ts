/**
 * Adaptive content's expressions (`visitor.claims.isBetaUser == true`, `space.vars.version`,
 * `visitor.claims.roles.includes("admin")`): the JavaScript expressions GitBook's condition editor
 * and inline expressions hold, parsed and evaluated here without `eval`, over JSON inputs only.
 *
 * What is supported: literals (strings, numbers, true, false, null, undefined), array literals,
 * names of the inputs, member access (`a.b`, `a["b"]`, `a?.b`, own properties only: never a
 * prototype's), unary `! - + typeof`, arithmetic, comparison and equality, `&& || ??`, `?:`, and
 * calls of a fixed set of pure methods of strings and arrays (`includes`, `startsWith`, `some(x =>
 * ...)`...). Nothing else can be named or called, so an expression can read its inputs and compute
 * a value, and do nothing more: no global (`Date`, `Math`), no function of the inputs, no
 * assignment. An expression naming only the roots it is given (`visitor`, `space`, `page` for a
 * document) is deterministic: its value depends on those inputs alone.
 *
 * Costs are bounded: an expression of at most 10,000 characters, nested at most 64 levels, and
 * evaluated in at most 100,000 steps (a callback over a long array counts each call); past them it
 * is an error, as a syntax error is.
 */

import type { Actor } from '../../core/context.js'

export class ExpressionError extends Error {}

export type ExpressionInputs = Readonly<Record<string, unknown>>

export interface Expression {
  readonly source: string
  /** Whether every name it reads is one of `roots` (and so its value depends on them alone). */
  readsOnly(roots: ReadonlySet<string>): boolean
  /** Its value over `inputs` (throws ExpressionError when it fails, as JavaScript would throw). */
  evaluate(inputs: ExpressionInputs): unknown
}

const MAX_LENGTH = 10_000
const MAX_DEPTH = 64
const MAX_STEPS = 100_000

type Node =
  | { t: 'lit'; v: unknown }
  | { t: 'id'; name: string }
  | { t: 'member'; obj: Node; prop: Node | string; optional: boolean }
  | { t: 'call'; obj: Node; method: string; args: Node[]; optional: boolean }
  | { t: 'unary'; op: string; arg: Node }
  | { t: 'bin'; op: string; l: Node; r: Node }
  | { t: 'cond'; test: Node; yes: Node; no: Node }
  | { t: 'array'; items: Node[] }
  | { t: 'arrow'; params: string[]; body: Node }

type Token = { k: 'num' | 'str' | 'id' | 'punc'; v: string | number; at: number }

const PUNCTUATORS = [
  '===',
  '!==',
  '?.',
  '==',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  '??',
  '=>',
  '(',
  ')',
  '[',
  ']',
  '.',
  ',',
  '?',
  ':',
  '!',
  '+',
  '-',
  '*',
  '/',
  '%',
  '<',
  '>',
]
const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v', '0': '\0' }

function tokenize(src: string): Token[] {
  const out: Token[] = []
  let i = 0
  while (i < src.length) {
    const c = src[i]!
    if (/\s/.test(c)) {
      i++
      continue
    }
    const start = i
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(src[i + 1] ?? ''))) {
      const m = /^(?:0[xX][0-9a-fA-F]+|(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)/.exec(src.slice(i))!
      out.push({ k: 'num', v: Number(m[0]), at: start })
      i += m[0].length
      continue
    }
    if (/[A-Za-z_$]/.test(c)) {
      const m = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(src.slice(i))!
      out.push({ k: 'id', v: m[0], at: start })
      i += m[0].length
      continue
    }
    if (c === '"' || c === "'") {
      let s = ''
      i++
      for (;;) {
        if (i >= src.length) throw new ExpressionError(`unterminated string at ${start}`)
        const ch = src[i]!
        if (ch === c) break
        if (ch === '\n') throw new ExpressionError(`unterminated string at ${start}`)
        if (ch === '\\') {
          const next = src[i + 1] ?? ''
          if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(src.slice(i + 2, i + 6))) {
            s += String.fromCharCode(parseInt(src.slice(i + 2, i + 6), 16))
            i += 6
            continue
          }
          s += ESCAPES[next] ?? next
          i += 2
          continue
        }
        s += ch
        i++
      }
      i++
      out.push({ k: 'str', v: s, at: start })
      continue
    }
    // `?.` followed by a digit is `?` then a number (`a?.5:1`), as in JavaScript.
    const punc = PUNCTUATORS.find((p) => src.startsWith(p, i) && !(p === '?.' && /[0-9]/.test(src[i + 2] ?? '')))
    if (!punc) throw new ExpressionError(`unexpected character \`${c}\` at ${i}`)
    out.push({ k: 'punc', v: punc, at: start })
    i += punc.length
  }
  return out
}

const BINARY: Record<string, number> = {
  '??': 1,
  '||': 1,
  '&&': 2,
  '==': 3,
  '!=': 3,
  '===': 3,
  '!==': 3,
  '<': 4,
  '>': 4,
  '<=': 4,
  '>=': 4,
  '+': 5,
  '-': 5,
  '*': 6,
  '/': 6,
  '%': 6,
}

const KEYWORDS: Record<string, unknown> = { true: true, false: false, null: null, undefined: undefined }

class Parser {
  private i = 0
  private depth = 0
  constructor(private readonly tokens: Token[]) {}

  parse(): Node {
    if (this.tokens.length === 0) throw new ExpressionError('empty expression')
    const node = this.expression()
    const extra = this.tokens[this.i]
    if (extra) throw new ExpressionError(`unexpected \`${extra.v}\` at ${extra.at}`)
    return node
  }

  private peek(v?: string): Token | undefined {
    const t = this.tokens[this.i]
    return v === undefined || (t?.k === 'punc' && t.v === v) ? t : undefined
  }

  private eat(v: string): boolean {
    if (!this.peek(v)) return false
    this.i++
    return true
  }

  private expect(v: string): void {
    if (!this.eat(v)) {
      const t = this.tokens[this.i]
      throw new ExpressionError(t ? `expected \`${v}\` at ${t.at}, found \`${t.v}\`` : `expected \`${v}\` at the end`)
    }
  }

  private nested<T>(f: () => T): T {
    if (++this.depth > MAX_DEPTH) throw new ExpressionError(`nested more than ${MAX_DEPTH} levels`)
    try {
      return f()
    } finally {
      this.depth--
    }
  }

  private expression(): Node {
    return this.nested(() => {
      const arrow = this.arrow()
      if (arrow) return arrow
      const test = this.binary(0)
      if (!this.eat('?')) return test
      const yes = this.expression()
      this.expect(':')
      return { t: 'cond', test, yes, no: this.expression() }
    })
  }

  /** `x => body` or `(x, y) => body`, else nothing consumed. */
  private arrow(): Node | undefined {
    const start = this.i
    const params: string[] = []
    const t = this.tokens[this.i]
    if (t?.k === 'id' && this.tokens[this.i + 1]?.v === '=>' && this.tokens[this.i + 1]?.k === 'punc') {
      params.push(t.v as string)
      this.i += 2
      return { t: 'arrow', params, body: this.expression() }
    }
    if (!this.eat('(')) return undefined
    while (!this.peek(')')) {
      const p = this.tokens[this.i]
      if (p?.k !== 'id' || p.v in KEYWORDS) {
        this.i = start
        return undefined
      }
      params.push(p.v as string)
      this.i++
      if (!this.eat(',')) break
    }
    if (!this.eat(')') || !this.eat('=>')) {
      this.i = start
      return undefined
    }
    return { t: 'arrow', params, body: this.expression() }
  }

  private binary(min: number): Node {
    let left = this.unary()
    for (;;) {
      const t = this.tokens[this.i]
      const power = t?.k === 'punc' ? BINARY[t.v as string] : undefined
      if (power === undefined || power <= min) return left
      this.i++
      const right = this.nested(() => this.binary(power))
      left = { t: 'bin', op: t!.v as string, l: left, r: right }
    }
  }

  private unary(): Node {
    const t = this.tokens[this.i]
    if ((t?.k === 'punc' && (t.v === '!' || t.v === '-' || t.v === '+')) || (t?.k === 'id' && t.v === 'typeof')) {
      this.i++
      return { t: 'unary', op: t.v as string, arg: this.nested(() => this.unary()) }
    }
    return this.postfix(this.primary())
  }

  private postfix(node: Node): Node {
    for (let links = 0; ; links++) {
      if (links > MAX_DEPTH * 4) throw new ExpressionError('too long a chain of properties')
      const optional = this.eat('?.')
      if (this.eat('[')) {
        const prop = this.expression()
        this.expect(']')
        node = { t: 'member', obj: node, prop, optional }
      } else if (optional || this.eat('.')) {
        if (optional && this.peek('(')) throw new ExpressionError('only methods of strings and arrays can be called')
        const name = this.tokens[this.i]
        if (name?.k !== 'id') throw new ExpressionError(`expected a property name at ${name?.at ?? 'the end'}`)
        this.i++
        if (this.eat('(')) node = { t: 'call', obj: node, method: name.v as string, args: this.args(), optional }
        else node = { t: 'member', obj: node, prop: name.v as string, optional }
      } else if (this.peek('(')) {
        throw new ExpressionError('only methods of strings and arrays can be called')
      } else return node
    }
  }

  private args(): Node[] {
    const args: Node[] = []
    while (!this.peek(')')) {
      args.push(this.expression())
      if (!this.eat(',')) break
    }
    this.expect(')')
    return args
  }

  private primary(): Node {
    const t = this.tokens[this.i++]
    if (!t) throw new ExpressionError('unexpected end of the expression')
    if (t.k === 'num' || t.k === 'str') return { t: 'lit', v: t.v }
    if (t.k === 'id') return t.v in KEYWORDS ? { t: 'lit', v: KEYWORDS[t.v as string] } : { t: 'id', name: t.v as string }
    if (t.v === '(') {
      const inner = this.expression()
      this.expect(')')
      return inner
    }
    if (t.v === '[') {
      const items: Node[] = []
      while (!this.peek(']')) {
        items.push(this.expression())
        if (!this.eat(',')) break
      }
      this.expect(']')
      return { t: 'array', items }
    }
    throw new ExpressionError(`unexpected \`${t.v}\` at ${t.at}`)
  }
}

/** The names an expression reads from its inputs (not the parameters of its callbacks). */
function freeNames(node: Node, bound: ReadonlySet<string>, out: Set<string>): Set<string> {
  switch (node.t) {
    case 'lit':
      break
    case 'id':
      if (!bound.has(node.name)) out.add(node.name)
      break
    case 'member':
      freeNames(node.obj, bound, out)
      if (typeof node.prop !== 'string') freeNames(node.prop, bound, out)
      break
    case 'call':
      freeNames(node.obj, bound, out)
      for (const a of node.args) freeNames(a, bound, out)
      break
    case 'unary':
      freeNames(node.arg, bound, out)
      break
    case 'bin':
      freeNames(node.l, bound, out)
      freeNames(node.r, bound, out)
      break
    case 'cond':
      freeNames(node.test, bound, out)
      freeNames(node.yes, bound, out)
      freeNames(node.no, bound, out)
      break
    case 'array':
      for (const i of node.items) freeNames(i, bound, out)
      break
    case 'arrow':
      freeNames(node.body, new Set([...bound, ...node.params]), out)
      break
  }
  return out
}

type Callback = { params: string[]; body: Node; scope: Scope }
type Scope = { vars: ReadonlyMap<string, unknown>; parent?: Scope | undefined; inputs: ExpressionInputs }

const isCallback = (v: unknown): v is Callback => v instanceof Object && (v as { [CALLBACK]?: true })[CALLBACK] === true
const CALLBACK = Symbol('callback')

/** A property of a JSON value: own properties of objects, indexes and `length` of arrays and strings. */
function property(obj: unknown, key: unknown): unknown {
  if (typeof key !== 'string' && typeof key !== 'number') return undefined
  const name = String(key)
  if (typeof obj === 'string' || Array.isArray(obj)) {
    if (name === 'length') return obj.length
    return /^(?:0|[1-9][0-9]*)$/.test(name) ? obj[Number(name)] : undefined
  }
  if (obj !== null && typeof obj === 'object' && !isCallback(obj)) return Object.hasOwn(obj, name) ? (obj as Record<string, unknown>)[name] : undefined
  return undefined
}

const describe = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v)

function text(v: unknown, what: string): string | number {
  if (typeof v !== 'string' && typeof v !== 'number') throw new ExpressionError(`${what} must be a string or a number, not ${describe(v)}`)
  return v
}

class Evaluator {
  private steps = 0

  run(node: Node, scope: Scope): unknown {
    if (++this.steps > MAX_STEPS) throw new ExpressionError(`takes more than ${MAX_STEPS} steps`)
    switch (node.t) {
      case 'lit':
        return node.v
      case 'id':
        for (let s: Scope | undefined = scope; s; s = s.parent) if (s.vars.has(node.name)) return s.vars.get(node.name)
        if (Object.hasOwn(scope.inputs, node.name)) return scope.inputs[node.name]
        throw new ExpressionError(`${node.name} is not defined`)
      case 'member': {
        const obj = this.run(node.obj, scope)
        if (obj === null || obj === undefined) {
          if (node.optional) return undefined
          throw new ExpressionError(`cannot read ${typeof node.prop === 'string' ? `\`${node.prop}\`` : 'a property'} of ${obj}`)
        }
        return property(obj, typeof node.prop === 'string' ? node.prop : this.run(node.prop, scope))
      }
      case 'call': {
        const obj = this.run(node.obj, scope)
        if ((obj === null || obj === undefined) && node.optional) return undefined
        return this.call(
          obj,
          node.method,
          node.args.map((a) => this.run(a, scope)),
        )
      }
      case 'unary': {
        const v = this.run(node.arg, scope)
        if (node.op === '!') return !v
        if (node.op === 'typeof') return isCallback(v) ? 'function' : typeof v
        return node.op === '-' ? -(v as number) : +(v as number)
      }
      case 'bin':
        return this.binary(node, scope)
      case 'cond':
        return this.run(node.test, scope) ? this.run(node.yes, scope) : this.run(node.no, scope)
      case 'array':
        return node.items.map((i) => this.run(i, scope))
      case 'arrow':
        return { [CALLBACK]: true, params: node.params, body: node.body, scope }
    }
  }

  private binary(node: Extract<Node, { t: 'bin' }>, scope: Scope): unknown {
    const l = this.run(node.l, scope)
    if (node.op === '&&') return l ? this.run(node.r, scope) : l
    if (node.op === '||') return l ? l : this.run(node.r, scope)
    if (node.op === '??') return l ?? this.run(node.r, scope)
    const r = this.run(node.r, scope)
    // The operands are JSON values or arrays made here: the operators run no code of the inputs.
    try {
      switch (node.op) {
        case '===':
          return l === r
        case '!==':
          return l !== r
        case '==':
          return l == r
        case '!=':
          return l != r
        case '<':
          return (l as number) < (r as number)
        case '>':
          return (l as number) > (r as number)
        case '<=':
          return (l as number) <= (r as number)
        case '>=':
          return (l as number) >= (r as number)
        case '+':
          return (l as number) + (r as number)
        case '-':
          return (l as number) - (r as number)
        case '*':
          return (l as number) * (r as number)
        case '/':
          return (l as number) / (r as number)
        default:
          return (l as number) % (r as number)
      }
    } catch (e) {
      throw new ExpressionError(e instanceof Error ? e.message : String(e))
    }
  }

  private callback(fn: unknown, method: string): (...args: unknown[]) => unknown {
    if (!isCallback(fn)) throw new ExpressionError(`${method} takes a function (\`x => ...\`)`)
    return (...args) => this.run(fn.body, { vars: new Map(fn.params.map((p, i) => [p, args[i]])), parent: fn.scope, inputs: fn.scope.inputs })
  }

  private call(obj: unknown, method: string, args: unknown[]): unknown {
    if (typeof obj === 'string') {
      switch (method) {
        case 'includes':
        case 'startsWith':
        case 'endsWith':
        case 'indexOf':
          return obj[method](String(text(args[0], `the argument of ${method}`)))
        case 'toLowerCase':
        case 'toUpperCase':
        case 'trim':
          return obj[method]()
        case 'slice':
          return obj.slice(args[0] as number | undefined, args[1] as number | undefined)
        case 'split':
          return obj.split(String(text(args[0], 'the argument of split')))
      }
    } else if (Array.isArray(obj)) {
      switch (method) {
        case 'includes':
        case 'indexOf':
          return obj[method](args[0])
        case 'join':
          return obj.join(args[0] === undefined ? ',' : String(text(args[0], 'the argument of join')))
        case 'slice':
          return obj.slice(args[0] as number | undefined, args[1] as number | undefined)
        case 'some':
          return obj.some(this.callback(args[0], method))
        case 'every':
          return obj.every(this.callback(args[0], method))
        case 'find':
          return obj.find(this.callback(args[0], method))
        case 'filter':
          return obj.filter(this.callback(args[0], method))
        case 'map':
          return obj.map(this.callback(args[0], method))
      }
    }
    throw new ExpressionError(`${method} is not a method this API evaluates on ${describe(obj)}`)
  }
}

/** Parse an expression (throws ExpressionError on a syntax error or beyond the bounds). */
export function parseExpression(source: string): Expression {
  if (source.length > MAX_LENGTH) throw new ExpressionError(`longer than ${MAX_LENGTH} characters`)
  const ast = new Parser(tokenize(source)).parse()
  const names = freeNames(ast, new Set(), new Set())
  return {
    source,
    readsOnly: (roots) => [...names].every((n) => roots.has(n)),
    evaluate: (inputs) => {
      const value = new Evaluator().run(ast, { vars: new Map(), inputs })
      return isCallback(value) ? undefined : value
    },
  }
}

/**
 * A condition's verdict, as GitBook's runtime gives it: an empty condition holds, one that fails
 * to parse or to evaluate does not (a visitor without the claim does not see the content).
 */
export function evaluateCondition(source: string, inputs: ExpressionInputs): boolean {
  if (source.trim() === '') return true
  try {
    return Boolean(parseExpression(source).evaluate(inputs))
  } catch (e) {
    if (e instanceof ExpressionError) return false
    throw e
  }
}

/** A value as text, as GitBook's renderer shows an inline expression's value (nothing for objects, null and undefined). */
export function formatExpressionValue(value: unknown): string {
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return ''
}

/**
 * The `visitor` input of a caller: the claims of its site token (as GitBook's renderer has them,
 * `unsigned` always present), none for any other caller.
 */
export function visitorInput(actor: Actor): { claims: Record<string, unknown> } {
  return { claims: { unsigned: {}, ...actor.content?.claims } }
}
