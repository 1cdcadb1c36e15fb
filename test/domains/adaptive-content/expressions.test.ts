import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  EXPRESSION_MAX_DEPTH,
  EXPRESSION_MAX_STEPS,
  evaluateCondition,
  evaluateExpression,
  isDeterministic,
  parseExpression,
  visitorScope,
  type Visitor,
} from '../../../src/domains/common/expressions.js'

/**
 * GitBook's adaptive-content expressions (src/domains/common/expressions.ts): what they mean on a
 * visitor's claims, what fails, and that hostile texts and claims are answered safely and with
 * bounded work. docs/behaviour/share-links-and-adaptive-content.md describes the language.
 */

const visitor = (claims: Record<string, unknown>): Visitor => ({ claims })
const valueOf = (text: string, claims: Record<string, unknown> = {}) => evaluateExpression(text, visitorScope(visitor(claims)))
const parseError = (text: string) => {
  const parsed = parseExpression(text)
  return parsed.ok ? undefined : parsed.error
}

describe('expressions: the language', () => {
  it.each([
    // GitBook's documented example, and the template conditions (adaptive-content/model.ts).
    ['visitor.claims.isBetaUser == true', { isBetaUser: true }, true],
    ['visitor.claims.isBetaUser == true', { isBetaUser: false }, false],
    ['visitor.claims.isBetaUser == true', {}, false],
    ['visitor.claims.isBetaUser === true', { isBetaUser: true }, true],
    ['visitor.claims.isBetaUser === true', { isBetaUser: 'true' }, false],
    ['visitor.claims.isBetaUser === true', { isBetaUser: 1 }, false],
    ['visitor.claims.isBetaUser == true', { isBetaUser: 1 }, true],
    ['visitor.claims.unsigned.wantsDark === true', { unsigned: { wantsDark: true } }, true],
    ['visitor.claims.unsigned.wantsDark === true', { wantsDark: true }, false],
    // Combinations, with claims that are missing.
    ['visitor.claims.unsigned.plan == "pro" && !visitor.claims.internal', { unsigned: { plan: 'pro' } }, true],
    ['visitor.claims.unsigned.plan == "pro" && !visitor.claims.internal', { unsigned: { plan: 'pro' }, internal: true }, false],
    ['visitor.claims.unsigned.plan == "pro" && !visitor.claims.internal', { unsigned: { plan: 'free' } }, false],
    ['visitor.claims.plan === "pro" || visitor.claims.plan === "team"', { plan: 'team' }, true],
    ['visitor.claims.age >= 18 ? visitor.claims.country != "FR" : false', { age: 20, country: 'DE' }, true],
    ['visitor.claims.age >= 18 ? visitor.claims.country != "FR" : false', { age: 17, country: 'DE' }, false],
    // GitBook's standard library on strings and arrays.
    ['visitor.claims.roles.includes("admin")', { roles: ['dev', 'admin'] }, true],
    ['visitor.claims.roles.includes("admin")', { roles: ['dev'] }, false],
    ['visitor.claims.roles.some(r => r.startsWith("ad"))', { roles: ['dev', 'admin'] }, true],
    ['visitor.claims.roles.every(r => r.endsWith("er"))', { roles: ['viewer', 'owner'] }, true],
    ['visitor.claims.roles.at(-1) === "owner"', { roles: ['viewer', 'owner'] }, true],
    ['visitor.claims.roles.length > 1', { roles: ['viewer', 'owner'] }, true],
    ['visitor.claims.email.toLowerCase().endsWith("@acme.com")', { email: 'Ada@ACME.com' }, true],
    ['visitor.claims.name.trim().toUpperCase() === "ADA"', { name: '  ada ' }, true],
    ['visitor.claims.teams.find(t => t.id === "x").admin', { teams: [{ id: 'y' }, { id: 'x', admin: true }] }, true],
    ['visitor.claims.teams.filter((t, i) => i > 0 && t.admin).length === 1', { teams: [{ admin: true }, { admin: true }] }, true],
    ['visitor.claims["is-beta"]', { 'is-beta': true }, true],
    ['["pro", "team"].includes(visitor.claims.plan)', { plan: 'team' }, true],
    ['typeof visitor.claims.plan === "string"', { plan: 'team' }, true],
    ['visitor.claims.credits - 10 > 0', { credits: 11 }, true],
    ['visitor.claims.nickname ?? "" === ""', {}, true],
    ['visitor.claims.org?.name === "Acme"', {}, false],
    ['visitor.claims.org?.name === undefined', {}, true],
  ])('%s with %j is %s', (text, claims, expected) => {
    expect(evaluateCondition(text, visitor(claims))).toBe(expected)
  })

  it('evaluates the conditions the template endpoint suggests (adaptive-content/model.ts)', async () => {
    const { templateConditions } = await import('../../../src/domains/adaptive-content/model.js')
    const schema = {
      type: 'object',
      properties: {
        isBeta: { type: 'boolean', description: 'isBeta' },
        unsigned: { type: 'object', description: 'Unsigned', properties: { dark: { type: 'boolean', description: 'dark' } }, additionalProperties: false },
      },
      additionalProperties: false,
    } as never
    const [beta, dark] = templateConditions(schema).map((t) => t.condition)
    expect(evaluateCondition(beta!, visitor({ isBeta: true }))).toBe(true)
    expect(evaluateCondition(beta!, visitor({ unsigned: { isBeta: true } }))).toBe(false)
    expect(evaluateCondition(dark!, visitor({ unsigned: { dark: true } }))).toBe(true)
    expect(evaluateCondition(dark!, visitor({ dark: true }))).toBe(false)
  })

  it('has JavaScript values, not only booleans: the value of the operand that decides, strings, arrays', () => {
    expect(valueOf('visitor.claims.a || visitor.claims.b', { a: 0, b: 'x' })).toEqual({ ok: true, value: 'x' })
    expect(valueOf('visitor.claims.a && visitor.claims.b', { a: 0, b: 'x' })).toEqual({ ok: true, value: 0 })
    expect(valueOf('visitor.claims.a ?? visitor.claims.b', { a: 0, b: 'x' })).toEqual({ ok: true, value: 0 })
    expect(valueOf('visitor.claims.roles.map((r, i) => i + ":" + r)', { roles: ['a', 'b'] })).toEqual({ ok: true, value: ['0:a', '1:b'] })
    expect(valueOf("\"\\u0041\\x42\\n\" + '\\''")).toEqual({ ok: true, value: "AB\n'" })
    expect(valueOf('[1, 2] == "1,2" && [] == false && [[1, [2]], null] == "1,2,"')).toEqual({ ok: true, value: true })
    // As GitBook: `space.vars` is always there, `page` only for a page.
    expect(valueOf('space.vars.version')).toEqual({ ok: true, value: undefined })
    expect(valueOf('page.vars.x')).toEqual({ ok: false, error: 'cannot read `vars` of undefined' })
    expect(evaluateExpression('space.vars.version + "/" + page.vars.x', visitorScope(visitor({}), { space: { version: 'v2' }, page: { x: 'y' } }))).toEqual({
      ok: true,
      value: 'v2/y',
    })
  })

  it('agrees with JavaScript on generated expressions over generated claims (differential property)', () => {
    const key = fc.constantFrom('a', 'b', 's', 'l')
    const primitive = fc.oneof(fc.integer({ min: -3, max: 3 }), fc.constantFrom('', 'a', 'ab', '1', 'b'), fc.boolean(), fc.constant(null))
    const claimValue = fc.oneof(primitive, fc.array(primitive, { maxLength: 3 }))
    const claims = fc.record({ a: claimValue, b: claimValue, s: fc.constantFrom('', 'ab', 'Ab '), l: fc.array(primitive, { maxLength: 4 }) })
    const literal = primitive.map((v) => JSON.stringify(v))
    const { expr } = fc.letrec<{ expr: string }>((tie) => ({
      expr: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        literal,
        key.map((k) => `visitor.claims.${k}`),
        fc.constant('visitor.claims.missing'),
        fc.tuple(fc.constantFrom('!', '-', 'typeof '), tie('expr')).map(([op, e]) => `${op}(${e})`),
        fc
          .tuple(tie('expr'), fc.constantFrom('===', '!==', '==', '!=', '<', '<=', '>', '>=', '+', '-', '*', '%', '&&', '||', '??'), tie('expr'))
          .map(([l, op, r]) => `(${l}) ${op} (${r})`),
        fc.tuple(tie('expr'), tie('expr'), tie('expr')).map(([t, c, a]) => `(${t}) ? (${c}) : (${a})`),
        fc.array(tie('expr'), { maxLength: 3 }).map((es) => `[${es.join(', ')}]`),
        tie('expr').map((e) => `(${e}).length`),
        tie('expr').map((e) => `visitor.claims.l.includes(${e})`),
        fc.constantFrom(
          'visitor.claims.s.trim().toLowerCase()',
          'visitor.claims.s.startsWith("a")',
          'visitor.claims.l.some(x => !x)',
          'visitor.claims.l.map(x => x)',
        ),
      ),
    }))
    fc.assert(
      fc.property(expr, claims, (text, c) => {
        const ours = valueOf(text, c)
        let native: { ok: true; value: unknown } | { ok: false }
        try {
          native = { ok: true, value: new Function('visitor', `return (${text})`)({ claims: { ...c, unsigned: {} } }) }
        } catch {
          native = { ok: false }
        }
        expect(ours.ok).toBe(native.ok)
        if (ours.ok && native.ok) expect(ours.value).toStrictEqual(native.value)
      }),
      { numRuns: 400 },
    )
  })
})

