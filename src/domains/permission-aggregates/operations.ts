import { defineOperation } from '../../core/operation.js'
import { listOf, pathParams } from '../common/schemas.js'
import {
  aggregateListOf,
  ContentAggregateQuerySchema,
  SiteAggregateQuerySchema,
  UserContentPermissionAggregateSchema,
  UserSitePermissionAggregateSchema,
} from './schemas.js'

/**
 * Every user who can reach a space, a collection or a site, with the role they end up with and
 * where it comes from. The levels are the policy's own (domains/access/levels.ts: spaceAccessOf,
 * collectionAccessOf, siteAccessOf), so a listed role is what the API lets that user do. Reading
 * an aggregate needs what reading the resource's grants needs (`listPermissions`).
 * See docs/behaviour/permission-aggregates.md.
 */
export const permissionAggregateOperations = {
  listPermissionsAggregateInSpace: defineOperation({
    id: 'listPermissionsAggregateInSpace',
    method: 'GET',
    path: '/v1/spaces/{spaceId}/permissions/aggregate',
    tag: 'space-permissions',
    summary: 'List every member who can reach a space, with his effective role and its origin (pages may be short; no count)',
    params: pathParams('spaceId'),
    query: ContentAggregateQuerySchema,
    response: aggregateListOf(UserContentPermissionAggregateSchema),
    status: 200,
    errors: ['NOT_FOUND'],
    permission: { resource: 'space', action: 'listPermissions' },
  }),
  listPermissionsAggregateInCollection: defineOperation({
    id: 'listPermissionsAggregateInCollection',
    method: 'GET',
    path: '/v1/collections/{collectionId}/permissions/aggregate',
    tag: 'space-permissions',
    summary: 'List every member who can reach a collection, with his effective role and its origin (pages may be short; no count)',
    params: pathParams('collectionId'),
    query: ContentAggregateQuerySchema,
    response: aggregateListOf(UserContentPermissionAggregateSchema),
    status: 200,
    errors: ['NOT_FOUND'],
    permission: { resource: 'collection', action: 'listPermissions' },
  }),
  listPermissionsAggregateInSite: defineOperation({
    id: 'listPermissionsAggregateInSite',
    method: 'GET',
    path: '/v1/orgs/{organizationId}/sites/{siteId}/permissions/aggregate',
    tag: 'site-permissions',
    summary: "List every member of a site's organization with his effective permission on the site and its origin (guests: null)",
    params: pathParams('organizationId', 'siteId'),
    query: SiteAggregateQuerySchema,
    response: listOf(UserSitePermissionAggregateSchema),
    status: 200,
    errors: ['NOT_FOUND'],
    permission: { resource: 'site', action: 'listPermissions' },
  }),
}
