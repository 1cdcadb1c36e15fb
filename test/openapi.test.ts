import { readFileSync } from 'node:fs'
import Ajv2020 from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { describe, expect, it } from 'vitest'
import { createOpenApiDocument } from '../src/index.js'
import {
  COVERAGE_END,
  COVERAGE_FILE,
  COVERAGE_START,
  END,
  officialAreas,
  officialDocument,
  renderCoverageTable,
  renderOperationsTable,
  replaceCoverageBlock,
  replaceOperationsBlock,
  START,
  TABLE_FILE,
} from '../scripts/operations-table.js'
import { OFFICIAL_ROUTES } from '../src/http/official-routes.js'
import { BASE, call, createWorld } from './helpers.js'

type Json = Record<string, any>

/** Every `$ref` string in a value, with where it was found. */
function refsOf(node: unknown, at = '#', out: Array<{ ref: string; at: string }> = []) {
  if (Array.isArray(node)) node.forEach((v, i) => refsOf(v, `${at}/${i}`, out))
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') out.push({ ref: v, at })
      else refsOf(v, `${at}/${k}`, out)
    }
  }
  return out
}

function resolvePointer(doc: Json, ref: string): unknown {
  return ref
    .slice(2)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<any>((node, key) => node?.[key], doc)
}

async function setup() {
  const w = await createWorld()
  const doc = createOpenApiDocument(w.api.operations, { baseUrl: BASE }) as unknown as Json
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  ;(addFormats as unknown as (a: Ajv2020) => void)(ajv)
  ajv.addSchema({ ...doc, $id: 'ours.json' })
  /** Validate a body against the document's own success schema of an operation. */
  const validateResponse = (path: string, method: string, status: number, body: unknown) => {
    const pointer = `#/paths/${path.replace(/~/g, '~0').replace(/\//g, '~1')}/${method}/responses/${status}/content/application~1json/schema`
    const validate = ajv.compile({ $ref: `ours.json${pointer}` })
    const ok = validate(body)
    expect(ok, ajv.errorsText(validate.errors)).toBe(true)
  }
  return { w, doc, ajv, validateResponse }
}

