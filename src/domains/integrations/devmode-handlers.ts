import type { z } from 'zod'
import { ApiError } from '../../core/errors.js'
import { checkOutgoingUrl } from '../../core/outgoing.js'
import { awaitedAnswer } from '../../core/stream.js'
import { implement, type ReadContext } from '../context.js'
import type { IntegrationExecutionContext, IntegrationHandler } from './delivery-options.js'
import { deliveryJob } from './delivery.js'
import { ContentKitRenderOutputSchema, devmodeOperations, MAX_TASK_BYTES, RenderIntegrationUISchema, type RenderIntegrationUI } from './devmode-operations.js'
import { targetFor } from './devmode-target.js'
import { dispatchRequest } from './dispatch.js'
import { encodeInstallation, encodeIntegration, encodeSiteInstallation, encodeSpaceInstallation } from './encode.js'
import { decompressFromEncodedURIComponent, TOO_LONG } from './lz-string.js'
import { getIntegration } from './model.js'
import type { IntegrationEventPayload, IntegrationInstallationRow } from './rows.js'

/** Development mode, UI rendering and tasks bound to their handlers. */
export const devmodeHandlers = implement(devmodeOperations, {
  setIntegrationDevelopmentMode: (ctx, { params, body }) => {
    const integration = getIntegration(ctx, params.integrationName)
    const { allowPrivateNetwork } = ctx.services.integrations
    const url = checkOutgoingUrl(body.tunnelUrl, { field: 'tunnelUrl', allowPrivateNetwork })
    if (url.username || url.password) throw new ApiError('BAD_REQUEST', 'Invalid request: body field `tunnelUrl`: must not carry credentials')
    const id = `${integration.id}/${ctx.actor.user}`
    const row = { id, integration: integration.id, user: ctx.actor.user, tunnelUrl: url.href, all: body.all, createdAt: ctx.nowIso() }
    if (ctx.tx.get('integrationDevModes', id)) ctx.tx.update('integrationDevModes', row)
    else ctx.tx.insert('integrationDevModes', row)
  },
  disableIntegrationDevelopmentMode: (ctx, { params }) => {
    const integration = getIntegration(ctx, params.integrationName)
    const id = `${integration.id}/${ctx.actor.user}`
    if (ctx.tx.get('integrationDevModes', id)) ctx.tx.delete('integrationDevModes', id)
  },
  renderIntegrationUIWithPost: (ctx, { params, body }) => render(ctx, params.integrationName, body),
  renderIntegrationUIWithGet: (ctx, { params, query }) => render(ctx, params.integrationName, decodeRenderRequest(query.request)),
  queueIntegrationTask: (ctx, { params, body }) => {
    const integration = getIntegration(ctx, params.integrationName)
    const size = new TextEncoder().encode(JSON.stringify(body.task)).byteLength
    if (size > MAX_TASK_BYTES)
      throw new ApiError('PAYLOAD_TOO_LARGE', `Invalid request: body field \`task\`: ${size} bytes of JSON; a task holds at most ${MAX_TASK_BYTES}`)
    const id = ctx.newId()
    const schedule = body.schedule ?? 0
    const dueAt = new Date(ctx.now().getTime() + schedule * 1000).toISOString()
    const payload: IntegrationEventPayload = { eventId: id, type: 'task', task: body.task }
    ctx.tx.insert('integrationEvents', {
      id,
      integration: integration.id,
      integrationUid: integration.uid,
      ...(ctx.actor.user && { actor: ctx.actor.user }),
      createdAt: ctx.nowIso(),
      payload,
      delivery: { state: 'pending', attempts: 0, ...(schedule > 0 && { nextAttemptAt: dueAt }) },
      logs: [{ message: schedule > 0 ? `Queued task, due at ${dueAt}` : 'Queued task', timestamp: ctx.nowIso(), level: 'debug' }],
    })
    ctx.defer(`integration-event:${id}`, deliveryJob(id, schedule > 0 ? { attempt: 1, nextAttemptAt: dueAt, waitMs: schedule * 1000 } : { attempt: 1 }))
  },
})

