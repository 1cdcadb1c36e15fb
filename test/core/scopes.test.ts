import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { holdsScope, INTEGRATION_SCOPES, installationLevel, SCOPES } from '../../src/core/scopes.js'
import { operations } from '../../src/domains/index.js'

/** The scope table (core/scopes.ts): what an installation token needs for each operation. */
describe('scope table', () => {
  it('has an entry for every operation, and none for an operation that does not exist', () => {
    const ids = operations.map((op) => op.id)
    expect(ids.filter((id) => !(id in SCOPES))).toEqual([])
    expect(Object.keys(SCOPES).filter((id) => !ids.includes(id))).toEqual([])
  })

  it('marks `open` exactly the operations anyone may call without a token, and names a scope only where the policy table checks a target', () => {
    for (const op of operations) {
      const need = SCOPES[op.id]
      expect(need === 'open', `${op.id}: open iff auth is false`).toBe(op.auth === false)
      if (need !== 'open' && need !== 'none') expect(op.permission, `${op.id} needs ${need}: its target comes from its permission`).toBeDefined()
    }
  })

  it("names the official IntegrationScope enum's values, each used by an operation but the ones no operation of this API needs", () => {
    const spec = createRequire(import.meta.url)('@gitbook/api/spec/openapi.json') as { components: { schemas: { IntegrationScope: { enum: string[] } } } }
    expect([...INTEGRATION_SCOPES]).toEqual(spec.components.schemas.IntegrationScope.enum)
    const used = new Set(Object.values(SCOPES))
    expect(INTEGRATION_SCOPES.filter((s) => !used.has(s))).toEqual(['page:feedback:read', 'site:script:inject', 'site:script:cookies', 'site:visitor:claims'])
  })

  it('gives a read with the write scope of the same area, never the other way', () => {
    expect(holdsScope(['space:content:write'], 'space:content:read')).toBe(true)
    expect(holdsScope(['space:content:read'], 'space:content:write')).toBe(false)
    expect(holdsScope(['space:metadata:write'], 'space:content:read')).toBe(false)
    expect(holdsScope([], 'openapi:read')).toBe(false)
    expect(installationLevel(['space:content:read', 'site:metadata:read'])).toBe('read')
    expect(installationLevel(['space:content:read', 'openapi:write'])).toBe('admin')
  })
})
