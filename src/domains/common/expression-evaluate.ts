import { FORBIDDEN_KEYS, type BinaryOperator, type Callback, type CompiledTree, type ExprNode, type MethodName } from './expression-compile.js'

/**
 * Evaluating a compiled expression (expression-compile.ts) against a scope of named values
 * (`visitor`, and for documents `space`/`page`), with JavaScript's semantics on JSON-like data:
 * - only own data properties are read (never a getter, never anything inherited), so values
 *   handed in are the only reachable objects; strings and arrays also answer `length` and indexes;
 * - objects are turned into primitives (for `==`, `<`, `+`...) the way JavaScript does for JSON
 *   data (`[1, 2]` is "1,2", an object "[object Object]"), by this code rather than by calling the
 *   values' own `toString`;
 * - the work is bounded: every node, every array element a method or a conversion goes through
 *   (paid before the scan), and every 256 characters a string operation handles count one step,
 *   and an evaluation stops past EXPRESSION_MAX_STEPS, whatever the size of the claims (a visitor
 *   chooses unsigned claims: they are not trusted).
 * Reading a property of null or undefined fails (TypeError in JavaScript), unless `?.`.
 */

/** Steps one evaluation may take: far more than a condition needs, a few milliseconds at most. */
export const EXPRESSION_MAX_STEPS = 100_000
/** How deeply nested a value may be where it is turned into a primitive (`[[...]] == "x"`). */
const MAX_VALUE_DEPTH = 64
/** Characters a step pays for in string operations. */
const CHARS_PER_STEP = 256

/** Why an evaluation failed; the message says it to the author. */
export class ExpressionEvaluationError extends Error {}

const fail = (message: string): never => {
  throw new ExpressionEvaluationError(message)
}

/** What an optional member or call yields on null or undefined: the rest of its chain is skipped. */
const SHORT = Symbol('short-circuit')

export function evaluateTree(tree: CompiledTree, scope: Readonly<Record<string, unknown>>): unknown {
  const value = new Evaluation(scope, tree.slots).run(tree.root)
  return value === SHORT ? undefined : value
}

class Evaluation {
  private steps = 0
  private readonly locals: unknown[]

  constructor(
    private readonly scope: Readonly<Record<string, unknown>>,
    slots: number,
  ) {
    this.locals = new Array<unknown>(slots).fill(undefined)
  }

  charge(steps: number): void {
    this.steps += steps
    if (this.steps > EXPRESSION_MAX_STEPS) fail(`takes more than ${EXPRESSION_MAX_STEPS} steps to evaluate`)
  }

  chargeChars(chars: number): void {
    this.charge(Math.floor(chars / CHARS_PER_STEP))
  }

  /** The value of a node; an optional chain's short-circuit stays SHORT for its enclosing member or call. */
  run(node: ExprNode): unknown {
    this.charge(1)
    switch (node.type) {
      case 'literal':
        return node.value
      case 'global':
        return ownValue(this.scope, node.name)
      case 'local':
        return this.locals[node.slot]
      case 'member': {
        const object = this.run(node.object)
        if (object === SHORT) return SHORT
        const key = typeof node.key === 'string' ? node.key : propertyKey(this.value(node.key))
        if (FORBIDDEN_KEYS.has(key)) return fail(`the property \`${key}\` cannot be read`)
        if (object === null || object === undefined) return node.optional ? SHORT : fail(`cannot read \`${key}\` of ${object}`)
        return this.property(object, key)
      }
      case 'call':
        return this.call(node)
      case 'unary': {
        const value = this.value(node.argument)
        if (node.operator === '!') return !value
        if (node.operator === 'typeof') return typeof value
        const number = this.primitive(value) as number
        return node.operator === '-' ? -number : +number
      }
      case 'binary':
        return this.binary(node.operator, this.value(node.left), this.value(node.right))
      case 'logical': {
        // JavaScript's short-circuit: the operand that decides is the value.
        let value: unknown
        for (const operand of node.operands) {
          value = this.value(operand)
          if (node.operator === '&&' ? !value : node.operator === '||' ? value : value !== null && value !== undefined) return value
        }
        return value
      }
      case 'conditional':
        return this.value(this.value(node.test) ? node.consequent : node.alternate)
      case 'array':
        return node.elements.map((e) => this.value(e))
    }
  }

  /** The value of a node as a whole expression: a short-circuited chain is undefined. */
  value(node: ExprNode): unknown {
    const value = this.run(node)
    return value === SHORT ? undefined : value
  }

