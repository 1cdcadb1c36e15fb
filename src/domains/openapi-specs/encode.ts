import type { ReadContext } from '../context.js'
import type { OpenAPISpecRow, OpenAPISpecVersionRow } from './rows.js'
import { readSpecText } from './read.js'

const specPath = (row: { organization: string; slug: string }) => `/orgs/${row.organization}/openapi/${row.slug}`

/** The published link of a public spec (the application serves it; this API does not). */
function publishedUrl(ctx: ReadContext, row: OpenAPISpecRow): string {
  return ctx.urls.published(`/openapi/${row.organization}/${row.slug}`)
}

/** The API resource of a spec. `permissions` are the caller's, from the organization's policy. */
export function encodeSpec(ctx: ReadContext, row: OpenAPISpecRow) {
  const level = ctx.access.level('organization', row.organization)
  return {
    object: 'openapi-spec' as const,
    id: row.id,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    slug: row.slug,
    ...(row.sourceURL !== undefined && { sourceURL: row.sourceURL }),
    processingState: row.processingState,
    visibility: row.visibility,
    ...(row.lastVersion !== undefined && { lastVersion: row.lastVersion }),
    ...(row.lastProcessedAt !== undefined && { lastProcessedAt: row.lastProcessedAt }),
    ...(row.lastProcessErrorCode !== undefined && { lastProcessErrorCode: row.lastProcessErrorCode }),
    lastProcessedErrors: row.lastProcessedErrors.map((e) => ({ ...e })),
    lastProcessedErrorCount: row.lastProcessedErrorCount,
    permissions: {
      view: ctx.access.allows('organization', level, 'viewOpenAPISpecs'),
      edit: ctx.access.allows('organization', level, 'createOpenAPISpec'),
    },
    urls: {
      location: ctx.urls.api(specPath(row)),
      app: ctx.urls.app(`/o/${row.organization}/openapi/${row.slug}`),
      ...(row.visibility === 'public' && { published: publishedUrl(ctx, row) }),
    },
  }
}

const versionPath = (spec: OpenAPISpecRow, version: OpenAPISpecVersionRow) => `${specPath(spec)}/versions/${version.id}`

export function encodeVersion(ctx: ReadContext, spec: OpenAPISpecRow, version: OpenAPISpecVersionRow) {
  return {
    object: 'openapi-spec-version' as const,
    id: version.id,
    createdAt: version.createdAt,
    url: version.sourceURL ?? ctx.urls.api(`${versionPath(spec, version)}/content`),
    urls: { location: ctx.urls.api(versionPath(spec, version)) },
  }
}

/** The file name of a version's document: the URL's last segment, or `openapi.<format>`. */
function fileName(version: OpenAPISpecVersionRow): string {
  if (!version.sourceURL) return `openapi.${version.format}`
  const last = new URL(version.sourceURL).pathname.split('/').pop() ?? ''
  try {
    return decodeURIComponent(last) || `openapi.${version.format}`
  } catch {
    return last
  }
}

/** A version's content: its document (parsed again from the stored text, which was valid when processed). */
export function encodeContent(ctx: ReadContext, spec: OpenAPISpecRow, version: OpenAPISpecVersionRow) {
  const read = readSpecText(version.text)
  return {
    filesystem: { [fileName(version)]: 'document' in read ? read.document : null },
    urls: { source: encodeVersion(ctx, spec, version).url, public: spec.visibility === 'public' ? publishedUrl(ctx, spec) : null },
  }
}

export function encodeRawContent(version: OpenAPISpecVersionRow) {
  return { text: version.text, format: version.format }
}
