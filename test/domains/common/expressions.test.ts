import { describe, expect, it } from 'vitest'
import { evaluateCondition, ExpressionError, formatExpressionValue, parseExpression } from '../../../src/domains/common/expressions.js'

/**
 * Adaptive content's expressions (src/domains/common/expressions.ts): what GitBook's condition
 * editor writes, evaluated over JSON inputs without `eval`; nothing but the inputs can be named.
 */
const inputs = {
  visitor: { claims: { isBetaUser: true, plan: 'pro', roles: ['admin', 'dev'], seats: 12, org: { name: 'Acme' }, unsigned: { bucket: { flag: true } } } },
  space: { vars: { version: '2.1' } },
  page: { vars: {} },
}
const value = (source: string) => parseExpression(source).evaluate(inputs)

describe('expressions', () => {
  it("evaluates GitBook's conditions and inline expressions over the inputs", () => {
    expect(value('visitor.claims.isBetaUser == true')).toBe(true)
    expect(value('visitor.claims.plan === "pro" && !visitor.claims.isBetaUser')).toBe(false)
    expect(value("visitor.claims.roles.includes('admin')")).toBe(true)
    expect(value('visitor.claims.roles.some(r => r.startsWith("de"))')).toBe(true)
    expect(value('visitor.claims.roles.every((r) => r.length > 2)')).toBe(true)
    expect(value('visitor.claims.roles.map(r => r.toUpperCase()).join("+")')).toBe('ADMIN+DEV')
    expect(value('visitor.claims.seats >= 10 ? "team" : "solo"')).toBe('team')
    expect(value('visitor.claims.seats * 2 + 1 - 3 / 3 % 2')).toBe(24)
    expect(value('visitor.claims["org"].name')).toBe('Acme')
    expect(value('visitor.claims.unsigned.bucket.flag')).toBe(true)
    expect(value('visitor.claims.missing?.deep')).toBeUndefined()
    expect(value('visitor.claims.missing ?? space.vars.version')).toBe('2.1')
  })

  it('reads own properties only: no prototype, no global, no function of the inputs', () => {
    expect(value('visitor.claims.constructor')).toBeUndefined()
    expect(value('visitor.claims.__proto__')).toBeUndefined()
    expect(value('visitor.claims.plan.constructor')).toBeUndefined()
    expect(() => value('Date.now()')).toThrow(ExpressionError)
    expect(() => value('visitor.claims.plan.constructor("return 1")')).toThrow(ExpressionError)
    expect(() => value('visitor.claims.toString()')).toThrow('toString is not a method')
    expect(() => value('(x => x)(1)')).toThrow(ExpressionError)
    expect(() => value('visitor = 1')).toThrow(ExpressionError)
    expect(() => value('`template`')).toThrow(ExpressionError)
    expect(() => value('visitor.claims.missing.deep')).toThrow('cannot read `deep` of undefined')
  })

  it('tells which inputs an expression reads (the parameters of its callbacks are not inputs)', () => {
    const roots = new Set(['visitor', 'space', 'page'])
    expect(parseExpression('visitor.claims.roles.some(r => r == space.vars.version)').readsOnly(roots)).toBe(true)
    expect(parseExpression('Date.now() > 0').readsOnly(roots)).toBe(false)
    expect(parseExpression('user.role').readsOnly(roots)).toBe(false)
  })

  it('conditions: empty holds, an error does not; values show as text the way the renderer shows them', () => {
    expect(evaluateCondition('', inputs)).toBe(true)
    expect(evaluateCondition('visitor.claims.nope.deeper', inputs)).toBe(false)
    expect(evaluateCondition('t}=d', inputs)).toBe(false)
    expect(evaluateCondition('visitor.claims.isBetaUser', inputs)).toBe(true)
    expect([
      formatExpressionValue('a'),
      formatExpressionValue(2),
      formatExpressionValue(false),
      formatExpressionValue(null),
      formatExpressionValue({}),
    ]).toEqual(['a', '2', 'false', '', ''])
  })

  it('bounds its cost: length, nesting and steps are errors past their limits, never a stack overflow', () => {
    expect(() => parseExpression('('.repeat(3000) + '1' + ')'.repeat(3000))).toThrow('nested more than')
    expect(() => parseExpression('!'.repeat(3000) + 'true')).toThrow('nested more than')
    expect(() => parseExpression('1+'.repeat(6000) + '1')).toThrow('longer than')
    const many = { visitor: { claims: { list: Array.from({ length: 400 }, (_, i) => i) } } }
    expect(() => parseExpression('visitor.claims.list.map(a => visitor.claims.list.map(b => a * b))').evaluate(many)).toThrow('steps')
  })
})

describe('expressions: long but shallow', () => {
  it('many property chains side by side are not nesting (each chain counts on its own)', () => {
    const source = Array.from({ length: 200 }, () => 'visitor.claims.org.name == "Acme"').join(' && ')
    expect(parseExpression(source).evaluate(inputs)).toBe(true)
  })
})