describe('expressions: unknown claims and failures', () => {
  it('reads a missing claim as undefined; reading a property of it fails, and a failed condition is false', () => {
    expect(evaluateCondition('!visitor.claims.unknown', visitor({}))).toBe(true)
    expect(evaluateCondition('visitor.claims.unknown === undefined', visitor({}))).toBe(true)
    expect(valueOf('visitor.claims.unknown.deep')).toEqual({ ok: false, error: 'cannot read `deep` of undefined' })
    // The failure decides the whole condition, even under `!` (as GitBook: a failed evaluation is false).
    expect(evaluateCondition('!visitor.claims.unknown.deep', visitor({}))).toBe(false)
    expect(evaluateCondition('visitor.claims.unknown.deep || true', visitor({}))).toBe(false)
    // `?.` stops the chain instead.
    expect(evaluateCondition('visitor.claims.unknown?.deep.deeper === undefined', visitor({}))).toBe(true)
    expect(evaluateCondition('visitor.claims.unknown?.includes("x") === undefined', visitor({}))).toBe(true)
  })

  it('always has `visitor.claims.unsigned`, an empty object for a visitor without unsigned claims', () => {
    expect(evaluateCondition('visitor.claims.unsigned.plan === undefined', visitor({}))).toBe(true)
    expect(evaluateCondition('visitor.claims.unsigned.plan === undefined', visitor({ unsigned: 'junk' }))).toBe(true)
    expect(evaluateCondition('visitor.claims.unsigned.plan === "pro"', visitor({ unsigned: { plan: 'pro' } }))).toBe(true)
  })

  it('reads names it does not know as undefined (GitBook: only the visitor and variables are in scope)', () => {
    expect(evaluateCondition('isBetaUser === undefined && Math === undefined && globalThis === undefined', visitor({}))).toBe(true)
    expect(evaluateCondition('globalThis.process', visitor({}))).toBe(false)
    expect(evaluateCondition('visitor.anything === undefined', visitor({}))).toBe(true)
  })

  it('fails a method called on the wrong type, or with an object where it takes text', () => {
    expect(valueOf('visitor.claims.n.includes(1)', { n: 5 })).toEqual({ ok: false, error: '`includes` cannot be called on a number' })
    expect(valueOf('visitor.claims.s.some(x => x)', { s: 'abc' })).toEqual({ ok: false, error: '`some` cannot be called on a string' })
    expect(valueOf('visitor.claims.s.includes(visitor.claims.o)', { s: 'abc', o: { toString: 'x' } })).toEqual({
      ok: false,
      error: '`includes` takes strings and numbers, not an object',
    })
  })

  it('is true for an empty condition (or only spaces), false for one that does not parse', () => {
    expect(evaluateCondition('', visitor({}))).toBe(true)
    expect(evaluateCondition('   ', visitor({}))).toBe(true)
    // GitBook's own invalid examples (packages/expr runtime tests).
    for (const text of ['t}=d', 'const a = 1;', 'while (1) {}', '[1, 2, 3].map(() => { while (1) {}})']) {
      expect(parseError(text), text).toBeDefined()
      expect(evaluateCondition(text, visitor({})), text).toBe(false)
    }
  })

  it('names what is wrong in a parse error', () => {
    expect(parseError('t}=d')).toBe('Unexpected "}" at character 1')
    expect(parseError('')).toBe('is empty')
    expect(parseError('x'.repeat(1025))).toBe('is longer than 1024 characters')
    expect(parseError('a; b')).toBe('must be a single expression (found several, separated by `,` or `;`)')
    expect(parseError('a = 1')).toBe('Unexpected "=" at character 2')
    expect(parseError('a | 1')).toBe('the operator `|` is not supported')
    expect(parseError('this.x')).toBe('`this` is not supported: name the visitor as `visitor`')
    expect(parseError('x => x')).toBe('an arrow function can only be the argument of some, every, find, filter or map')
    expect(parseError('visitor.claims.l.some(1)')).toBe('`some` takes an arrow function (`x => ...`)')
    expect(parseError('visitor.claims.s.trim(1)')).toBe('`trim` takes 0 arguments, not 1')
    expect(parseError('visitor.claims.s.replace("a", "b")')).toMatch(/^`replace` is not a supported method: only at, startsWith, .* can be called/)
    expect(parseError('alert(1)')).toMatch(/^only methods at, startsWith, .* can be called/)
  })
})

