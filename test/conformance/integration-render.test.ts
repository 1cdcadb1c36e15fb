import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { GitBookAPI, GitBookAPIError } from '@gitbook/api'
import { createComponent, createIntegration } from '@gitbook/runtime'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { DocsApiOptions, IntegrationHandler } from '../../src/index.js'
import { compressToEncodedURIComponent } from '../../src/domains/integrations/lz-string.js'
import { integrationWorld } from '../domains/integrations/helpers.js'
import { expectOfficialResponse } from './official.js'

/**
 * Development mode, UI rendering and tasks through the official client (`@gitbook/api`), with
 * integrations written with GitBook's own runtime (`@gitbook/runtime`: createIntegration,
 * createComponent), as real ones are.
 */

// The Workers global the runtime reads (the dispatcher's requests go to `/v1`, as in production).
beforeAll(() => void ((globalThis as { MODE?: string }).MODE = 'production'))

/** What an integration built with the runtime saw: tasks, events. */
function blocksApp(label: string) {
  const seen: { tasks: unknown[]; events: string[] } = { tasks: [], events: [] }
  const app = createIntegration({
    components: [
      createComponent<{ name?: string }, { count: number }, { action: 'increment' }>({
        componentId: 'greeting',
        initialState: { count: 0 },
        action: async (element, action) => (action.action === 'increment' ? { state: { count: element.state.count + 1 } } : undefined),
        render: async (element, context) =>
          ({
            type: 'block',
            children: [
              {
                type: 'text',
                children: [`${label}: hello ${element.props.name ?? 'you'} (${element.state.count}) from ${context.environment.installation?.id}`],
              },
            ],
          }) as never,
      }),
      createComponent({
        componentId: 'broken',
        render: async () => {
          throw new Error('the block cannot be drawn')
        },
      }),
    ],
    task: async (task) => void seen.tasks.push(task),
    events: {
      installation_setup: async () => void seen.events.push('installation_setup'),
      space_installation_setup: async () => void seen.events.push('space_installation_setup'),
    },
  })
  return { fetch: app.fetch as IntegrationHandler, seen }
}

async function world(options: DocsApiOptions & { app?: ReturnType<typeof blocksApp> } = {}) {
  const app = options.app ?? blocksApp('in-process')
  const w = await integrationWorld({
    integrations: {
      'blocks-app': app.fetch,
      thrower: async () => {
        throw new Error('no luck')
      },
      silent: () => new Promise<Response>(() => {}),
    },
    integrationDelivery: { retryDelays: [0], timeout: 100 },
    ...options,
  })
  const gb = new GitBookAPI({ endpoint: 'http://localhost:4000', authToken: w.tokens.ada, serviceBinding: { fetch: w.api.fetch } })
  const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Handbook' })
  for (const name of ['blocks-app', 'thrower', 'silent']) await w.publish(name, { blocks: [{ id: 'greeting', title: 'Greeting' }], visibility: 'public' })
  const installation = await w.install('blocks-app')
  return { ...w, gb, space, installation, app }
}

/** The error the official client throws for a failed call. */
async function failure(promise: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await promise
  } catch (error) {
    if (error instanceof GitBookAPIError) return { status: error.code, message: error.errorMessage }
    throw error
  }
  throw new Error('expected the call to fail')
}

const render = (spaceId: string, extra: Record<string, unknown> = {}) => ({
  componentId: 'greeting',
  props: { name: 'Ada' },
  context: { type: 'document' as const, spaceId, editable: false, theme: 'light' as const },
  ...extra,
})

const servers: Server[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))))
})

/** A development server on 127.0.0.1 (what `gitbook dev` runs behind its tunnel): the requests it got, answered by `handler`. */
async function devServer(handler: IntegrationHandler) {
  const received: Array<{ url: string; signature: string | null; type: string }> = []
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const headers = new Headers()
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v)
    // A `gitbook dev` build (MODE "development") takes the dispatcher's request on any path; this runtime checks `/v1`.
    const request = new Request('http://127.0.0.1/v1', { method: req.method, headers, body: Buffer.concat(chunks) })
    const event = JSON.parse(String((await request.clone().formData()).get('event'))) as { type: string }
    received.push({ url: req.url ?? '', signature: headers.get('x-gitbook-integration-signature'), type: event.type })
    const answer = await handler(request, {}, { waitUntil: () => {}, passThroughOnException: () => {} })
    res.writeHead(answer.status, Object.fromEntries(answer.headers))
    res.end(Buffer.from(await answer.arrayBuffer()))
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, received }
}

