import type { z } from 'zod'
import { SeedTimestampSchema, seedRule, type SeedCheck, type SeedDefaults, type SeedRule } from '../../state/seed.js'
import {
  IntegrationDevModeRowSchema,
  IntegrationEventRowSchema,
  IntegrationInstallationRowSchema,
  IntegrationInstallationTokenRowSchema,
  IntegrationRowSchema,
  IntegrationSiteInstallationRowSchema,
  IntegrationSpaceInstallationRowSchema,
} from './rows.js'

const integrationRow = IntegrationRowSchema.shape
const installationRow = IntegrationInstallationRowSchema.shape

/** The defaults of an installation's status, configuration, external ids and times. */
const installationDefaults = (d: SeedDefaults) => ({
  status: installationRow.status.default('active'),
  configuration: installationRow.configuration.default({}),
  externalIds: installationRow.externalIds.default([]),
  createdAt: SeedTimestampSchema.default(d.now),
  updatedAt: SeedTimestampSchema.default(d.now),
})

/** The fields of a space or site installation a state document may leave out (filled in from its installation, or defaulted). */
type FilledIn = 'id' | 'integration' | 'organization' | 'status' | 'configuration' | 'externalIds' | 'createdAt' | 'updatedAt'
/** A space or site installation as a state document gives it (for `StateDocumentInput`). */
type ContentInstallationInput<S extends z.ZodObject> = Omit<z.input<S>, FilledIn> & Partial<Pick<z.input<S>, FilledIn>>

/**
 * The installations of an integration with an `installation_deleted` event, per load (one scan per
 * integration). Keyed by the load's context, not its transaction: a store may reuse one
 * transaction object for every transaction (the SQLite store does).
 */
const uninstalledByLoad = new WeakMap<object, Map<string, Set<string>>>()
function uninstalledInstallations(ctx: SeedCheck['ctx'], integration: string): Set<string> {
  const tx = ctx.tx
  let byIntegration = uninstalledByLoad.get(ctx)
  if (!byIntegration) uninstalledByLoad.set(ctx, (byIntegration = new Map()))
  let ids = byIntegration.get(integration)
  if (!ids) {
    ids = new Set(
      tx
        .scan('integrationEvents', 'byIntegration', integration)
        .filter((e) => e.row.payload.type === 'installation_deleted')
        .flatMap((e) => e.row.installation ?? []),
    )
    byIntegration.set(integration, ids)
  }
  return ids
}

/**
 * Integrations, installations and events in a state document. An integration is its manifest
 * (the publish body's fields but `organization`) with its owner and version; installations name
 * an installed integration and organization (one per organization); space and site installations
 * name their installation (their space or site may be gone: the API keeps such rows and leaves
 * them out of lists and counts). An event may name an uninstalled installation when that
 * installation's `installation_deleted` event is in the document too. Loaded events keep the
 * delivery state they were saved with; one still `pending` or in `progress` is delivered again
 * once loaded (resume.ts).
 */
