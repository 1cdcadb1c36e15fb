import { implement } from '../context.js'
import { getSite } from '../sites/model.js'
import { encodeAdaptiveSchema } from './encode.js'
import { adaptiveSchemaOf, setAdaptiveSchema, templateConditions } from './model.js'
import { adaptiveContentOperations } from './operations.js'

/** The adaptive content operations bound to their handlers. */
export const adaptiveContentHandlers = implement(adaptiveContentOperations, {
  getSiteAdaptiveSchema: (ctx, { params }) => encodeAdaptiveSchema(adaptiveSchemaOf(getSite(ctx, params.organizationId, params.siteId))),

  updateSiteAdaptiveSchema: (ctx, { params, body }) => {
    const site = getSite(ctx, params.organizationId, params.siteId)
    return encodeAdaptiveSchema(setAdaptiveSchema(ctx, site, body.jsonSchema))
  },

  listSiteAdaptiveTemplateConditions: (ctx, { params }) => {
    const { jsonSchema } = adaptiveSchemaOf(getSite(ctx, params.organizationId, params.siteId))
    return { items: templateConditions(jsonSchema) }
  },
})
