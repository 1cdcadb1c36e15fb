import { implement } from '../context.js'
import { mapPage } from '../../core/paging.js'
import { encodeContent, encodeRawContent, encodeSpec, encodeVersion } from './encode.js'
import { checkSourceUrl, createSpec, deleteSpec, findSpec, getSpec, getVersion, listSpecs, listVersions, replaceSource, setVisibility } from './model.js'
import { openapiSpecOperations } from './operations.js'

/** The OpenAPI spec operations bound to their handlers (a URL source is checked by `checkSourceUrl` first). */
export const openapiSpecHandlers = implement(
  openapiSpecOperations,
  {
    listOpenAPISpecs: (ctx, { params, query }) => mapPage(listSpecs(ctx, params.organizationId, query), (e) => encodeSpec(ctx, e.row)),

    createOpenAPISpec: (ctx, { params, body }) => encodeSpec(ctx, createSpec(ctx, params.organizationId, body.slug, body.source)),

    getOpenAPISpecBySlug: (ctx, { params }) => encodeSpec(ctx, getSpec(ctx, params.organizationId, params.specSlug)),

    // The path's slug is checked as a body slug would be (a spec created here is addressed by it).
    createOrUpdateOpenAPISpecBySlug: (ctx, { params, body }) => {
      const row = findSpec(ctx, params.organizationId, params.specSlug)
      return encodeSpec(ctx, row ? replaceSource(ctx, row, body.source) : createSpec(ctx, params.organizationId, params.specSlug, body.source))
    },

    updateOpenAPISpecBySlug: (ctx, { params, body }) =>
      encodeSpec(ctx, setVisibility(ctx, getSpec(ctx, params.organizationId, params.specSlug), body.visibility)),

    // 204 whether a spec was deleted or there was none (the reference; the official document says 205 for a deletion).
    deleteOpenAPISpecBySlug: (ctx, { params }) => {
      const row = findSpec(ctx, params.organizationId, params.specSlug)
      if (row) deleteSpec(ctx, row)
    },

    listOpenAPISpecVersions: (ctx, { params, query }) => {
      const spec = getSpec(ctx, params.organizationId, params.specSlug)
      return mapPage(listVersions(ctx, spec, query), (e) => encodeVersion(ctx, spec, e.row))
    },
    getLatestOpenAPISpecVersion: (ctx, { params }) => {
      const spec = getSpec(ctx, params.organizationId, params.specSlug)
      return encodeVersion(ctx, spec, getVersion(ctx, spec, 'latest'))
    },
    getLatestOpenAPISpecVersionContent: (ctx, { params }) => {
      const spec = getSpec(ctx, params.organizationId, params.specSlug)
      return encodeContent(ctx, spec, getVersion(ctx, spec, 'latest'))
    },
    getLatestOpenAPISpecVersionContentRaw: (ctx, { params }) => {
      const spec = getSpec(ctx, params.organizationId, params.specSlug)
      return encodeRawContent(getVersion(ctx, spec, 'latest'))
    },
    getOpenAPISpecVersionById: (ctx, { params }) => {
      const spec = getSpec(ctx, params.organizationId, params.specSlug)
      return encodeVersion(ctx, spec, getVersion(ctx, spec, params.versionId))
    },
    getOpenAPISpecVersionContentById: (ctx, { params }) => {
      const spec = getSpec(ctx, params.organizationId, params.specSlug)
      return encodeContent(ctx, spec, getVersion(ctx, spec, params.versionId))
    },
  },
  // The prepare step only checks the URL as written; a spec the slug names need not exist (created then).
  { createOpenAPISpec: checkSourceUrl, createOrUpdateOpenAPISpecBySlug: { requires: () => undefined, run: checkSourceUrl } },
)