export const integrationSeedRules = [
  seedRule({
    collection: 'integrations',
    row: (d) =>
      // The manifest's fields a publish may leave out take their default below.
      IntegrationRowSchema.partial({
        runtime: true,
        previewImages: true,
        visibility: true,
        target: true,
        categories: true,
        blocks: true,
        contentSources: true,
        externalLinks: true,
        configurations: true,
        secrets: true,
      })
        .extend({
          uid: integrationRow.uid.default(d.newId),
          version: integrationRow.version.default(1),
          signingSecret: integrationRow.signingSecret.default(() => `gb_signing_${d.newId()}`),
          createdAt: SeedTimestampSchema.default(d.now),
          updatedAt: SeedTimestampSchema.default(d.now),
        })
        .transform(({ runtime, visibility, target, previewImages, categories, blocks, contentSources, externalLinks, configurations, secrets, ...rest }) => ({
          ...rest,
          runtime: runtime ?? 'v1',
          visibility: visibility ?? 'private',
          target: target ?? 'all',
          previewImages: previewImages ?? [],
          categories: categories ?? [],
          blocks: blocks ?? [],
          contentSources: contentSources ?? [],
          externalLinks: externalLinks ?? [],
          configurations: configurations ?? {},
          secrets: secrets ?? {},
        })),
    check: ({ ctx, fail }, row) => {
      if (!ctx.tx.get('organizations', row.organization)) fail('organization', `no organization "${row.organization}"`)
    },
  }),
  seedRule({
    collection: 'integrationInstallations',
    row: (d) => IntegrationInstallationRowSchema.extend(installationDefaults(d)),
    check: ({ ctx, fail }, row) => {
      if (!ctx.tx.get('integrations', row.integration)) fail('integration', `no integration "${row.integration}"`)
      if (!ctx.tx.get('organizations', row.organization)) fail('organization', `no organization "${row.organization}"`)
      if (ctx.tx.count('integrationInstallations', 'byIntegrationOrganization', `${row.integration}/${row.organization}`) > 1) {
        fail('organization', `installs "${row.integration}" twice (one installation per organization)`)
      }
    },
  }),
  ...((
    [
      ['integrationSpaceInstallations', 'space', IntegrationSpaceInstallationRowSchema],
      ['integrationSiteInstallations', 'site', IntegrationSiteInstallationRowSchema],
    ] as const
  ).map(([collection, key, rowSchema]) => {
    // Typed as the space installation's schema: the site installation's has `site` where it has `space` (read below by `key`).
    const schema = rowSchema as typeof IntegrationSpaceInstallationRowSchema
    return seedRule({
      collection,
      row: (d) =>
        // The id, and the installation's integration and organization, are filled in when left out.
        schema
          .partial({ integration: true, organization: true, id: true })
          .extend(installationDefaults(d))
          .transform((r) => {
            const installation = d.tx.get('integrationInstallations', r.installation)
            const target = (r as Record<string, unknown>)[key] as string
            return {
              ...r,
              id: r.id ?? `${r.installation}/${target}`,
              integration: r.integration ?? installation?.integration ?? '',
              organization: r.organization ?? installation?.organization ?? '',
            }
          }) as never,
      check: ({ ctx, fail }, row: { id: string; installation: string; integration: string; organization: string } & Record<string, unknown>) => {
        const installation = ctx.tx.get('integrationInstallations', row.installation)
        if (!installation) return fail('installation', `no installation "${row.installation}"`)
        if (row.integration !== installation.integration) fail('integration', `must be the installation's integration "${installation.integration}"`)
        if (row.organization !== installation.organization) fail('organization', `must be the installation's organization "${installation.organization}"`)
        if (row.id !== `${row.installation}/${row[key] as string}`) fail('id', `must be "${row.installation}/${row[key] as string}" (one per ${key})`)
      },
    })
  }) as unknown as [
    SeedRule<'integrationSpaceInstallations', ContentInstallationInput<typeof IntegrationSpaceInstallationRowSchema>>,
    SeedRule<'integrationSiteInstallations', ContentInstallationInput<typeof IntegrationSiteInstallationRowSchema>>,
  ]),
  seedRule({
    collection: 'integrationEvents',
    row: (d) =>
      // The integration's uid is filled in when left out.
      IntegrationEventRowSchema.partial({ integrationUid: true })
        .extend({
          createdAt: SeedTimestampSchema.default(d.now),
          delivery: IntegrationEventRowSchema.shape.delivery.default({ state: 'skipped', attempts: 0 }),
          logs: IntegrationEventRowSchema.shape.logs.default([]),
        })
        .transform((e) => ({ ...e, integrationUid: e.integrationUid ?? d.tx.get('integrations', e.integration)?.uid ?? '' })),
    check: ({ ctx, fail }, row) => {
      if (!ctx.tx.get('integrations', row.integration)) fail('integration', `no integration "${row.integration}"`)
      // A task's event has no installation. An uninstalled installation is gone while its events
      // stay: its `installation_deleted` event vouches for it.
      const id = row.installation
      if (id !== undefined) {
        const installation = ctx.tx.get('integrationInstallations', id)
        if (installation ? installation.integration !== row.integration : !uninstalledInstallations(ctx, row.integration).has(id))
          fail('installation', `no installation "${id}" of "${row.integration}" (nor its installation_deleted event)`)
      }
      if (row.payload.eventId !== row.id) fail('payload.eventId', `must be the event's id "${row.id}"`)
      const payloadInstallation = 'installationId' in row.payload ? row.payload.installationId : undefined
      if (payloadInstallation !== row.installation) fail('payload.installationId', `must be the event's installation "${row.installation}"`)
    },
  }),
  // A development mode: its id is `${integration}/${user}` when left out.
  seedRule({
    collection: 'integrationDevModes',
    row: (d) =>
      IntegrationDevModeRowSchema.partial({ id: true })
        .extend({ all: IntegrationDevModeRowSchema.shape.all.default(false), createdAt: SeedTimestampSchema.default(d.now) })
        .transform((r) => ({ ...r, id: r.id ?? `${r.integration}/${r.user}` })),
    check: ({ ctx, fail }, row) => {
      if (!ctx.tx.get('integrations', row.integration)) fail('integration', `no integration "${row.integration}"`)
      if (!ctx.tx.get('users', row.user)) fail('user', `no user "${row.user}"`)
      if (row.id !== `${row.integration}/${row.user}`) fail('id', `must be "${row.integration}/${row.user}" (one per developer)`)
    },
  }),
  seedRule({
    collection: 'integrationInstallationTokens',
    // An installation token: its integration is filled in from its installation when left out.
    row: (d) =>
      IntegrationInstallationTokenRowSchema.partial({ integration: true })
        .extend({ createdAt: SeedTimestampSchema.default(d.now) })
        .transform((t) => ({ ...t, integration: t.integration ?? d.tx.get('integrationInstallations', t.installation)?.integration ?? '' })),
    check: ({ ctx, fail }, row) => {
      const installation = ctx.tx.get('integrationInstallations', row.installation)
      if (!installation) return fail('installation', `no installation "${row.installation}"`)
      if (row.integration !== installation.integration) fail('integration', `must be the installation's integration "${installation.integration}"`)
    },
  }),
]
