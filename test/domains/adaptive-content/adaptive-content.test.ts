import { describe, expect, it } from 'vitest'
import { call, createWorld, type World, addEditor } from '../../helpers.js'

const DEFAULT_SCHEMA = {
  type: 'object',
  properties: { unsigned: { type: 'object', description: 'Unsigned claims of the site visitor.', properties: {}, additionalProperties: false } },
  additionalProperties: false,
}

const siteRow = (w: World, id: string) => w.api.store.read((tx) => tx.get('sites', id))

/** A world with a site (created at 10:00, the clock then moved to 11:00) and an editor, eddie. */
async function setup() {
  const w = await createWorld()
  const editor = await addEditor(w)
  const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs' })
  w.clock.set('2026-03-01T11:00:00.000Z')
  const path = `/v1/orgs/${w.org.id}/sites/${site.id}/adaptive-schema`
  return { w, editor, site, path }
}

/** A valid schema: a described signed claim, an undescribed one, and unsigned claims. */
const validSchema = () => ({
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    isBeta: { type: 'boolean', description: 'Beta testers' },
    unsigned: {
      type: 'object',
      description: 'Anything',
      properties: { wantsDark: { type: 'boolean' }, plan_pro: { type: 'boolean', description: 'On the pro plan' } },
      additionalProperties: false,
    },
    _staff: { type: 'boolean' },
  },
  additionalProperties: false,
})