describe('expressions: deterministic ones (evaluated=deterministic-only)', () => {
  it.each([
    ['visitor.claims.isBeta', false],
    ['!visitor', false],
    ['[1, 2].some(x => visitor.claims.n === x)', false],
    ['space.vars.version === "2"', true],
    ['page.vars.x', true],
    ['1 + 1 === 2', true],
    // A callback's parameter named `visitor` is not the visitor.
    ['[1, 2].some(visitor => visitor === 2)', true],
    ['', true],
    ['t}=d', true],
  ])('%s: %s', (text, deterministic) => {
    expect(isDeterministic(text)).toBe(deterministic)
    const parsed = parseExpression(text)
    if (parsed.ok) expect(isDeterministic(parsed.expression)).toBe(deterministic)
  })
})

describe('expressions: hostile texts and claims', () => {
  it('never reaches an object machinery: forbidden keys fail by name or computed, nothing is polluted', () => {
    const texts = [
      'visitor.claims.__proto__',
      'visitor["constructor"]',
      'visitor.claims.roles.constructor.constructor("return process")()',
      'visitor.claims["__pro" + "to__"].polluted = 1',
      'visitor.claims["__pro" + "to__"]',
      'visitor.claims[["__proto__"]]',
      'visitor.claims.roles["constr" + "uctor"]',
      'visitor.claims.toString',
      'visitor.claims.hasOwnProperty("roles")',
      'visitor.claims.roles.map.call(1)',
      'Function("return 1")()',
      'this.constructor',
    ]
    // A claim named `__proto__` (JSON.parse makes it an own property) is refused too.
    const claims = JSON.parse('{"roles": ["admin"], "__proto__": {"admin": true}}')
    for (const text of texts) expect(evaluateCondition(text, visitor(claims)), text).toBe(false)
    expect(valueOf('visitor.claims["__pro" + "to__"]', claims)).toEqual({ ok: false, error: 'the property `__proto__` cannot be read' })
    expect(valueOf('visitor.claims[["__proto__"]]', claims)).toEqual({ ok: false, error: 'a computed property must be a string or a number, not an array' })
    // Inherited members are not the visitor's data: undefined, not a function.
    expect(valueOf('[visitor.claims.toString, visitor.claims.roles.push, visitor.claims.roles.at, "s".big]', claims)).toEqual({
      ok: true,
      value: [undefined, undefined, undefined, undefined],
    })
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(Object.prototype).not.toHaveProperty('admin')
  })

  it('reads own data properties only: a getter on a claims object is never called', () => {
    let calls = 0
    const claims = Object.defineProperty({}, 'admin', { get: () => ++calls > 0, enumerable: true })
    expect(valueOf('visitor.claims.admin', claims)).toEqual({ ok: true, value: undefined })
    expect(calls).toBe(0)
  })

  it('answers deeply nested texts within 1024 characters with a parse error, or a value when they nest little', () => {
    const nested = {
      parentheses: '('.repeat(510) + 'true' + ')'.repeat(510),
      brackets: '['.repeat(511) + ']'.repeat(511),
      unclosed: '('.repeat(1024),
      negations: '!'.repeat(1020) + 'true',
      ternaries: 'true ? '.repeat(90) + '1' + ' : 0'.repeat(90),
      sums: Array(340).fill('1').join('+'),
      members: 'visitor' + '.a'.repeat(500),
    }
    for (const [name, text] of Object.entries(nested)) {
      expect(text.length, name).toBeLessThanOrEqual(1024)
      expect(parseError(text), name).toMatch(/nests (brackets )?deeper than 64 levels|Unclosed/)
    }
    // Shallower nesting is fine, and a long chain of `&&` or `||` is one level whatever its length.
    expect(valueOf('('.repeat(EXPRESSION_MAX_DEPTH) + 'true' + ')'.repeat(EXPRESSION_MAX_DEPTH))).toEqual({ ok: true, value: true })
    expect(valueOf('!'.repeat(EXPRESSION_MAX_DEPTH - 2) + 'true')).toEqual({ ok: true, value: true })
    expect(valueOf(Array(200).fill('1').join(' && '))).toEqual({ ok: true, value: 1 })
    expect(valueOf(Array(340).fill('0').join('||'))).toEqual({ ok: true, value: 0 })
  })

  it('evaluates the largest array literal that fits in 1024 characters', () => {
    const text = `[${Array(507).fill('1').join(',')}].length`
    expect(text.length).toBeLessThanOrEqual(1024)
    expect(valueOf(text)).toEqual({ ok: true, value: 507 })
  })

  /** An array of `length` elements that counts the elements read (getOwnPropertyDescriptor is how they are read). */
  function countingArray(length: number) {
    const reads = { count: 0 }
    const array = new Proxy(
      Array.from({ length }, (_, i) => i),
      {
        getOwnPropertyDescriptor(target, key) {
          reads.count++
          return Reflect.getOwnPropertyDescriptor(target, key)
        },
      },
    )
    return { array, reads }
  }

  it('stops after a bounded number of steps however large the claims: work does not grow with them', () => {
    for (const text of [
      'visitor.claims.l.includes(-1)',
      'visitor.claims.l.some(a => visitor.claims.l.some(b => a + b < 0))',
      'visitor.claims.l.map(a => visitor.claims.l.filter(b => b === a)).length > 0',
      'visitor.claims.l == "x"',
    ]) {
      const { array, reads } = countingArray(2 * EXPRESSION_MAX_STEPS)
      expect(valueOf(text, { l: array }), text).toEqual({ ok: false, error: `takes more than ${EXPRESSION_MAX_STEPS} steps to evaluate` })
      expect(reads.count, text).toBeLessThanOrEqual(EXPRESSION_MAX_STEPS)
      expect(evaluateCondition(text, visitor({ l: array }))).toBe(false)
    }
    // The same conditions on claims of ordinary size evaluate, and a scan within the budget too.
    expect(valueOf('visitor.claims.l.some(a => visitor.claims.l.some(b => a + b < 0))', { l: [1, 2, 3] })).toEqual({ ok: true, value: false })
    expect(valueOf('visitor.claims.l.includes(-1)', { l: Array(EXPRESSION_MAX_STEPS / 2).fill(0) })).toEqual({ ok: true, value: false })
  })

  it('pays for the text it builds: concatenating a large claim again and again stops', () => {
    const s = 'x'.repeat(1_000_000)
    expect(valueOf('(visitor.claims.s + visitor.claims.s).length', { s })).toEqual({ ok: true, value: 2_000_000 })
    const text = Array(40).fill('visitor.claims.s').join(' + ') + ' === ""'
    expect(text.length).toBeLessThanOrEqual(1024)
    expect(valueOf(text, { s })).toEqual({ ok: false, error: `takes more than ${EXPRESSION_MAX_STEPS} steps to evaluate` })
  })

  it('fails, without overflowing the stack, on a claim nested too deeply to turn into text', () => {
    let deep: unknown = []
    for (let i = 0; i < 100_000; i++) deep = [deep]
    expect(valueOf('visitor.claims.d == "x"', { d: deep })).toEqual({ ok: false, error: 'cannot turn an array nested deeper than 64 levels into text' })
    expect(valueOf('visitor.claims.d.at(0).at(0).length', { d: deep })).toEqual({ ok: true, value: 1 })
  })

  it('never throws, whatever the text (property)', () => {
    const alphabet = fc.constantFrom(...'visitor.claims.abc[]()!&|=<>?:"\'\\`+-*/%,; 0123456789_$x=>{}'.split(''))
    fc.assert(
      fc.property(fc.string({ unit: alphabet, maxLength: 200 }), fc.string({ maxLength: 50 }), (text, junk) => {
        const parsed = parseExpression(text)
        if (parsed.ok) expect(typeof evaluateCondition(parsed.expression, visitor({ a: junk, b: [junk], c: { x: junk } }))).toBe('boolean')
        else expect(parsed.error.length).toBeGreaterThan(0)
      }),
      { numRuns: 500 },
    )
  })
})

describe('expressions: the cache of compiled expressions', () => {
  it('compiles a text once, keeps the 500 most recently used, and caches errors too', () => {
    const first = parseExpression('visitor.claims.cacheTest === 0')
    expect(parseExpression('visitor.claims.cacheTest === 0')).toBe(first)
    const bad = parseExpression('cacheTest }')
    expect(parseExpression('cacheTest }')).toBe(bad)
    // 498 other texts fill the cache; `first` used again is the most recent, `bad` the oldest.
    for (let i = 1; i < 499; i++) parseExpression(`visitor.claims.cacheTest === ${i}`)
    expect(parseExpression('visitor.claims.cacheTest === 0')).toBe(first)
    parseExpression('visitor.claims.cacheTest === 499')
    parseExpression('visitor.claims.cacheTest === 500')
    expect(parseExpression('visitor.claims.cacheTest === 0')).toBe(first)
    expect(parseExpression('cacheTest }')).not.toBe(bad)
    expect(parseExpression('cacheTest }')).toEqual(bad)
  })
})
