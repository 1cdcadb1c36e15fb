import type { SiteAdaptiveJSONSchema } from '@gitbook/api'
import { describe, expect, it } from 'vitest'
import { call, createWorld } from '../helpers.js'
import { expectOfficialResponse } from './official.js'

/** A schema as the reference accepts it: descriptions left out are filled in on the way in. */
const sent = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    isBeta: { type: 'boolean', description: 'Beta testers' },
    isStaff: { type: 'boolean' },
    unsigned: { type: 'object', properties: { wantsDark: { type: 'boolean' } }, additionalProperties: false },
  },
  additionalProperties: false,
} as unknown as SiteAdaptiveJSONSchema

describe('conformance: adaptive content through @gitbook/api', () => {
  it('getSiteAdaptiveSchema answers the default schema before one is set', async () => {
    const w = await createWorld()
    const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs' })
    const got = await w.client(w.tokens.rita).orgs.getSiteAdaptiveSchema(w.org.id, site.id)
    expect(got.status).toBe(200)
    expect(got.data).toMatchObject({ object: 'site-adaptive-schema', updatedAt: site.createdAt })
    expectOfficialResponse('getSiteAdaptiveSchema', 200, got.data)
  })

  it('updateSiteAdaptiveSchema answers the normalised schema, which getSiteAdaptiveSchema then gives back', async () => {
    const w = await createWorld()
    const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs' })
    const gb = w.client(w.tokens.ada).orgs
    const updated = await gb.updateSiteAdaptiveSchema(w.org.id, site.id, { jsonSchema: sent })
    expect(updated.status).toBe(200)
    expect(updated.data.jsonSchema.properties.isStaff).toEqual({ type: 'boolean', description: 'isStaff' })
    expectOfficialResponse('updateSiteAdaptiveSchema', 200, updated.data)
    const got = await w.client(w.tokens.rita).orgs.getSiteAdaptiveSchema(w.org.id, site.id)
    expect(got.data).toEqual(updated.data)
    expectOfficialResponse('getSiteAdaptiveSchema', 200, got.data)
  })

  it('listSiteAdaptiveTemplateConditions, for the default schema and a set one', async () => {
    const w = await createWorld()
    const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs' })
    const gb = w.client(w.tokens.ada).orgs
    const none = await gb.listSiteAdaptiveTemplateConditions(w.org.id, site.id)
    expect(none.data).toEqual({ items: [] })
    expectOfficialResponse('listSiteAdaptiveTemplateConditions', 200, none.data)
    await gb.updateSiteAdaptiveSchema(w.org.id, site.id, { jsonSchema: sent })
    const some = await gb.listSiteAdaptiveTemplateConditions(w.org.id, site.id)
    expect(some.data.items.map((c) => c.condition)).toEqual([
      'visitor.claims.isBeta === true',
      'visitor.claims.isStaff === true',
      'visitor.claims.unsigned.wantsDark === true',
    ])
    expectOfficialResponse('listSiteAdaptiveTemplateConditions', 200, some.data)
  })

  it('the client surfaces a validation error naming the field path; the body is the official 400', async () => {
    const w = await createWorld()
    const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs' })
    const bad = { ...sent, properties: { isBeta: { type: 'string', description: 'Beta' } } } as unknown as SiteAdaptiveJSONSchema
    const error = await w
      .client(w.tokens.ada)
      .orgs.updateSiteAdaptiveSchema(w.org.id, site.id, { jsonSchema: bad })
      .catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 400, message: expect.stringContaining('body field `jsonSchema.properties.isBeta.type`: must be "boolean"') })
    // The error body matches the official 400 response.
    const res = await call(w.api, w.tokens.ada, 'PUT', `/v1/orgs/${w.org.id}/sites/${site.id}/adaptive-schema`, { jsonSchema: bad })
    expect(res.status).toBe(400)
    expectOfficialResponse('updateSiteAdaptiveSchema', 400, res.body)
  })
})
