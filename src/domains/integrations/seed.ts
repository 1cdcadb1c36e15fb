import { z } from 'zod'
import { SeedIdSchema, SeedTimestampSchema, seedRule } from '../../state/seed.js'
import { InstallationStatusSchema, IntegrationEventLogSchema, IntegrationEventPayloadSchema } from './installation-schemas.js'
import { INTEGRATION_NAME_PATTERN, PublishIntegrationSchema } from './schemas.js'

/**
 * Integrations, installations and events in a state document. An integration is its manifest
 * (the publish body's fields but `organization`) with its owner and version; installations name
 * an installed integration and organization (one per organization); space and site installations
 * name their installation (their space or site may be gone: the API keeps such rows and leaves
 * them out of lists and counts). Loaded events keep the delivery state they were saved with; one
 * still `pending` or in `progress` is delivered again once loaded (resume.ts).
 */
const manifest = PublishIntegrationSchema.omit({ organization: true }).shape

const contentInstallation = (d: { now: string }) => ({
  installation: SeedIdSchema,
  integration: SeedIdSchema.optional(),
  organization: SeedIdSchema.optional(),
  status: InstallationStatusSchema.default('active'),
  configuration: z.record(z.string(), z.unknown()).default({}),
  externalIds: z.array(z.string()).max(5).default([]),
  createdAt: SeedTimestampSchema.default(d.now),
  updatedAt: SeedTimestampSchema.default(d.now),
})

export const integrationSeedRules = [
  seedRule({
    collection: 'integrations',
    row: (d) =>
      z
        .strictObject({
          ...manifest,
          id: SeedIdSchema.regex(INTEGRATION_NAME_PATTERN, 'must be letters, digits, "-", "_" or "."'),
          uid: SeedIdSchema.default(d.newId),
          organization: SeedIdSchema,
          version: z.number().int().min(1).default(1),
          signingSecret: z.string().min(1).default(() => `gb_signing_${d.newId()}`),
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
    row: (d) =>
      z.strictObject({
        id: SeedIdSchema,
        integration: SeedIdSchema,
        organization: SeedIdSchema,
        status: InstallationStatusSchema.default('active'),
        configuration: z.record(z.string(), z.unknown()).default({}),
        externalIds: z.array(z.string()).max(5).default([]),
        createdAt: SeedTimestampSchema.default(d.now),
        updatedAt: SeedTimestampSchema.default(d.now),
      }),
    check: ({ ctx, fail }, row) => {
      if (!ctx.tx.get('integrations', row.integration)) fail('integration', `no integration "${row.integration}"`)
      if (!ctx.tx.get('organizations', row.organization)) fail('organization', `no organization "${row.organization}"`)
      if (ctx.tx.count('integrationInstallations', 'byIntegrationOrganization', `${row.integration}/${row.organization}`) > 1) {
        fail('organization', `installs "${row.integration}" twice (one installation per organization)`)
      }
    },
  }),
  ...(['integrationSpaceInstallations', 'integrationSiteInstallations'] as const).map((collection) => {
    const key = collection === 'integrationSpaceInstallations' ? 'space' : 'site'
    return seedRule({
      collection,
      row: (d) =>
        z
          .strictObject({ ...contentInstallation(d), [key]: SeedIdSchema, id: SeedIdSchema.optional() })
          .transform((r) => {
            const installation = d.tx.get('integrationInstallations', r.installation)
            const target = (r as Record<string, unknown>)[key] as string
            return { ...r, id: r.id ?? `${r.installation}/${target}`, integration: r.integration ?? installation?.integration ?? '', organization: r.organization ?? installation?.organization ?? '' }
          }) as never,
      check: ({ ctx, fail }, row: { id: string; installation: string; integration: string; organization: string } & Record<string, unknown>) => {
        const installation = ctx.tx.get('integrationInstallations', row.installation)
        if (!installation) return fail('installation', `no installation "${row.installation}"`)
        if (row.integration !== installation.integration) fail('integration', `must be the installation's integration "${installation.integration}"`)
        if (row.organization !== installation.organization) fail('organization', `must be the installation's organization "${installation.organization}"`)
        if (row.id !== `${row.installation}/${row[key] as string}`) fail('id', `must be "${row.installation}/${row[key] as string}" (one per ${key})`)
      },
    })
  }),
  seedRule({
    collection: 'integrationEvents',
    row: (d) =>
      z
        .strictObject({
          id: SeedIdSchema,
          integration: SeedIdSchema,
          integrationUid: SeedIdSchema.optional(),
          installation: SeedIdSchema,
          createdAt: SeedTimestampSchema.default(d.now),
          payload: IntegrationEventPayloadSchema,
          delivery: z
            .strictObject({
              state: z.enum(['pending', 'progress', 'done', 'failed', 'skipped']),
              attempts: z.number().int().min(0),
              nextAttemptAt: SeedTimestampSchema.optional(),
              reason: z.string().optional(),
            })
            .default({ state: 'skipped', attempts: 0 }),
          logs: z.array(IntegrationEventLogSchema).default([]),
        })
        .transform((e) => ({ ...e, integrationUid: e.integrationUid ?? d.tx.get('integrations', e.integration)?.uid ?? '' })),
    check: ({ ctx, fail }, row) => {
      if (!ctx.tx.get('integrations', row.integration)) fail('integration', `no integration "${row.integration}"`)
      if (ctx.tx.get('integrationInstallations', row.installation)?.integration !== row.integration) fail('installation', `no installation "${row.installation}" of "${row.integration}"`)
      if (row.payload.eventId !== row.id) fail('payload.eventId', `must be the event's id "${row.id}"`)
      if (row.payload.installationId !== row.installation) fail('payload.installationId', `must be the event's installation "${row.installation}"`)
    },
  }),
]