/** The largest render request the GET form's `request` decompresses to: the POST's body limit (1 MiB). */
export const MAX_RENDER_REQUEST_CHARS = 1024 * 1024

/** The GET form's `request`: the render body, JSON, LZ-string compressed for a URL. */
function decodeRenderRequest(encoded: string): RenderIntegrationUI {
  const invalid = (why: string) => new ApiError('BAD_REQUEST', `Invalid request: query parameter \`request\`: ${why}`)
  let json: unknown
  try {
    const text = decompressFromEncodedURIComponent(encoded, MAX_RENDER_REQUEST_CHARS)
    if (text === TOO_LONG)
      throw new ApiError(
        'PAYLOAD_TOO_LARGE',
        `Query parameter \`request\`: decompressed, it is over ${MAX_RENDER_REQUEST_CHARS} characters (the largest render request)`,
      )
    if (!text) throw invalid('not LZ-string compressed (compressToEncodedURIComponent) JSON')
    json = JSON.parse(text)
  } catch (error) {
    if (ApiError.isApiError(error)) throw error
    throw invalid('not LZ-string compressed (compressToEncodedURIComponent) JSON')
  }
  const parsed = RenderIntegrationUISchema.safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw invalid(`\`${issue.path.join('.')}\`: ${issue.message}`)
  }
  return parsed.data
}

/** Where a render happens: the installation and, for a space or a site, that space or site. */
interface RenderPlace {
  installation: IntegrationInstallationRow
  space?: string
  site?: string
}

/** The installation (and space or site) a render's context names; the caller must see them (404 otherwise). */
function placeOf(ctx: ReadContext, name: string, context: RenderIntegrationUI['context']): RenderPlace {
  let organization: string
  let space: string | undefined
  let site: string | undefined
  if (context.type === 'document' || context.type === 'configuration_space') {
    space = context.spaceId
    ctx.access.require('space', space, 'view')
    organization = ctx.tx.get('spaces', space)!.organization
  } else if (context.type === 'configuration_site') {
    site = context.siteId
    const row = ctx.tx.get('sites', site)
    if (!row) throw new ApiError('NOT_FOUND', 'Site not found')
    ctx.access.require('organization', row.organization, 'view')
    organization = row.organization
  } else {
    organization = context.organizationId
    ctx.access.require('organization', organization, 'view')
  }
  const installation = ctx.tx.scan('integrationInstallations', 'byIntegrationOrganization', `${name}/${organization}`)[0]?.row
  if (!installation) throw new ApiError('NOT_FOUND', `Integration "${name}" is not installed on organization ${organization}`)
  return { installation, ...(space !== undefined && { space }), ...(site !== undefined && { site }) }
}

/**
 * A `ui_render` event for the integration's runtime, as `@gitbook/runtime` handles it
 * (`createComponent` finds the component by `componentId` and answers its ContentKit output as
 * JSON), and the answer after the transaction: the runtime's JSON, or the official error.
 */
