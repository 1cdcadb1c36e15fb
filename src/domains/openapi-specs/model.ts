import type { Context, ReadContext } from '../context.js'
import { ApiError } from '../../core/errors.js'
import { checkOutgoingUrl } from '../../core/outgoing.js'
import type { Prepare } from '../../core/operation.js'
import { indexSource, paginateScan, type Page, type PageQuery } from '../../core/paging.js'
import type { Entry } from '../../storage/port.js'
import type { OpenAPISpecRow, OpenAPISpecSource, OpenAPISpecVersionRow } from './rows.js'
import { deferProcessing } from './processing.js'

/** The spec of the organization with this slug, or undefined. */
export function findSpec(ctx: ReadContext, organization: string, slug: string): OpenAPISpecRow | undefined {
  return ctx.tx.scan('openapiSpecs', 'bySlug', `${organization}/${slug}`, { limit: 1 })[0]?.row
}

export function getSpec(ctx: ReadContext, organization: string, slug: string): OpenAPISpecRow {
  const row = findSpec(ctx, organization, slug)
  if (!row) throw new ApiError('NOT_FOUND', 'OpenAPI spec not found')
  return row
}

/** The organization's specs in creation order. */
export function listSpecs(ctx: ReadContext, organization: string, query: PageQuery): Page<Entry<OpenAPISpecRow>> {
  return paginateScan(indexSource(ctx.tx, 'openapiSpecs', 'byOrganization', organization), query)
}

/**
 * The prepare step of the operations that take a source: a URL must be one the API may fetch
 * (http or https, a public address unless `allowPrivateNetwork`), a 400 now rather than a failed
 * processing later. It runs once the caller's access is checked and writes nothing.
 */
export const checkSourceUrl: Prepare = async (env, input) => {
  const source = (input.body as { source?: OpenAPISpecSource } | undefined)?.source
  if (source && 'url' in source) checkOutgoingUrl(source.url, { field: 'source.url', allowPrivateNetwork: env.allowPrivateNetwork })
  return { value: undefined, undo: () => undefined }
}

/** The fields a new source sets: `pending` with the source waiting, the URL shown when it is one. */
function withSource(row: Omit<OpenAPISpecRow, 'sourceURL'>, source: OpenAPISpecSource): OpenAPISpecRow {
  return { ...row, processingState: 'pending', pendingSource: source, ...('url' in source && { sourceURL: source.url }) }
}

/** Create a spec (a 409 when the slug is taken) and start processing its source. */
export function createSpec(ctx: Context, organization: string, slug: string, source: OpenAPISpecSource): OpenAPISpecRow {
  if (findSpec(ctx, organization, slug)) throw new ApiError('CONFLICT', `An OpenAPI spec with the slug "${slug}" already exists in this organization`)
  const now = ctx.nowIso()
  const row = ctx.tx.insert(
    'openapiSpecs',
    withSource(
      {
        id: ctx.newId(),
        organization,
        slug,
        createdAt: now,
        updatedAt: now,
        visibility: 'private',
        processingState: 'pending',
        run: 1,
        lastProcessedErrors: [],
        lastProcessedErrorCount: 0,
      },
      source,
    ),
  )
  deferProcessing(ctx, row)
  return row
}

/** Give a spec a new source: the same spec (id, slug, versions), `pending` again; a job still running for the old source writes nothing. */
export function replaceSource(ctx: Context, row: OpenAPISpecRow, source: OpenAPISpecSource): OpenAPISpecRow {
  const { sourceURL: _old, ...rest } = row
  const next = ctx.tx.update('openapiSpecs', withSource({ ...rest, run: row.run + 1, updatedAt: ctx.nowIso() }, source))
  deferProcessing(ctx, next)
  return next
}

export function setVisibility(ctx: Context, row: OpenAPISpecRow, visibility: OpenAPISpecRow['visibility']): OpenAPISpecRow {
  if (row.visibility === visibility) return row
  return ctx.tx.update('openapiSpecs', { ...row, visibility, updatedAt: ctx.nowIso() })
}

/** Delete a spec and its versions. */
export function deleteSpec(ctx: Context, row: OpenAPISpecRow): void {
  for (const { row: version } of ctx.tx.scan('openapiSpecVersions', 'bySpec', row.id)) ctx.tx.delete('openapiSpecVersions', version.id)
  ctx.tx.delete('openapiSpecs', row.id)
}

/** A spec's versions, oldest first. */
export function listVersions(ctx: ReadContext, spec: OpenAPISpecRow, query: PageQuery): Page<Entry<OpenAPISpecVersionRow>> {
  return paginateScan(indexSource(ctx.tx, 'openapiSpecVersions', 'bySpec', spec.id), query)
}

/** A version of the spec by id, or `latest` (the spec's `lastVersion`); a 404 when there is none. */
export function getVersion(ctx: ReadContext, spec: OpenAPISpecRow, id: string | 'latest'): OpenAPISpecVersionRow {
  const versionId = id === 'latest' ? spec.lastVersion : id
  const row = versionId === undefined ? undefined : ctx.tx.get('openapiSpecVersions', versionId)
  if (!row || row.spec !== spec.id) {
    throw new ApiError('NOT_FOUND', id === 'latest' ? 'This OpenAPI spec has no processed version yet' : 'OpenAPI spec version not found')
  }
  return row
}