describe('conformance: integration UI rendering, development mode and tasks through @gitbook/api', () => {
  it('renders a block of an integration written with @gitbook/runtime: POST and GET (LZ-string), with state and actions', async () => {
    const w = await world()
    const res = await w.gb.integrations.renderIntegrationUiWithPost('blocks-app', render(w.space.id, { props: {} }))
    expect(res.status).toBe(200)
    expectOfficialResponse('renderIntegrationUIWithPost', 200, res.data)
    expect(res.data).toEqual({
      type: 'element',
      state: { count: 0 },
      props: {},
      element: { type: 'block', children: [{ type: 'text', children: [`in-process: hello you (0) from ${w.installation.id}`] }] },
    })
    // An action the component handles: its new state, rendered.
    const acted = await w.gb.integrations.renderIntegrationUiWithPost(
      'blocks-app',
      render(w.space.id, { state: { count: 4 }, action: { action: 'increment' } }),
    )
    expect(acted.data).toMatchObject({ state: { count: 5 }, element: { children: [{ children: [expect.stringContaining('(5)')] }] } })
    // The GET form: the same body, JSON compressed with LZ-string for the URL.
    const got = await w.gb.integrations.renderIntegrationUiWithGet('blocks-app', {
      request: compressToEncodedURIComponent(JSON.stringify(render(w.space.id, { props: {} }))),
    })
    expectOfficialResponse('renderIntegrationUIWithGet', 200, got.data)
    expect(got.data).toEqual(res.data)
    // Renders record no event.
    expect((await w.gb.integrations.listIntegrationEvents('blocks-app')).data.items.map((e) => e.payload.type)).toEqual(['installation_setup'])
  })

  it("GitBook's renderer renders a block with the site token of a published URL; a site of another organization cannot", async () => {
    const w = await world()
    const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs', spaces: [w.space.id], published: true })
    const anonymous = new GitBookAPI({ endpoint: 'http://localhost:4000', serviceBinding: { fetch: w.api.fetch } })
    const resolved = await anonymous.urls.resolvePublishedContentByUrl({ url: site.urls.published! })
    const asRenderer = new GitBookAPI({
      endpoint: 'http://localhost:4000',
      authToken: (resolved.data as { apiToken: string }).apiToken,
      serviceBinding: { fetch: w.api.fetch },
    })
    // What IntegrationBlock.tsx of GitBook Open sends: the block's component and props, a document context.
    const res = await asRenderer.integrations.renderIntegrationUiWithPost('blocks-app', render(w.space.id, { props: {} }))
    expect(res.status).toBe(200)
    expectOfficialResponse('renderIntegrationUIWithPost', 200, res.data)
    expect(res.data).toMatchObject({ element: { type: 'block' } })
    // The token reads nothing else of the integration's, and renders only in the spaces its site publishes.
    expect((await failure(asRenderer.integrations.listIntegrationEvents('blocks-app'))).status).toBe(403)
    const unpublished = await w.api.fixtures.createSpace(w.org.id, { title: 'Private' })
    expect((await failure(asRenderer.integrations.renderIntegrationUiWithPost('blocks-app', render(unpublished.id)))).status).toBe(404)
    // A site token of another organization, where the integration is not installed, does not see it.
    const other = await w.api.fixtures.createOrganization({ title: 'Other', members: [{ user: w.users.ada.id, role: 'admin' }] })
    const otherSpace = await w.api.fixtures.createSpace(other.id, { title: 'Theirs' })
    const otherSite = await w.api.fixtures.createSite(other.id, { title: 'Theirs', spaces: [otherSpace.id], published: true })
    const theirs = await anonymous.urls.resolvePublishedContentByUrl({ url: otherSite.urls.published! })
    const asOther = new GitBookAPI({
      endpoint: 'http://localhost:4000',
      authToken: (theirs.data as { apiToken: string }).apiToken,
      serviceBinding: { fetch: w.api.fetch },
    })
    expect((await failure(asOther.integrations.renderIntegrationUiWithPost('blocks-app', render(otherSpace.id)))).status).toBe(404)
  })

  it('bad renders: unknown component, integration, space or installation: 404; a bad body or request: 400 naming the field', async () => {
    const w = await world()
    expect(await failure(w.gb.integrations.renderIntegrationUiWithPost('blocks-app', render(w.space.id, { componentId: 'nope' })))).toEqual({
      status: 404,
      message: 'Integration "blocks-app" answered 404: Component nope not found',
    })
    expect((await failure(w.gb.integrations.renderIntegrationUiWithPost('no-such-app', render(w.space.id)))).status).toBe(404)
    expect((await failure(w.gb.integrations.renderIntegrationUiWithPost('blocks-app', render('no-such-space')))).status).toBe(404)
    // Installed nowhere: nothing to render for.
    expect(await failure(w.gb.integrations.renderIntegrationUiWithPost('thrower', render(w.space.id)))).toEqual({
      status: 404,
      message: `Integration "thrower" is not installed on organization ${w.org.id}`,
    })
    const noComponent = await failure(w.gb.integrations.renderIntegrationUiWithPost('blocks-app', { props: {}, context: render(w.space.id).context } as never))
    expect(noComponent.status).toBe(400)
    expect(noComponent.message).toContain('componentId')
    // The block's props and action as a document holds them: a javascript: URL in an action is refused.
    const badAction = await failure(
      w.gb.integrations.renderIntegrationUiWithPost('blocks-app', render(w.space.id, { action: { action: '@ui.url.open', url: 'javascript:alert(1)' } })),
    )
    expect(badAction).toMatchObject({ status: 400, message: expect.stringContaining('action.url') })
    const badGet = await failure(w.gb.integrations.renderIntegrationUiWithGet('blocks-app', { request: '{"componentId":"greeting"}' }))
    expect(badGet).toMatchObject({ status: 400, message: expect.stringContaining('`request`') })
    // A request that would decompress past 1 MiB (LZW grows with the square of its input): 413, decoded no further.
    const bomb = compressToEncodedURIComponent('a'.repeat(2 * 1024 * 1024))
    expect(await failure(w.gb.integrations.renderIntegrationUiWithGet('blocks-app', { request: bomb }))).toMatchObject({
      status: 413,
      message: expect.stringContaining('`request`: decompressed, it is over 1048576 characters'),
    })
  })

  it('a handler that throws or fails answers 502 naming the integration, one that never answers 504 after the delivery timeout', async () => {
    const w = await world()
    await w.install('thrower')
    await w.install('silent')
    const broken = await failure(w.gb.integrations.renderIntegrationUiWithPost('blocks-app', render(w.space.id, { componentId: 'broken' })))
    expect(broken).toEqual({ status: 502, message: 'Integration "blocks-app" answered 500: Internal server error' })
    expect(await failure(w.gb.integrations.renderIntegrationUiWithPost('thrower', render(w.space.id)))).toEqual({
      status: 502,
      message: 'Integration "thrower" failed to render: no luck',
    })
    expect(await failure(w.gb.integrations.renderIntegrationUiWithPost('silent', render(w.space.id)))).toEqual({
      status: 504,
      message: 'Integration "silent" did not answer the render within 100 ms',
    })
  })

  it('development mode: events and renders the developer causes go to the development URL (private only with allowPrivateNetwork); disabled, to the handler again', async () => {
    const dev = blocksApp('dev')
    const server = await devServer(dev.fetch)
    const w = await world({ allowPrivateNetwork: true })
    const set = await w.gb.integrations.setIntegrationDevelopmentMode('blocks-app', { tunnelUrl: server.url })
    expect(set.status).toBe(204)
    expectOfficialResponse('setIntegrationDevelopmentMode', 204, set.data ?? undefined)

    // An event Ada causes goes to the development server, signed as the dispatcher signs it.
    await w.gb.integrations.installIntegrationOnSpace('blocks-app', w.installation.id, { space: w.space.id })
    await w.api.idle()
    expect(server.received).toEqual([{ url: '/', signature: expect.stringMatching(/^[0-9a-f]{64}$/), type: 'space_installation_setup' }])
    expect(dev.seen.events).toEqual(['space_installation_setup'])
    // (The installation's own event went to the in-process handler: it came before the development mode.)
    expect(w.app.seen.events).toEqual(['installation_setup'])
    const events = (await w.gb.integrations.listIntegrationEvents('blocks-app')).data.items
    const trace = (await w.gb.integrations.getIntegrationEvent('blocks-app', events.at(-1)!.id)).data.trace!.logs.map((l) => l.message)
    expect(trace).toContain(
      `Attempt 1 of 2: delivering space_installation_setup to the development URL ${server.url} (development mode of user ${w.users.ada.id})`,
    )

    // A render Ada asks for too.
    expect((await w.gb.integrations.renderIntegrationUiWithPost('blocks-app', render(w.space.id))).data).toMatchObject({
      element: { children: [{ children: [expect.stringMatching(/^dev: hello Ada/)] }] },
    })
    expect(server.received.at(-1)!.type).toBe('ui_render')
    // What another member causes stays in process, unless the development mode takes `all`.
    const rita = new GitBookAPI({ endpoint: 'http://localhost:4000', authToken: w.tokens.rita, serviceBinding: { fetch: w.api.fetch } })
    const ritaRender = async () =>
      ((await rita.integrations.renderIntegrationUiWithPost('blocks-app', render(w.space.id))).data as any).element.children[0].children[0]
    expect(await ritaRender()).toMatch(/^in-process: /)
    await w.gb.integrations.setIntegrationDevelopmentMode('blocks-app', { tunnelUrl: server.url, all: true })
    expect(await ritaRender()).toMatch(/^dev: /)

    // Disabled (205): the in-process handler again.
    const disabled = await w.gb.integrations.disableIntegrationDevelopmentMode('blocks-app')
    expect(disabled.status).toBe(205)
    expect((await w.gb.integrations.renderIntegrationUiWithPost('blocks-app', render(w.space.id))).data).toMatchObject({
      element: { children: [{ children: [expect.stringMatching(/^in-process: hello Ada/)] }] },
    })
    expect(await ritaRender()).toMatch(/^in-process: /)
    expect(server.received.map((r) => r.type)).toEqual(['space_installation_setup', 'ui_render', 'ui_render'])
  })

  it('development mode: the URL must be http(s), and a private address needs allowPrivateNetwork (400 naming tunnelUrl); the owner admins only', async () => {
    const w = await world()
    const notHttp = await failure(w.gb.integrations.setIntegrationDevelopmentMode('blocks-app', { tunnelUrl: 'ftp://dev.example.com/' }))
    expect(notHttp.status).toBe(400)
    expect(notHttp.message).toContain('`tunnelUrl`')
    const local = await failure(w.gb.integrations.setIntegrationDevelopmentMode('blocks-app', { tunnelUrl: 'http://127.0.0.1:8787/' }))
    expect(local).toEqual({ status: 400, message: expect.stringContaining('`tunnelUrl`') })
    expect(local.message).toContain('loopback')
    // What `gitbook dev` sends: a public tunnel.
    expect(
      (await w.gb.integrations.setIntegrationDevelopmentMode('blocks-app', { tunnelUrl: 'https://quiet-river.trycloudflare.com', all: true })).status,
    ).toBe(204)
    expect((await failure(w.gb.integrations.setIntegrationDevelopmentMode('no-such-app', { tunnelUrl: 'https://x.trycloudflare.com' }))).status).toBe(404)
    const rita = new GitBookAPI({ endpoint: 'http://localhost:4000', authToken: w.tokens.rita, serviceBinding: { fetch: w.api.fetch } })
    expect((await failure(rita.integrations.setIntegrationDevelopmentMode('blocks-app', { tunnelUrl: 'https://x.trycloudflare.com' }))).status).toBe(403)
  })

  it('a queued task is delivered as a `task` event to the runtime-built handler and listed with the events; over the size limit, 413', async () => {
    const w = await world()
    const queued = await w.gb.integrations.queueIntegrationTask('blocks-app', { task: { type: 'sync', page: 2 } })
    expect(queued.status).toBe(204)
    await w.api.idle()
    expect(w.app.seen.tasks).toEqual([{ type: 'sync', page: 2 }])
    const list = await w.gb.integrations.listIntegrationEvents('blocks-app')
    expectOfficialResponse('listIntegrationEvents', 200, list.data)
    const task = list.data.items.at(-1)!
    expect(task).toMatchObject({ payload: { type: 'task', task: { type: 'sync', page: 2 } }, status: 'success' })
    expect(task.installationId).toBeUndefined()
    const big = await failure(w.gb.integrations.queueIntegrationTask('blocks-app', { task: { blob: 'x'.repeat(70_000) } }))
    expect(big.status).toBe(413)
    expect(big.message).toContain('`task`')
    expect((await failure(w.gb.integrations.queueIntegrationTask('no-such-app', { task: {} }))).status).toBe(404)
  })

  it('without a handler, runScript gets the published script and the request; with neither, no runtime is configured (events skipped, renders 502)', async () => {
    const ran: Array<{ integration: string; version: number; script: string; type: string }> = []
    const script = blocksApp('script')
    const w = await world({
      runScript: async (published, request, ctx) => {
        const event = JSON.parse(String((await request.clone().formData()).get('event'))) as { type: string }
        ran.push({ ...published, type: event.type })
        return script.fetch(request, {}, ctx)
      },
    })
    await w.publish('scripted', { script: 'export default { fetch() {} }', visibility: 'public' })
    await w.install('scripted')
    await w.api.idle()
    expect(ran).toEqual([{ integration: 'scripted', version: 1, script: 'export default { fetch() {} }', type: 'installation_setup' }])
    // blocks-app keeps its in-process handler.
    expect(w.app.seen.events).toEqual(['installation_setup'])

    const bare = await world()
    await bare.publish('bare', { visibility: 'public' })
    await bare.install('bare')
    await bare.api.idle()
    const [event] = (await bare.gb.integrations.listIntegrationEvents('bare')).data.items
    const trace = (await bare.gb.integrations.getIntegrationEvent('bare', event!.id)).data.trace!.logs.map((l) => l.message)
    expect(trace.at(-1)).toContain('no runtime is configured')
    expect(await failure(bare.gb.integrations.renderIntegrationUiWithPost('bare', render(bare.space.id)))).toEqual({
      status: 502,
      message: 'Integration "bare" cannot render: no runtime is configured (no development URL, no in-process handler, no runScript)',
    })
  })
})