function render(ctx: ReadContext, name: string, body: RenderIntegrationUI) {
  const integration = getIntegration(ctx, name)
  const place = placeOf(ctx, name, body.context)
  const delivery = ctx.services.integrations
  const target = targetFor(ctx, delivery, name, ctx.actor.user || undefined)
  if (!target)
    throw new ApiError('BAD_GATEWAY', `Integration "${name}" cannot render: no runtime is configured (no development URL, no in-process handler, no runScript)`)
  const spaceInstallation = place.space ? ctx.tx.get('integrationSpaceInstallations', `${place.installation.id}/${place.space}`) : undefined
  const siteInstallation = place.site ? ctx.tx.get('integrationSiteInstallations', `${place.installation.id}/${place.site}`) : undefined
  const event = {
    eventId: ctx.newId(),
    type: 'ui_render',
    installationId: place.installation.id,
    ...(place.space !== undefined && { spaceId: place.space }),
    ...(place.site !== undefined && { siteId: place.site }),
    ...(ctx.actor.user && { auth: { userId: ctx.actor.user } }),
    componentId: body.componentId,
    props: body.props,
    ...(body.state !== undefined && { state: body.state }),
    context: body.context,
    ...(body.action !== undefined && { action: body.action }),
  }
  const environment = {
    apiEndpoint: ctx.urls.base,
    apiTokens: { integration: `gb_integration_placeholder_${integration.uid}`, installation: `gb_installation_placeholder_${place.installation.id}` },
    integration: encodeIntegration(ctx, integration),
    installation: encodeInstallation(ctx, place.installation),
    ...(spaceInstallation && { spaceInstallation: encodeSpaceInstallation(ctx, spaceInstallation, false) }),
    ...(siteInstallation && { siteInstallation: encodeSiteInstallation(ctx, siteInstallation, false) }),
    secrets: integration.secrets,
    signingSecrets: { integration: integration.signingSecret },
  }
  const dispatch = { url: new URL('/v1', ctx.urls.base).href, event, environment, signingSecret: integration.signingSecret }
  return awaitedAnswer(async () => renderOutput(name, target.handler, await dispatchRequest(dispatch), delivery.timeout))
}

/** Largest render answer read, bytes. */
const MAX_RENDER_BYTES = 1024 * 1024

/** Call the handler once with the render request; its ContentKit output, or the official error (502, 504, its own 400 or 404). */
async function renderOutput(
  name: string,
  handler: IntegrationHandler,
  request: Request,
  timeout: number,
): Promise<z.output<typeof ContentKitRenderOutputSchema>> {
  const execution: IntegrationExecutionContext = { waitUntil: (p) => void Promise.resolve(p).catch(() => undefined), passThroughOnException: () => {} }
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeout)))
  let response: unknown
  try {
    response = await Promise.race([Promise.resolve().then(() => handler(request, {}, execution)), late])
  } catch (error) {
    throw new ApiError('BAD_GATEWAY', `Integration "${name}" failed to render: ${error instanceof Error ? error.message : String(error)}`)
  } finally {
    clearTimeout(timer)
  }
  if (response === 'timeout') throw new ApiError('GATEWAY_TIMEOUT', `Integration "${name}" did not answer the render within ${timeout} ms`)
  if (!(response instanceof Response)) throw new ApiError('BAD_GATEWAY', `Integration "${name}" answered the render with something other than a Response`)
  const text = await response.text().catch(() => '')
  if (text.length > MAX_RENDER_BYTES) throw new ApiError('BAD_GATEWAY', `Integration "${name}" answered more than ${MAX_RENDER_BYTES} bytes`)
  if (!response.ok) {
    // The runtime's own refusals (`{"error": "Component x not found"}`, 404) keep their meaning.
    let reason = text.slice(0, 300)
    try {
      const error = (JSON.parse(text) as { error?: unknown }).error
      if (typeof error === 'string') reason = error
    } catch {
      // not JSON: the text as it is
    }
    const message = `Integration "${name}" answered ${response.status}${reason ? `: ${reason}` : ''}`
    throw new ApiError(response.status === 404 ? 'NOT_FOUND' : response.status === 400 ? 'BAD_REQUEST' : 'BAD_GATEWAY', message)
  }
  let output: unknown
  try {
    output = JSON.parse(text)
  } catch {
    throw new ApiError('BAD_GATEWAY', `Integration "${name}" answered the render with something other than JSON`)
  }
  const parsed = ContentKitRenderOutputSchema.safeParse(output)
  if (!parsed.success)
    throw new ApiError(
      'BAD_GATEWAY',
      `Integration "${name}" answered the render with something other than a ContentKit output ({ type: "element", element, state, props } or { type: "complete" })`,
    )
  return parsed.data
}