  private property(object: unknown, key: string): unknown {
    if (typeof object === 'string') {
      if (key === 'length') return object.length
      const index = arrayIndex(key)
      return index !== undefined && index < object.length ? object[index] : undefined
    }
    if (Array.isArray(object)) {
      if (key === 'length') return object.length
      return arrayIndex(key) !== undefined ? ownValue(object, key) : undefined
    }
    // Numbers and booleans have no data of their own: any property is undefined, as in JavaScript.
    return typeof object === 'object' || typeof object === 'function' ? ownValue(object as object, key) : undefined
  }

  private call(node: Extract<ExprNode, { type: 'call' }>): unknown {
    const receiver = this.run(node.object)
    if (receiver === SHORT) return SHORT
    const isString = typeof receiver === 'string'
    const applies = isString ? STRING_METHOD_SET.has(node.method) : Array.isArray(receiver) && ARRAY_METHOD_SET.has(node.method)
    if (!applies) {
      if (node.optional && (receiver === null || receiver === undefined)) return SHORT
      return fail(`\`${node.method}\` cannot be called on ${describe(receiver)}`)
    }
    if (node.callback) return this.iterate(receiver as unknown[], node.method, node.callback)
    const args = node.args.map((a) => this.value(a))
    return isString ? this.stringMethod(receiver as string, node.method, args) : this.arrayMethod(receiver as unknown[], node.method, args)
  }

  private stringMethod(text: string, method: MethodName, args: unknown[]): unknown {
    // The native methods, on a primitive string with primitive arguments: nothing of the
    // expression's values can run. An object argument would be turned into a string by its own
    // methods, so it is refused.
    const [a, b] = args.map((arg) => (isPrimitive(arg) ? arg : fail(`\`${method}\` takes strings and numbers, not ${describe(arg)}`)))
    this.chargeChars(text.length + (typeof a === 'string' ? a.length : 0))
    switch (method) {
      case 'at':
        return text.at(Number(a))
      case 'startsWith':
        return text.startsWith(String(a), b === undefined ? undefined : Number(b))
      case 'endsWith':
        return text.endsWith(String(a), b === undefined ? undefined : Number(b))
      case 'includes':
        return text.includes(String(a), b === undefined ? undefined : Number(b))
      case 'indexOf':
        return text.indexOf(String(a), b === undefined ? undefined : Number(b))
      case 'toLowerCase':
        return text.toLowerCase()
      case 'toUpperCase':
        return text.toUpperCase()
      case 'trim':
        return text.trim()
      default:
        return fail(`\`${method}\` cannot be called on a string`)
    }
  }

  private arrayMethod(array: unknown[], method: MethodName, args: unknown[]): unknown {
    const [a, b] = args
    const from = b === undefined ? undefined : Number(this.primitive(b))
    switch (method) {
      case 'at': {
        const at = Math.trunc(Number(this.primitive(a))) || 0
        return this.element(array, at < 0 ? array.length + at : at)
      }
      case 'includes':
      case 'indexOf': {
        // Own elements only, compared as the native methods do (SameValueZero for `includes`, `===` for `indexOf`).
        // The whole scan is paid for before it starts: an array past the budget fails at once.
        const start = Math.trunc(from ?? 0) || 0
        const first = start < 0 ? Math.max(0, array.length + start) : start
        this.charge(Math.max(0, array.length - first))
        for (let i = first; i < array.length; i++) {
          const element = this.element(array, i)
          if (method === 'includes' ? element === a || (Number.isNaN(a) && Number.isNaN(element)) : element === a) return method === 'includes' ? true : i
        }
        return method === 'includes' ? false : -1
      }
      default:
        return fail(`\`${method}\` cannot be called on an array`)
    }
  }

  /**
   * some, every, find, filter, map: the callback runs per element, each run paid for, and one step
   * per element up front, so an array past the budget fails before the first run.
   */
  private iterate(array: unknown[], method: MethodName, callback: Callback): unknown {
    const results: unknown[] = []
    const length = array.length
    this.charge(length)
    for (let i = 0; i < length; i++) {
      const element = this.element(array, i)
      this.locals[callback.element] = element
      if (callback.index !== undefined) this.locals[callback.index] = i
      const value = this.value(callback.body)
      switch (method) {
        case 'some':
          if (value) return true
          break
        case 'every':
          if (!value) return false
          break
        case 'find':
          if (value) return element
          break
        case 'filter':
          if (value) results.push(element)
          break
        default:
          results.push(value)
      }
    }
    return method === 'some' ? false : method === 'every' ? true : method === 'find' ? undefined : results
  }

