import { z } from 'zod'
import { defineOperation } from '../../core/operation.js'
import { pathParams } from '../common/schemas.js'
import { ContentKitActionSchema, PlainObjectSchema } from '../content/document-schema/common.js'

const tag = 'integrations'
const base = '/v1/integrations/{integrationName}'
const nameParams = pathParams('integrationName')
/** Anyone who sees the integration (POLICY.integration.view); the owner's admins (POLICY.integration.admin). */
const view = { resource: 'integration', action: 'view', param: 'integrationName' } as const
const admin = { resource: 'integration', action: 'admin', param: 'integrationName' } as const

/** Largest task payload (its JSON), bytes: a larger one is a 413. */
export const MAX_TASK_BYTES = 64 * 1024

const object = z.record(z.string(), z.unknown())

export const DevelopmentModeSchema = z.object({
  tunnelUrl: z
    .string()
    .min(1, 'must not be empty')
    .max(256, 'must be at most 256 characters')
    .meta({ description: 'Where events and UI renders go: an http(s) URL, a public address unless `allowPrivateNetwork`.' }),
  all: z.boolean().default(false).meta({ description: 'true: every event and render of the integration, not only the ones the caller causes.' }),
})

const ContentKitContextSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('configuration_account'), organizationId: z.string().min(1), theme: z.enum(['dark', 'light']).optional() }),
  z.looseObject({ type: z.literal('configuration_space'), spaceId: z.string().min(1), theme: z.enum(['dark', 'light']).optional() }),
  z.looseObject({ type: z.literal('configuration_site'), siteId: z.string().min(1), theme: z.enum(['dark', 'light']).optional() }),
  z.looseObject({
    type: z.literal('configuration_contentsource'),
    organizationId: z.string().min(1),
    spaceId: z.string().optional(),
    theme: z.enum(['dark', 'light']).optional(),
  }),
  z.looseObject({ type: z.literal('document'), spaceId: z.string().min(1), editable: z.boolean().optional(), theme: z.enum(['dark', 'light']).optional() }),
])

export const RenderIntegrationUISchema = z
  .object({
    componentId: z.string().min(1, 'must not be empty'),
    // The official PlainObject and ContentKitAction, as an integration block holds them in a document.
    props: PlainObjectSchema,
    state: object.optional(),
    context: ContentKitContextSchema,
    action: ContentKitActionSchema.optional(),
  })
  .meta({ id: 'RenderIntegrationUI' })
export type RenderIntegrationUI = z.output<typeof RenderIntegrationUISchema>

export const ContentKitRenderOutputSchema = z
  .union([
    z.looseObject({
      type: z.literal('element').optional(),
      element: object,
      state: object,
      props: object,
      canAccessVisitorClaims: z.boolean().optional(),
    }),
    z.looseObject({ type: z.literal('complete'), returnValue: object.optional() }),
  ])
  .meta({ id: 'ContentKitRenderOutput' })

export const RenderWithGetQuerySchema = z.object({
  request: z
    .string()
    .min(1, 'must not be empty')
    .meta({ description: 'The RenderIntegrationUI body as JSON, LZ-string compressed (`compressToEncodedURIComponent`).' }),
})

export const QueueTaskSchema = z.object({
  task: object.meta({ description: `The task's payload, delivered in a \`task\` event (its JSON at most ${MAX_TASK_BYTES} bytes: a 413 past it).` }),
  schedule: z.number().min(0).max(86400).optional().meta({ description: 'Seconds before the task is delivered (0 to 86400).' }),
})

/** Development mode, UI rendering and tasks (official operationIds). */
export const devmodeOperations = {
  setIntegrationDevelopmentMode: defineOperation({
    id: 'setIntegrationDevelopmentMode',
    method: 'PUT',
    path: `${base}/dev`,
    tag,
    summary:
      "Development mode (the owner's admins): the events and UI renders the caller causes (all of them with `all`) go to `tunnelUrl` (http(s); a private address only with `allowPrivateNetwork`), as `gitbook dev` sets it",
    params: nameParams,
    body: DevelopmentModeSchema,
    bodyRequired: true,
    status: 204,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: admin,
  }),
  disableIntegrationDevelopmentMode: defineOperation({
    id: 'disableIntegrationDevelopmentMode',
    method: 'DELETE',
    path: `${base}/dev`,
    tag,
    summary: "End the caller's development mode: events and renders go to the in-process handler (or the published script) again; 205, also when none was set",
    params: nameParams,
    status: 205,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: admin,
  }),
  renderIntegrationUIWithPost: defineOperation({
    id: 'renderIntegrationUIWithPost',
    method: 'POST',
    path: `${base}/render`,
    tag,
    summary:
      'Render a component of an installed integration: its handler (development URL, in-process handler or published script) gets a `ui_render` event; answers its ContentKit output (502 when it fails, 504 when it does not answer in time)',
    params: nameParams,
    body: RenderIntegrationUISchema,
    bodyRequired: true,
    readOnly: true,
    response: ContentKitRenderOutputSchema,
    status: 200,
    errors: ['NOT_FOUND', 'BAD_GATEWAY', 'GATEWAY_TIMEOUT'],
    permission: view,
  }),
  renderIntegrationUIWithGet: defineOperation({
    id: 'renderIntegrationUIWithGet',
    method: 'GET',
    path: `${base}/render`,
    tag,
    summary: 'renderIntegrationUIWithPost with its body in the query: `request`, the JSON LZ-string compressed (`compressToEncodedURIComponent`)',
    params: nameParams,
    query: RenderWithGetQuerySchema,
    response: ContentKitRenderOutputSchema,
    status: 200,
    errors: ['NOT_FOUND', 'PAYLOAD_TOO_LARGE', 'BAD_GATEWAY', 'GATEWAY_TIMEOUT'],
    permission: view,
  }),
  queueIntegrationTask: defineOperation({
    id: 'queueIntegrationTask',
    method: 'POST',
    path: `${base}/tasks`,
    tag,
    summary: `Queue a task (the owner's admins): delivered as a \`task\` event after \`schedule\` seconds, listed with the events; a task over ${MAX_TASK_BYTES} bytes is a 413`,
    params: nameParams,
    body: QueueTaskSchema,
    bodyRequired: true,
    status: 204,
    errors: ['NOT_FOUND', 'FORBIDDEN', 'PAYLOAD_TOO_LARGE'],
    permission: admin,
  }),
}
