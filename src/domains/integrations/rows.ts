import { z } from 'zod'
import { collection } from '../../storage/port.js'
import { SeedIdSchema, SeedTimestampSchema } from '../../state/seed.js'
import { UNFINISHED } from '../common/rows.js'
import { InstallationStatusSchema, IntegrationEventLogSchema, IntegrationEventPayloadSchema } from './installation-schemas.js'
import {
  INTEGRATION_NAME_PATTERN,
  IntegrationBlockSchema,
  IntegrationConfigurationSchema,
  IntegrationContentSourceSchema,
  IntegrationTargetSchema,
  IntegrationVisibilitySchema,
  PublishIntegrationSchema,
} from './schemas.js'

/**
 * The rows the integrations area stores, and their collections and indexes (end of file). Rows hold state only: urls, permissions and the `spaces` count of an installation
 * are computed when a resource is encoded. Each row's schema is written once here; the seed rules
 * (seed.ts) add the defaults a loaded row gets.
 */

export type IntegrationVisibility = z.output<typeof IntegrationVisibilitySchema>
export type IntegrationTarget = z.output<typeof IntegrationTargetSchema>
export type InstallationStatus = z.output<typeof InstallationStatusSchema>

/** A configuration: a schema of properties, or a ContentKit component. */
export type IntegrationConfiguration = z.output<typeof IntegrationConfigurationSchema>
/** One configuration property of an integration (`configurations.<target>.properties.<name>`). */
export type IntegrationConfigurationProperty = Extract<IntegrationConfiguration, { properties: unknown }>['properties'][string]

export type IntegrationBlock = z.output<typeof IntegrationBlockSchema>
export type IntegrationContentSource = z.output<typeof IntegrationContentSourceSchema>

/** The manifest of an integration: the publish body's fields but `organization`. */
const manifest = PublishIntegrationSchema.omit({ organization: true }).shape

/** A published integration; its id is its name (unique across the API). */
export const IntegrationRowSchema = z.strictObject({
  ...manifest,
  // What a publish leaves out takes its default (seed.ts fills them in the same way).
  runtime: manifest.runtime.unwrap(),
  /** Base64 bytes of the icon and preview images, as published (answered as `data:` URLs). */
  previewImages: manifest.previewImages.unwrap(),
  visibility: manifest.visibility.unwrap(),
  target: manifest.target.unwrap(),
  categories: manifest.categories.unwrap(),
  blocks: manifest.blocks.unwrap(),
  contentSources: manifest.contentSources.unwrap(),
  externalLinks: manifest.externalLinks.unwrap(),
  configurations: manifest.configurations.unwrap(),
  /** Never answered; handed to the handler in `environment.secrets`. */
  secrets: manifest.secrets.unwrap(),
  id: SeedIdSchema.regex(INTEGRATION_NAME_PATTERN, 'must be letters, digits, "-", "_" or "."'),
  /** The integration's own id (`integrationId` of its events); a new one when a name is published again after an unpublish. */
  uid: SeedIdSchema,
  /** The owner organization. */
  organization: SeedIdSchema,
  /** 1 at the first publish, +1 per publish after. */
  version: z.number().int().min(1),
  /** Signs the requests delivering events (`x-gitbook-integration-signature`). */
  signingSecret: z.string().min(1),
  createdAt: SeedTimestampSchema,
  updatedAt: SeedTimestampSchema,
})
export type IntegrationRow = z.output<typeof IntegrationRowSchema>

/** An installation of an integration on an organization (one per organization). */
export const IntegrationInstallationRowSchema = z.strictObject({
  id: SeedIdSchema,
  integration: SeedIdSchema,
  organization: SeedIdSchema,
  status: InstallationStatusSchema,
  configuration: z.record(z.string(), z.unknown()),
  externalIds: z.array(z.string()).max(5),
  createdAt: SeedTimestampSchema,
  updatedAt: SeedTimestampSchema,
})
export type IntegrationInstallationRow = z.output<typeof IntegrationInstallationRowSchema>

/** The fields of an installation enabled on a space or a site: its installation's, and the installation's integration and organization. */
const contentInstallationFields = {
  installation: SeedIdSchema,
  integration: SeedIdSchema,
  organization: SeedIdSchema,
  status: InstallationStatusSchema,
  configuration: z.record(z.string(), z.unknown()),
  externalIds: z.array(z.string()).max(5),
  createdAt: SeedTimestampSchema,
  updatedAt: SeedTimestampSchema,
}

/** An installation enabled on a space (id `${installation}/${space}`). */
export const IntegrationSpaceInstallationRowSchema = z.strictObject({ ...contentInstallationFields, space: SeedIdSchema, id: SeedIdSchema })
export type IntegrationSpaceInstallationRow = z.output<typeof IntegrationSpaceInstallationRowSchema>

/** An installation enabled on a site (id `${installation}/${site}`). */
export const IntegrationSiteInstallationRowSchema = z.strictObject({ ...contentInstallationFields, site: SeedIdSchema, id: SeedIdSchema })
export type IntegrationSiteInstallationRow = z.output<typeof IntegrationSiteInstallationRowSchema>

/** What space and site installations have in common. */
export type IntegrationContentInstallationRow = Omit<IntegrationSpaceInstallationRow, 'space'>