  private element(array: unknown[], index: number): unknown {
    if (!(index >= 0 && index < array.length)) return undefined
    const descriptor = Object.getOwnPropertyDescriptor(array, index)
    return descriptor && 'value' in descriptor ? descriptor.value : undefined
  }

  private binary(operator: BinaryOperator, left: unknown, right: unknown): unknown {
    switch (operator) {
      case '===':
        return left === right
      case '!==':
        return left !== right
      case '==':
        return this.looseEquals(left, right)
      case '!=':
        return !this.looseEquals(left, right)
    }
    // The remaining operators act on primitives: the native operator then runs no value's code.
    const a = this.primitive(left) as number
    const b = this.primitive(right) as number
    switch (operator) {
      case '<':
        return a < b
      case '<=':
        return a <= b
      case '>':
        return a > b
      case '>=':
        return a >= b
      case '+': {
        // Typed as numbers for the compiler; strings concatenate, as in JavaScript.
        const sum: unknown = a + b
        if (typeof sum === 'string') this.chargeChars(sum.length)
        return sum
      }
      case '-':
        return a - b
      case '*':
        return a * b
      case '/':
        return a / b
      case '%':
        return a % b
    }
  }

  /** JavaScript's `==`: two objects are equal when they are the same; otherwise on primitives. */
  private looseEquals(left: unknown, right: unknown): boolean {
    if (isObject(left) && isObject(right)) return left === right
    // `==` is the operator being evaluated, here on primitives only.
    return this.primitive(left) == this.primitive(right)
  }

  /** JavaScript's ToPrimitive for JSON-like data, without calling any method of the value. */
  primitive(value: unknown, depth = 0): unknown {
    if (!isObject(value)) {
      if (typeof value === 'symbol' || typeof value === 'bigint') fail(`cannot use ${describe(value)}`)
      return value
    }
    if (typeof value === 'function') return fail('cannot use a function')
    if (!Array.isArray(value)) return '[object Object]'
    if (depth >= MAX_VALUE_DEPTH) fail(`cannot turn an array nested deeper than ${MAX_VALUE_DEPTH} levels into text`)
    this.charge(value.length)
    let text = ''
    for (let i = 0; i < value.length; i++) {
      const element = this.element(value, i)
      if (i > 0) text += ','
      if (element !== null && element !== undefined) text += String(this.primitive(element, depth + 1))
    }
    this.chargeChars(text.length)
    return text
  }
}

const STRING_METHOD_SET = new Set<MethodName>(['at', 'startsWith', 'endsWith', 'includes', 'indexOf', 'toLowerCase', 'toUpperCase', 'trim'])
const ARRAY_METHOD_SET = new Set<MethodName>(['at', 'includes', 'indexOf', 'some', 'every', 'find', 'filter', 'map'])

const isObject = (value: unknown): value is object => (typeof value === 'object' && value !== null) || typeof value === 'function'
const isPrimitive = (value: unknown): value is string | number | boolean | null | undefined =>
  !isObject(value) && typeof value !== 'symbol' && typeof value !== 'bigint'

/** An own data property's value; undefined for anything inherited, missing, an accessor, or a forbidden key. */
function ownValue(object: object, key: string): unknown {
  if (FORBIDDEN_KEYS.has(key)) return fail(`the property \`${key}\` cannot be read`)
  const descriptor = Object.getOwnPropertyDescriptor(object, key)
  return descriptor && 'value' in descriptor ? descriptor.value : undefined
}

/** A computed key (`a[k]`): a string, or a number written as JavaScript writes it (`a[1]` is `a["1"]`). */
function propertyKey(value: unknown): string {
  if (typeof value === 'string') return value
  if (typeof value === 'number') return String(value)
  return fail(`a computed property must be a string or a number, not ${describe(value)}`)
}

/** The index a key names (`"0"`, `"12"`), or undefined for any other key. */
function arrayIndex(key: string): number | undefined {
  if (!/^(?:0|[1-9][0-9]{0,9})$/.test(key)) return undefined
  const index = Number(key)
  return index < 2 ** 32 - 1 ? index : undefined
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value)
  if (Array.isArray(value)) return 'an array'
  const type = typeof value
  return type === 'object' ? 'an object' : `a ${type}`
}
