import { defineOperation } from '../../core/operation.js'
import { pathParams } from '../common/schemas.js'
import { EmbedQuerySchema, EmbedSchema } from './schemas.js'

/** Embeds: a URL resolved to what a page shows for it (official operationIds as keys). */
export const embedOperations = {
  getEmbedByUrl: defineOperation({
    id: 'getEmbedByUrl',
    method: 'GET',
    path: '/v1/urls/embed',
    tag: 'urls',
    summary: "Resolve an http(s) URL to an embed with the API's resolver (`embeds` option; by default a link embed made from the URL alone)",
    query: EmbedQuerySchema,
    response: EmbedSchema,
    status: 200,
    errors: [],
  }),
  getEmbedByUrlInSpace: defineOperation({
    id: 'getEmbedByUrlInSpace',
    method: 'GET',
    path: '/v1/spaces/{spaceId}/embed',
    tag: 'space-embeds',
    summary: 'Resolve an http(s) URL to an embed for a page of a space: whoever reads the space (a site token of a site publishing it too)',
    params: pathParams('spaceId'),
    query: EmbedQuerySchema,
    response: EmbedSchema,
    status: 200,
    errors: ['NOT_FOUND'],
    permission: { resource: 'space', action: 'view' },
  }),
}
