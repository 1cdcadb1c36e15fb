import type { z } from 'zod'
import type { IntegrationCategorySchema, IntegrationScopeSchema } from './schemas.js'
import { collection } from '../../storage/port.js'
import { UNFINISHED } from '../common/rows.js'

/**
 * The rows the integrations area stores, and their collections and indexes (end of file). Rows hold state only: urls, permissions and the `spaces` count of an installation
 * are computed when a resource is encoded.
 */

export type IntegrationVisibility = 'public' | 'private' | 'unlisted'
export type IntegrationTarget = 'all' | 'site' | 'space' | 'organization'
export type InstallationStatus = 'active' | 'pending' | 'paused'

/** One configuration property of an integration (`configurations.<target>.properties.<name>`). */
export type IntegrationConfigurationProperty = { title?: string; description?: string } & (
  | { type: 'string'; default?: string; completion_url?: string; enum?: string[] }
  | { type: 'number'; default?: number }
  | { type: 'boolean'; default?: boolean }
  | { type: 'button'; callback_url: string; button_text: string }
)

/** A configuration: a schema of properties, or a ContentKit component. */
export type IntegrationConfiguration = { properties: Record<string, IntegrationConfigurationProperty>; required?: string[] } | { componentId: string }

export interface IntegrationBlock {
  id: string
  title: string
  description?: string
  icon?: string
  urlUnfurl?: string[]
  markdown?: { codeblock: string; body: string }
}

export interface IntegrationContentSource {
  id: string
  title: string
  description?: string
  icon?: string
  configuration: { componentId: string }
}

/** A published integration; its id is its name (unique across the API). */
export interface IntegrationRow {
  id: string
  /** The integration's own id (`integrationId` of its events); a new one when a name is published again after an unpublish. */
  uid: string
  /** The owner organization. */
  organization: string
  /** 1 at the first publish, +1 per publish after. */
  version: number
  runtime: 'v1' | 'v2'
  title: string
  description: string
  summary?: string
  /** Base64 bytes of the icon and preview images, as published (answered as `data:` URLs). */
  icon?: string
  previewImages: string[]
  visibility: IntegrationVisibility
  target: IntegrationTarget
  scopes: Array<z.output<typeof IntegrationScopeSchema>>
  categories: Array<z.output<typeof IntegrationCategorySchema>>
  blocks: IntegrationBlock[]
  contentSources: IntegrationContentSource[]
  externalLinks: Array<{ url: string; label: string }>
  configurations: { account?: IntegrationConfiguration; space?: IntegrationConfiguration; site?: IntegrationConfiguration }
  /** The script as published: stored, never run (an in-process handler stands for it, see delivery.ts). */
  script: string
  /** Never answered; handed to the handler in `environment.secrets`. */
  secrets: Record<string, string>
  contentSecurityPolicy?: string | Record<string, string>
  /** Signs the requests delivering events (`x-gitbook-integration-signature`). */
  signingSecret: string
  createdAt: string
  updatedAt: string
}

/** An installation of an integration on an organization (one per organization). */
export interface IntegrationInstallationRow {
  id: string
  integration: string
  organization: string
  status: InstallationStatus
  configuration: Record<string, unknown>
  externalIds: string[]
  createdAt: string
  updatedAt: string
}

/** An installation enabled on a space (`${installation}/${space}`) or a site (`${installation}/${site}`). */
export interface IntegrationContentInstallationRow {
  id: string
  installation: string
  integration: string
  organization: string
  status: InstallationStatus
  configuration: Record<string, unknown>
  externalIds: string[]
  createdAt: string
  updatedAt: string
}

export interface IntegrationSpaceInstallationRow extends IntegrationContentInstallationRow {
  space: string
}

export interface IntegrationSiteInstallationRow extends IntegrationContentInstallationRow {
  site: string
}

/** What an event tells its integration (the official `Event` payloads this API records). */
export type IntegrationEventPayload = {
  eventId: string
  installationId: string
  status: InstallationStatus
  previous: { status: InstallationStatus; configuration: Record<string, unknown> }
} & ({ type: 'installation_setup' } | { type: 'space_installation_setup'; spaceId: string } | { type: 'site_installation_setup'; siteId: string })

export type DeliveryState = 'pending' | 'progress' | 'done' | 'failed' | 'skipped'

export interface IntegrationEventLog {
  message: string
  timestamp: string
  level: 'debug' | 'info' | 'warn' | 'error'
}

/**
 * An event recorded for an integration and delivered to its in-process handler by a background
 * job: `delivery.state` goes pending → progress → done (delivered), failed (every attempt failed,
 * or the handler refused it), or skipped (no handler for the integration).
 */
export interface IntegrationEventRow {
  id: string
  integration: string
  /** The integration's `uid` when the event was recorded. */
  integrationUid: string
  installation: string
  createdAt: string
  payload: IntegrationEventPayload
  delivery: {
    state: DeliveryState
    /** Attempts started so far (the one in progress included). */
    attempts: number
    /** When the next attempt is due (by the API's clock), while a retry waits. */
    nextAttemptAt?: string
    /** Why the delivery failed, once it has. */
    reason?: string
  }
  logs: IntegrationEventLog[]
}

/** The collections the integrations area stores, with their indexes. */
export const integrationsCollections = {
  /** Published integrations, by name (their id); the owner's integrations for the `owner` filter. */
  integrations: collection<IntegrationRow>({ byOrganization: { key: (i) => i.organization } }),
  integrationInstallations: collection<IntegrationInstallationRow>({
    byIntegration: { key: (i) => i.integration },
    /** `${integration}/${organization}`: one installation per organization. */
    byIntegrationOrganization: { key: (i) => `${i.integration}/${i.organization}` },
  }),
  integrationSpaceInstallations: collection<IntegrationSpaceInstallationRow>({
    byIntegration: { key: (i) => i.integration },
    byInstallation: { key: (i) => i.installation },
  }),
  integrationSiteInstallations: collection<IntegrationSiteInstallationRow>({
    byIntegration: { key: (i) => i.integration },
    byInstallation: { key: (i) => i.installation },
  }),
  /** An integration's events, in the order they were recorded. */
  integrationEvents: collection<IntegrationEventRow>({
    byIntegration: { key: (e) => e.integration },
    /** Events whose delivery is `pending` or in `progress` (key `unfinished`), for core/resume.ts. */
    unfinished: { key: (e) => (e.delivery.state === 'pending' || e.delivery.state === 'progress' ? UNFINISHED : undefined) },
  }),
}
