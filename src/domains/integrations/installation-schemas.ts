import { z } from 'zod'
import { listQuery, queryBoolean } from '../../core/paging.js'
import { TimestampSchema } from '../common/schemas.js'
import { SiteSchema } from '../sites/schemas.js'
import { SpaceSchema } from '../spaces/schemas.js'

/** Installations and events (official `IntegrationInstallation`, `IntegrationSpaceInstallation`, `IntegrationEvent`...). */

export const InstallationStatusSchema = z.enum(['active', 'pending', 'paused']).meta({ id: 'IntegrationInstallationStatus' })
const ExternalIdsSchema = z.array(z.string()).max(5).meta({ id: 'IntegrationInstallationExternalIds' })

export const IntegrationInstallationSchema = z
  .object({
    id: z.string(),
    status: InstallationStatusSchema,
    space_selection: z.enum(['all', 'selected']),
    site_selection: z.enum(['all', 'selected']),
    spaces: z.number().meta({ description: 'How many spaces the installation is enabled on (its space installations).' }),
    configuration: z.record(z.string(), z.unknown()),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
    urls: z.object({ location: z.string(), app: z.string(), publicEndpoint: z.string(), publicContentEndpoint: z.string() }),
    externalIds: ExternalIdsSchema,
    target: z.object({ organization: z.string() }),
  })
  .meta({ id: 'IntegrationInstallation' })

const contentInstallation = {
  integration: z.string(),
  installation: z.string(),
  status: InstallationStatusSchema,
  configuration: z.record(z.string(), z.unknown()),
  externalIds: ExternalIdsSchema,
  urls: z.object({ location: z.string(), publicEndpoint: z.string(), publicContentEndpoint: z.string() }),
}
export const IntegrationSpaceInstallationSchema = z
  .object({ ...contentInstallation, space: z.union([z.string(), SpaceSchema]) })
  .meta({ id: 'IntegrationSpaceInstallation' })
export const IntegrationSiteInstallationSchema = z
  .object({ ...contentInstallation, site: z.union([z.string(), SiteSchema]) })
  .meta({ id: 'IntegrationSiteInstallation' })

export const InstallIntegrationSchema = z.object({ organization: z.string().min(1, 'must not be empty') }).meta({ id: 'OrganizationTarget' })
export const InstallOnSpaceSchema = z.object({ space: z.string().min(1, 'must not be empty') })
export const InstallOnSiteSchema = z.object({ siteId: z.string().min(1, 'must not be empty') })

export const ListInstallationsQuerySchema = listQuery.extend({
  externalId: z.string().optional().meta({ description: 'Only installations carrying this external id.' }),
})
const extended = queryBoolean.default(false)
export const ListContentInstallationsQuerySchema = ListInstallationsQuerySchema.extend({
  extended: extended.meta({ description: 'true: each item holds the space (or site) object; false: its id.' }),
})
export const ExtendedQuerySchema = z.object({ extended: extended.meta({ description: 'true: the answer holds the space (or site) object; false: its id.' }) })

const previous = z.object({ status: InstallationStatusSchema, configuration: z.record(z.string(), z.unknown()) })
const eventBase = { eventId: z.string(), installationId: z.string(), status: InstallationStatusSchema, previous }
const deletedBase = { eventId: z.string(), installationId: z.string(), previous: z.object({ configuration: z.record(z.string(), z.unknown()) }) }
export const IntegrationEventPayloadSchema = z.discriminatedUnion('type', [
  z.object({ ...eventBase, type: z.literal('installation_setup') }),
  z.object({ ...eventBase, type: z.literal('space_installation_setup'), spaceId: z.string() }),
  z.object({ ...eventBase, type: z.literal('site_installation_setup'), siteId: z.string() }),
  // Uninstalls (official `InstallationDeletedEvent`, `SpaceInstallationDeletedEvent`, `SiteInstallationDeletedEvent`): no status, the configuration it had.
  z.object({ ...deletedBase, type: z.literal('installation_deleted') }),
  z.object({ ...deletedBase, type: z.literal('space_installation_deleted'), spaceId: z.string() }),
  z.object({ ...deletedBase, type: z.literal('site_installation_deleted'), siteId: z.string() }),
  z.object({ eventId: z.string(), type: z.literal('task'), task: z.record(z.string(), z.unknown()) }),
])

export const IntegrationEventSchema = z
  .object({
    id: z.string(),
    integrationId: z.string(),
    installationId: z.string().optional(),
    createdAt: TimestampSchema,
    payload: IntegrationEventPayloadSchema,
    status: z
      .enum(['success', 'failed'])
      .meta({ description: '`success` once delivered (or recorded without a handler); `failed` until then, and when the delivery failed.' }),
    delivery: z
      .object({
        state: z.enum(['pending', 'progress', 'done', 'failed', 'skipped']),
        attempts: z.number(),
        nextAttemptAt: TimestampSchema.optional(),
        reason: z.string().optional(),
      })
      .meta({ description: "Where the delivery to the integration's in-process handler stands (beyond the official document)." }),
  })
  .meta({ id: 'IntegrationEvent' })

export const IntegrationEventLogSchema = z
  .object({ message: z.string(), timestamp: TimestampSchema, level: z.enum(['debug', 'info', 'warn', 'error']) })
  .meta({ id: 'IntegrationEventLog' })

export const IntegrationEventWithTraceSchema = z.object({
  event: IntegrationEventSchema,
  trace: z.object({ logs: z.array(IntegrationEventLogSchema) }).meta({ id: 'IntegrationEventTrace' }),
})