describe('adaptive content', () => {
  describe('GET .../sites/{siteId}/adaptive-schema', () => {
    it('answers the default schema, dated at the site creation, until one is set', async () => {
      const { w, path } = await setup()
      const res = await call(w.api, w.tokens.rita, 'GET', path)
      expect(res.status).toBe(200)
      expect(res.body).toEqual({ object: 'site-adaptive-schema', jsonSchema: DEFAULT_SCHEMA, updatedAt: '2026-03-01T10:00:00.000Z' })
    })

    it('needs view on the site: 404 for a guest, an outsider, a missing site or another organization; 401 without a token', async () => {
      const { w, site, path } = await setup()
      expect((await call(w.api, w.tokens.gina, 'GET', path)).status).toBe(404)
      expect((await call(w.api, w.tokens.olga, 'GET', path)).status).toBe(404)
      expect((await call(w.api, undefined, 'GET', path)).status).toBe(401)
      expect((await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}/sites/missing/adaptive-schema`)).status).toBe(404)
      const other = await w.api.fixtures.createOrganization({ title: 'Other', members: [{ user: w.users.ada.id, role: 'admin' }] })
      expect((await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${other.id}/sites/${site.id}/adaptive-schema`)).status).toBe(404)
    })
  })

  describe('PUT .../sites/{siteId}/adaptive-schema', () => {
    it('stores the schema normalised (descriptions filled in, unsigned first) and dates it', async () => {
      const { w, editor, site, path } = await setup()
      const res = await call(w.api, editor, 'PUT', path, { jsonSchema: validSchema() })
      expect(res.status).toBe(200)
      const jsonSchema = {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: {
          unsigned: {
            type: 'object',
            description: 'Unsigned claims of the site visitor.',
            properties: { wantsDark: { type: 'boolean', description: 'wantsDark' }, plan_pro: { type: 'boolean', description: 'On the pro plan' } },
            additionalProperties: false,
          },
          isBeta: { type: 'boolean', description: 'Beta testers' },
          _staff: { type: 'boolean', description: '_staff' },
        },
        additionalProperties: false,
      }
      expect(res.body).toEqual({ object: 'site-adaptive-schema', jsonSchema, updatedAt: '2026-03-01T11:00:00.000Z' })
      expect(JSON.stringify(res.body.jsonSchema)).toBe(JSON.stringify(jsonSchema))
      expect((await call(w.api, w.tokens.rita, 'GET', path)).body).toEqual(res.body)
      expect(siteRow(w, site.id)).toMatchObject({ adaptiveSchema: { jsonSchema, updatedAt: '2026-03-01T11:00:00.000Z' } })
    })

    it('accepts a schema without `unsigned` or `$schema`, and replaces the previous one', async () => {
      const { w, editor, path } = await setup()
      await call(w.api, editor, 'PUT', path, { jsonSchema: validSchema() })
      const jsonSchema = { type: 'object', properties: { isBeta: { type: 'boolean', description: 'Beta' } }, additionalProperties: false }
      const res = await call(w.api, editor, 'PUT', path, { jsonSchema })
      expect(res.status).toBe(200)
      expect(res.body.jsonSchema).toEqual(jsonSchema)
      const empty = await call(w.api, editor, 'PUT', path, { jsonSchema: { type: 'object', properties: {}, additionalProperties: false } })
      expect(empty.body.jsonSchema).toEqual({ type: 'object', properties: {}, additionalProperties: false })
    })

    const claim = { type: 'boolean' }
    const unsigned = (properties: unknown, extra: object = {}) => ({ type: 'object', properties, additionalProperties: false, ...extra })
    const schema = (properties: unknown, extra: object = {}) => ({ type: 'object', properties, additionalProperties: false, ...extra })
    it.each([
      [{}, 'body field `jsonSchema`: is required'],
      [{ jsonSchema: 'x' }, 'body field `jsonSchema`: Invalid input: expected object'],
      [
        { jsonSchema: schema({}, { $schema: 'https://json-schema.org/draft/2020-12/schema' }) },
        'body field `jsonSchema.$schema`: must be "http://json-schema.org/draft-07/schema#"',
      ],
      [{ jsonSchema: schema({}, { type: 'array' }) }, 'body field `jsonSchema.type`: must be "object"'],
      [{ jsonSchema: { type: 'object', properties: {} } }, 'body field `jsonSchema.additionalProperties`: is required'],
      [{ jsonSchema: schema({}, { additionalProperties: true }) }, 'body field `jsonSchema.additionalProperties`: must be false'],
      [{ jsonSchema: schema({}, { required: ['isBeta'] }) }, 'body field `jsonSchema`: unknown key(s) `required`'],
      [{ jsonSchema: { type: 'object', additionalProperties: false } }, 'body field `jsonSchema.properties`: is required'],
      [{ jsonSchema: schema({ isBeta: { type: 'string' } }) }, 'body field `jsonSchema.properties.isBeta.type`: must be "boolean": claims are booleans'],
      [{ jsonSchema: schema({ isBeta: { description: 'x' } }) }, 'body field `jsonSchema.properties.isBeta.type`: is required'],
      [{ jsonSchema: schema({ isBeta: { ...claim, default: false } }) }, 'body field `jsonSchema.properties.isBeta`: unknown key(s) `default`'],
      [
        { jsonSchema: schema({ isBeta: { ...claim, description: 3 } }) },
        'body field `jsonSchema.properties.isBeta.description`: Invalid input: expected string',
      ],
      [{ jsonSchema: schema({ isBeta: true }) }, 'body field `jsonSchema.properties.isBeta`: Invalid input: expected object'],
      [{ jsonSchema: schema({ 'is-beta': claim }) }, 'body field `jsonSchema.properties.is-beta`: must be an identifier'],
      [{ jsonSchema: schema({ '1st': claim }) }, 'body field `jsonSchema.properties.1st`: must be an identifier'],
      [
        { jsonSchema: schema({ plan: unsigned({}) }) },
        'body field `jsonSchema.properties.plan.type`: must be "boolean": claims are booleans (only `unsigned` may be an object)',
      ],
      [{ jsonSchema: schema({ unsigned: claim }) }, 'body field `jsonSchema.properties.unsigned.type`: must be "object": `unsigned` is reserved'],
      [
        { jsonSchema: schema({ unsigned: { type: 'object', properties: {} } }) },
        'body field `jsonSchema.properties.unsigned.additionalProperties`: is required',
      ],
      [
        { jsonSchema: schema({ unsigned: unsigned({}, { additionalProperties: true }) }) },
        'body field `jsonSchema.properties.unsigned.additionalProperties`: must be false',
      ],
      [{ jsonSchema: schema({ unsigned: unsigned({}, { required: [] }) }) }, 'body field `jsonSchema.properties.unsigned`: unknown key(s) `required`'],
      [
        { jsonSchema: schema({ unsigned: { type: 'object', additionalProperties: false } }) },
        'body field `jsonSchema.properties.unsigned.properties`: is required',
      ],
      [
        { jsonSchema: schema({ unsigned: unsigned({ n: { type: 'number' } }) }) },
        'body field `jsonSchema.properties.unsigned.properties.n.type`: must be "boolean": unsigned claims are booleans',
      ],
      [{ jsonSchema: schema({ unsigned: unsigned({ 'a b': claim }) }) }, 'body field `jsonSchema.properties.unsigned.properties.a b`: must be an identifier'],
      [
        { jsonSchema: schema({ unsigned: unsigned({ deep: unsigned({}) }) }) },
        'body field `jsonSchema.properties.unsigned.properties.deep.type`: must be "boolean"',
      ],
      [undefined, 'body is required'],
    ])('rejects %j and changes nothing', async (body, message) => {
      const { w, editor, site, path } = await setup()
      await call(w.api, editor, 'PUT', path, { jsonSchema: validSchema() })
      const before = siteRow(w, site.id)
      w.clock.set('2026-03-01T12:00:00.000Z')
      const res = await call(w.api, editor, 'PUT', path, body)
      expect(res.status).toBe(400)
      expect(res.body.error).toEqual({ code: 400, message: expect.stringContaining(`Invalid request: ${message}`) })
      expect(siteRow(w, site.id)).toEqual(before)
    })

    it('names every problem of the claims in one answer', async () => {
      const { w, editor, path } = await setup()
      const res = await call(w.api, editor, 'PUT', path, { jsonSchema: schema({ 'is-beta': claim, ok: { type: 'string' } }) })
      expect(res.body.error.message).toContain('`jsonSchema.properties.ok.type`: must be "boolean"')
      expect(res.body.error.message).toContain('`jsonSchema.properties.is-beta`: must be an identifier')
    })

    it('needs edit on the site: 403 for a reader, 404 for a guest or an outsider, 401 without a token', async () => {
      const { w, site, path } = await setup()
      const before = siteRow(w, site.id)
      const body = { jsonSchema: validSchema() }
      expect((await call(w.api, w.tokens.rita, 'PUT', path, body)).status).toBe(403)
      expect((await call(w.api, w.tokens.gina, 'PUT', path, body)).status).toBe(404)
      expect((await call(w.api, w.tokens.olga, 'PUT', path, body)).status).toBe(404)
      expect((await call(w.api, undefined, 'PUT', path, body)).status).toBe(401)
      expect((await call(w.api, w.tokens.ada, 'PUT', `/v1/orgs/${w.org.id}/sites/missing/adaptive-schema`, body)).status).toBe(404)
      expect(siteRow(w, site.id)).toEqual(before)
    })
  })

  describe('GET .../adaptive-schema/template-conditions', () => {
    it('has no conditions for the default schema', async () => {
      const { w, path } = await setup()
      const res = await call(w.api, w.tokens.rita, 'GET', `${path}/template-conditions`)
      expect(res.status).toBe(200)
      expect(res.body).toEqual({ items: [] })
    })

    it('has one condition per claim: the signed ones, then the unsigned ones, in schema order', async () => {
      const { w, editor, path } = await setup()
      await call(w.api, editor, 'PUT', path, { jsonSchema: validSchema() })
      const res = await call(w.api, w.tokens.rita, 'GET', `${path}/template-conditions`)
      expect(res.body).toEqual({
        items: [
          { description: 'Visitors whose `isBeta` claim is true (Beta testers)', condition: 'visitor.claims.isBeta === true' },
          { description: 'Visitors whose `_staff` claim is true', condition: 'visitor.claims._staff === true' },
          { description: 'Visitors whose unsigned `wantsDark` claim is true', condition: 'visitor.claims.unsigned.wantsDark === true' },
          { description: 'Visitors whose unsigned `plan_pro` claim is true (On the pro plan)', condition: 'visitor.claims.unsigned.plan_pro === true' },
        ],
      })
    })

    it('needs view on the site: 404 for a guest or an outsider, 401 without a token', async () => {
      const { w, path } = await setup()
      expect((await call(w.api, w.tokens.gina, 'GET', `${path}/template-conditions`)).status).toBe(404)
      expect((await call(w.api, w.tokens.olga, 'GET', `${path}/template-conditions`)).status).toBe(404)
      expect((await call(w.api, undefined, 'GET', `${path}/template-conditions`)).status).toBe(401)
      expect((await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}/sites/missing/adaptive-schema/template-conditions`)).status).toBe(404)
    })
  })
})