/** What an event tells its integration (the official `Event` payloads this API records). */
export type IntegrationEventPayload = z.output<typeof IntegrationEventPayloadSchema>

const DeliveryStateSchema = z.enum(['pending', 'progress', 'done', 'failed', 'skipped'])
export type DeliveryState = z.output<typeof DeliveryStateSchema>

export type IntegrationEventLog = z.output<typeof IntegrationEventLogSchema>

/**
 * An event recorded for an integration and delivered to its in-process handler by a background
 * job: `delivery.state` goes pending → progress → done (delivered), failed (every attempt failed,
 * or the handler refused it), or skipped (no handler for the integration).
 */
export const IntegrationEventRowSchema = z.strictObject({
  id: SeedIdSchema,
  integration: SeedIdSchema,
  /** The integration's `uid` when the event was recorded. */
  integrationUid: SeedIdSchema,
  /** The installation the event is about (a task is about none). */
  installation: SeedIdSchema.optional(),
  /** The user whose request caused the event (none for the API's own work): development mode routes by it. */
  actor: SeedIdSchema.optional(),
  createdAt: SeedTimestampSchema,
  payload: IntegrationEventPayloadSchema,
  delivery: z.strictObject({
    state: DeliveryStateSchema,
    /** Attempts started so far (the one in progress included). */
    attempts: z.number().int().min(0),
    /** When the next attempt is due (by the API's clock), while a retry waits. */
    nextAttemptAt: SeedTimestampSchema.optional(),
    /** Why the delivery failed, once it has. */
    reason: z.string().optional(),
  }),
  logs: z.array(IntegrationEventLogSchema),
})
export type IntegrationEventRow = z.output<typeof IntegrationEventRowSchema>

/**
 * An integration's development mode for one developer (id `${integration}/${user}`): while it is
 * set, the events and UI renders that developer causes (every one of the integration with `all`)
 * go to `tunnelUrl` instead of the in-process handler (devmode-target.ts).
 */
export const IntegrationDevModeRowSchema = z.strictObject({
  id: SeedIdSchema,
  integration: SeedIdSchema,
  user: SeedIdSchema,
  tunnelUrl: z.string().min(1),
  all: z.boolean(),
  createdAt: SeedTimestampSchema,
})
export type IntegrationDevModeRow = z.output<typeof IntegrationDevModeRowSchema>

/**
 * An installation token (`createIntegrationInstallationToken`, and the one a delivery's
 * environment carries): the token is the row's id, a bearer until `expiresAt` while its
 * installation exists (removed with it).
 */
export const IntegrationInstallationTokenRowSchema = z.strictObject({
  id: z.string().regex(/^gb_inst_[A-Za-z0-9_-]{16,200}$/, 'must be "gb_inst_" and 16..200 letters, digits, "-" or "_"'),
  integration: SeedIdSchema,
  installation: SeedIdSchema,
  createdAt: SeedTimestampSchema,
  expiresAt: SeedTimestampSchema,
})
export type IntegrationInstallationTokenRow = z.output<typeof IntegrationInstallationTokenRowSchema>

/** The collections the integrations area stores, with their indexes. */
export const integrationsCollections = {
  /** Published integrations, by name (their id); the owner's integrations for the `owner` filter. */
  integrations: collection<IntegrationRow>({ byOrganization: { key: (i) => i.organization } }),
  integrationInstallations: collection<IntegrationInstallationRow>({
    byIntegration: { key: (i) => i.integration },
    /** `${integration}/${organization}`: one installation per organization. */
    byIntegrationOrganization: { key: (i) => `${i.integration}/${i.organization}` },
    /** An organization's installations, for its lists (lists-handlers.ts). */
    byOrganization: { key: (i) => i.organization },
  }),
  integrationSpaceInstallations: collection<IntegrationSpaceInstallationRow>({
    byIntegration: { key: (i) => i.integration },
    byInstallation: { key: (i) => i.installation },
    /** A space's installations and an organization's, for the lists (lists-handlers.ts). */
    bySpace: { key: (i) => i.space },
    byOrganization: { key: (i) => i.organization },
  }),
  integrationSiteInstallations: collection<IntegrationSiteInstallationRow>({
    byIntegration: { key: (i) => i.integration },
    byInstallation: { key: (i) => i.installation },
    /** A site's installations and an organization's, for the lists (lists-handlers.ts). */
    bySite: { key: (i) => i.site },
    byOrganization: { key: (i) => i.organization },
  }),
  /** An integration's events, in the order they were recorded. */
  integrationEvents: collection<IntegrationEventRow>({
    byIntegration: { key: (e) => e.integration },
    /** Events whose delivery is `pending` or in `progress` (key `unfinished`), for core/resume.ts. */
    unfinished: { key: (e) => (e.delivery.state === 'pending' || e.delivery.state === 'progress' ? UNFINISHED : undefined) },
  }),
  /** Development modes, by integration (devmode-handlers.ts). */
  integrationDevModes: collection<IntegrationDevModeRow>({ byIntegration: { key: (d) => d.integration } }),
  /** Installation tokens, by their installation (removed with it). */
  integrationInstallationTokens: collection<IntegrationInstallationTokenRow>({
    byInstallation: { key: (t) => t.installation },
  }),
}