describe('createOpenApiDocument', () => {
  it('has every operation of the table, once, under its method and path, and nothing else', async () => {
    const { w, doc } = await setup()
    expect(doc.openapi).toBe('3.1.0')
    expect(doc.servers).toEqual([{ url: BASE }])
    const listed: string[] = []
    for (const [path, item] of Object.entries<Json>(doc.paths)) {
      for (const [method, op] of Object.entries<Json>(item)) listed.push(`${method.toUpperCase()} ${path} ${op.operationId}`)
    }
    expect(listed.sort()).toEqual(w.api.operations.map((op) => `${op.method} ${op.path} ${op.id}`).sort())
    const tags = new Set(w.api.operations.map((op) => op.tag))
    expect(doc.tags.map((t: Json) => t.name).sort()).toEqual([...tags].sort())
  })

  it('resolves every $ref inside the document', async () => {
    const { doc } = await setup()
    const refs = refsOf(doc)
    expect(refs.length).toBeGreaterThan(10)
    for (const { ref, at } of refs) {
      expect(ref.startsWith('#/'), `${ref} at ${at} is local`).toBe(true)
      expect(resolvePointer(doc, ref), `${ref} at ${at} resolves`).toBeDefined()
    }
  })

  it('makes a component of every schema named with .meta({ id }) and compiles each one', async () => {
    const { doc, ajv } = await setup()
    const names = Object.keys(doc.components.schemas)
    expect(names).toEqual(expect.arrayContaining(['Organization', 'User', 'Error', 'MemberRoleOrGuest']))
    const getOrg = doc.paths['/v1/orgs/{organizationId}'].get
    expect(getOrg.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Organization' })
    for (const name of names) expect(() => ajv.compile({ $ref: `ours.json#/components/schemas/${name}` }), name).not.toThrow()
    // zod's own markers are gone from the output.
    expect(JSON.stringify(doc.components)).not.toMatch(/"\$schema"|"\$id"|#\/\$defs\//)
  })

  it('declares path and query parameters, request bodies, bearer security and the error responses', async () => {
    const { w, doc } = await setup()
    expect(doc.components.securitySchemes.bearer).toEqual({ type: 'http', scheme: 'bearer' })
    expect(doc.security).toEqual([{ bearer: [] }])
    for (const def of w.api.operations) {
      const op = doc.paths[def.path][def.method.toLowerCase()]
      const pathParams = [...def.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1])
      const declared = (op.parameters ?? []).filter((p: Json) => p.in === 'path')
      expect(declared.map((p: Json) => p.name).sort(), def.id).toEqual(pathParams.sort())
      expect(declared.every((p: Json) => p.required === true)).toBe(true)
      expect(op.responses[String(def.status)], def.id).toBeDefined()
      expect(op.responses['400']).toEqual({ $ref: '#/components/responses/BAD_REQUEST' })
      if (def.auth !== false) expect(op.responses['401']).toEqual({ $ref: '#/components/responses/UNAUTHORIZED' })
      for (const code of def.errors) expect(Object.values(op.responses)).toContainEqual({ $ref: `#/components/responses/${code}` })
      if (def.body) expect(op.requestBody.content['application/json'].schema, def.id).toBeDefined()
      if (def.beyondOfficial) expect(op['x-beyond-official']).toBe(true)
    }
    expect(doc.components.responses.NOT_FOUND.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' })

    const list = doc.paths['/v1/orgs'].get
    const limit = list.parameters.find((p: Json) => p.name === 'limit')
    expect(limit).toMatchObject({ in: 'query', required: false, schema: { type: 'integer', maximum: 1000, default: 50 } })
    const patch = doc.paths['/v1/orgs/{organizationId}'].patch
    expect(patch.description).toContain('`admin`')
    expect(patch.requestBody.content['application/json'].schema.properties.title).toMatchObject({ minLength: 2, maxLength: 255 })
  })

  it('describes what the API really answers (bodies validated against the document itself)', async () => {
    const { w, doc, ajv, validateResponse } = await setup()
    const list = await call(w.api, w.tokens.ada, 'GET', '/v1/orgs')
    validateResponse('/v1/orgs', 'get', 200, list.body)
    const org = await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}`)
    validateResponse('/v1/orgs/{organizationId}', 'get', 200, org.body)
    const me = await call(w.api, w.tokens.rita, 'GET', '/v1/user')
    validateResponse('/v1/user', 'get', 200, me.body)
    const missing = await call(w.api, w.tokens.ada, 'GET', '/v1/orgs/nope')
    expect(missing.status).toBe(404)
    const errorSchema = ajv.compile({ $ref: 'ours.json#/components/schemas/Error' })
    expect(errorSchema(missing.body)).toBe(true)
    expect(errorSchema({ error: { code: '404' } })).toBe(false)
    expect(doc.info.title).toBe('docs-content-api')
  })
})

describe('the operations table (docs/reference/operations.md)', () => {
  it('is up to date with the operation table (run `npm run docs:operations` when this fails)', async () => {
    const { w } = await setup()
    const readme = readFileSync(new URL(`../${TABLE_FILE}`, import.meta.url), 'utf8')
    expect(readme).toContain(START)
    expect(readme).toContain(END)
    const block = readme.slice(readme.indexOf(START) + START.length, readme.indexOf(END)).trim()
    expect(block, `${TABLE_FILE} is stale: run \`npm run docs:operations\``).toBe(renderOperationsTable(w.api.operations))
    expect(replaceOperationsBlock(readme, block)).toBe(readme)
    for (const op of w.api.operations) expect(readme).toContain(`\`${op.id}\``)
  })
})

describe('the coverage table (README.md)', () => {
  it('is up to date with the operation table and the official document (run `npm run docs:operations` when this fails)', async () => {
    const { w } = await setup()
    const readme = readFileSync(new URL(`../${COVERAGE_FILE}`, import.meta.url), 'utf8')
    expect(readme).toContain(COVERAGE_START)
    expect(readme).toContain(COVERAGE_END)
    const block = readme.slice(readme.indexOf(COVERAGE_START) + COVERAGE_START.length, readme.indexOf(COVERAGE_END)).trim()
    expect(block, `${COVERAGE_FILE} is stale: run \`npm run docs:operations\``).toBe(renderCoverageTable(w.api.operations, officialDocument()))
    expect(replaceCoverageBlock(readme, block)).toBe(readme)
  })

  it("counts every official operation once, in one area, and the API's official operations among them", async () => {
    const { w } = await setup()
    const areas = officialAreas(officialDocument())
    const ids = areas.flatMap((a) => a.ids)
    expect(ids.length).toBe(new Set(ids).size)
    expect(new Set(ids)).toEqual(new Set(OFFICIAL_ROUTES.map(([, , id]) => id)))
    const official = w.api.operations.filter((op) => !op.beyondOfficial)
    for (const op of official) expect(ids, op.id).toContain(op.id)
    // The totals line and the table's last row say the same counts.
    const table = renderCoverageTable(w.api.operations, officialDocument())
    expect(table).toContain(`| **All** | **${official.length}** | **${ids.length}** |`)
    expect(table).toContain(
      `${official.length} of the official document's ${ids.length} operations are implemented, and ${w.api.operations.length - official.length} beyond it`,
    )
  })

  it('refuses an operation marked official that the official document lacks (a typo would count nothing)', async () => {
    const { w } = await setup()
    const typo = { ...w.api.operations[0]!, id: 'listOrganizationsForTheUser', beyondOfficial: false }
    expect(() => renderCoverageTable([...w.api.operations, typo], officialDocument())).toThrow(/listOrganizationsForTheUser/)
  })
})
