import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { toNodeHandler } from '../../src/node.js'
import { createFetchHandler } from '../../src/http/fetch-handler.js'
import { createSeededApi, listen, rawRequest, type Listening } from './helpers.js'

let server: Listening | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

async function serve(listener: RequestListener) {
  server = await listen(listener)
  return server.url
}

/** A middleware chain as Connect runs it: each layer may call next(error?). */
function chain(...layers: Array<(req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void>) {
  const errors: unknown[] = []
  const listener: RequestListener = (req, res) => {
    let i = 0
    const next = (error?: unknown) => {
      if (error !== undefined) {
        errors.push(error)
        // As Express's final handler: a response already under way can only be cut off.
        if (res.headersSent) return void res.destroy()
        res.statusCode = 599
        res.end('host error handler')
        return
      }
      const layer = layers[i++]
      if (layer) layer(req, res, next)
      else {
        res.statusCode = 404
        res.end('host 404')
      }
    }
    next()
  }
  return { listener, errors }
}

/** What express.json() does: read the whole stream and leave the parsed value on req.body. */
const jsonParser = (req: IncomingMessage & { body?: unknown }, _res: ServerResponse, next: (error?: unknown) => void) => {
  const chunks: Buffer[] = []
  req.on('data', (c: Buffer) => chunks.push(c))
  req.on('end', () => {
    const text = Buffer.concat(chunks).toString('utf8')
    req.body = text ? JSON.parse(text) : {}
    next()
  })
}

describe('toNodeHandler on node:http', () => {
  it('answers a GET with the API status, headers and a Content-Length', async () => {
    const { api, auth } = await createSeededApi()
    const url = await serve(toNodeHandler(api))
    const res = await rawRequest(`${url}/v1/user`, { headers: auth })
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(res.body)))
    expect(JSON.parse(res.body).displayName).toBe('Ada Lovelace')
  })

  it('streams the request body to the API (with a Content-Length, and chunked)', async () => {
    const { api, auth, org } = await createSeededApi()
    const url = await serve(toNodeHandler(api))
    const headers = { ...auth, 'content-type': 'application/json' }
    const sized = await rawRequest(`${url}/v1/orgs/${org.id}/spaces`, { method: 'POST', headers, body: JSON.stringify({ title: 'Handbook' }) })
    expect(sized.status).toBe(201)
    expect(JSON.parse(sized.body).title).toBe('Handbook')
    expect(sized.headers.location).toBe(JSON.parse(sized.body).urls.location)
    const chunked = await rawRequest(`${url}/v1/orgs/${org.id}/spaces`, { method: 'POST', headers, body: JSON.stringify({ title: 'Chunked' }), chunked: true })
    expect(chunked.status).toBe(201)
    expect(JSON.parse(chunked.body).title).toBe('Chunked')
  })

  it('answers HEAD as GET without the body, with the GET length', async () => {
    const { api, auth } = await createSeededApi()
    const url = await serve(toNodeHandler(api))
    const get = await rawRequest(`${url}/v1/user`, { headers: auth })
    const head = await rawRequest(`${url}/v1/user`, { method: 'HEAD', headers: auth })
    expect(head.status).toBe(200)
    expect(head.body).toBe('')
    expect(head.headers['content-length']).toBe(get.headers['content-length'])
    expect(head.headers['content-type']).toBe(get.headers['content-type'])
  })

  it('passes the API errors through as they are (404 JSON, 405 with Allow)', async () => {
    const { api, auth } = await createSeededApi()
    const url = await serve(toNodeHandler(api))
    const missing = await rawRequest(`${url}/v1/nope`, { headers: auth })
    expect(missing.status).toBe(404)
    expect(JSON.parse(missing.body)).toEqual({ error: { code: 404, message: 'No route for GET /v1/nope' } })
    const wrong = await rawRequest(`${url}/v1/user`, { method: 'DELETE', headers: auth })
    expect(wrong.status).toBe(405)
    expect(wrong.headers.allow).toBe('GET, HEAD, OPTIONS')
  })

  it("gives the API the request's full URL and its headers", async () => {
    const { api, auth } = await createSeededApi()
    const seen: Request[] = []
    const real = api.fetch
    api.fetch = (input, init) => {
      seen.push(input as Request)
      return real(input, init)
    }
    const url = await serve(toNodeHandler(api))
    await rawRequest(`${url}/v1/user?x=1&x=2`, { headers: { ...auth, 'x-trace': 'abc' } })
    expect(seen[0]!.url).toBe(`${url}/v1/user?x=1&x=2`)
    expect(seen[0]!.headers.get('x-trace')).toBe('abc')
    expect(seen[0]!.signal.aborted).toBe(false)
  })

  describe('prefix', () => {
    it('at the root, the API basePath applies', async () => {
      const { api, auth } = await createSeededApi({ basePath: '/api' })
      const url = await serve(toNodeHandler(api))
      expect((await rawRequest(`${url}/api/v1/user`, { headers: auth })).status).toBe(200)
      expect((await rawRequest(`${url}/v1/user`, { headers: auth })).status).toBe(404)
    })

    // Connect strips the mount path from req.url and keeps the full one in req.originalUrl.
    const connectMount = (path: string, handler: ReturnType<typeof toNodeHandler>) =>
      chain((req, res, next) => {
        const original = req.url!
        if (original !== path && !original.startsWith(`${path}/`) && !original.startsWith(`${path}?`)) return next()
        Object.assign(req, { originalUrl: original, url: original.slice(path.length) || '/' })
        if (!req.url!.startsWith('/')) req.url = `/${req.url}`
        handler(req, res, next)
      })

    it.each([
      ['without basePath', {}],
      ['with the same basePath', { basePath: '/api' }],
    ])('under a Connect-style mount at /api, %s, routes /api/v1/...', async (_name, options) => {
      const { api, auth } = await createSeededApi(options)
      const seen: string[] = []
      const { listener } = connectMount('/api', toNodeHandler(api, { onError: (e) => seen.push(String(e)) }))
      const url = await serve(listener)
      const res = await rawRequest(`${url}/api/v1/user`, { headers: auth })
      expect(res.status).toBe(200)
      expect(JSON.parse(res.body).displayName).toBe('Ada Lovelace')
      const missing = await rawRequest(`${url}/api/v1/nope`, { headers: auth })
      expect(JSON.parse(missing.body).error.message).toBe('No route for GET /v1/nope')
      expect((await rawRequest(`${url}/v1/user`, { headers: auth })).body).toBe('host 404')
      expect(seen).toEqual([])
    })

    it('options.basePath replaces both the mount path and the API basePath', async () => {
      const { api, auth } = await createSeededApi({ basePath: '/elsewhere' })
      const url = await serve(toNodeHandler(api, { basePath: '/docs/api' }))
      expect((await rawRequest(`${url}/docs/api/v1/user`, { headers: auth })).status).toBe(200)
      expect((await rawRequest(`${url}/elsewhere/v1/user`, { headers: auth })).status).toBe(404)
    })
  })

  describe('a body parsed by a middleware', () => {
    it('an object becomes the JSON body (the stream is gone)', async () => {
      const { api, auth, org } = await createSeededApi()
      const { listener } = chain(jsonParser, toNodeHandler(api))
      const url = await serve(listener)
      const res = await rawRequest(`${url}/v1/orgs/${org.id}/spaces`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'Parsed' }),
      })
      expect(res.status).toBe(201)
      expect(JSON.parse(res.body).title).toBe('Parsed')
    })

    it('a string or bytes go as they are', async () => {
      const { api, auth, org } = await createSeededApi()
      for (const parse of [(t: string) => t, (t: string) => Buffer.from(t)]) {
        const { listener } = chain((req, _res, next) => {
          const chunks: Buffer[] = []
          req.on('data', (c: Buffer) => chunks.push(c))
          req.on('end', () => {
            Object.assign(req, { body: parse(Buffer.concat(chunks).toString('utf8')) })
            next()
          })
        }, toNodeHandler(api))
        const url = await serve(listener)
        const res = await rawRequest(`${url}/v1/orgs/${org.id}/spaces`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ title: 'Raw text' }),
        })
        expect(res.status).toBe(201)
        expect(JSON.parse(res.body).title).toBe('Raw text')
        await server!.close()
        server = undefined
      }
    })

    it('the {} a parser leaves on a bodiless request is no body', async () => {
      const { api, auth, org } = await createSeededApi()
      // Express 4's express.json() sets req.body = {} whatever the request.
      const { listener } = chain((req, _res, next) => {
        Object.assign(req, { body: {} })
        req.resume()
        req.on('end', () => next())
      }, toNodeHandler(api))
      const url = await serve(listener)
      // PUT .../teams requires a body: without one it says so (a `{}` would fail on its fields).
      const res = await rawRequest(`${url}/v1/orgs/${org.id}/teams`, { method: 'PUT', headers: auth })
      expect(res.status).toBe(400)
      expect(JSON.parse(res.body).error.message).toBe('Invalid request: body is required (a JSON object)')
      const space = await rawRequest(`${url}/v1/orgs/${org.id}/spaces`, { method: 'POST', headers: auth })
      expect(space.status).toBe(201)
      expect(JSON.parse(space.body).title).toBe('Untitled')
    })

    it('a {} placeholder over an unread stream: the stream is the body', async () => {
      const { api, auth, org } = await createSeededApi()
      // express.json() in Express 4, skipping a type it does not parse, leaves {} and the stream.
      const { listener } = chain((req, _res, next) => {
        Object.assign(req, { body: {} })
        next()
      }, toNodeHandler(api))
      const url = await serve(listener)
      const res = await rawRequest(`${url}/v1/orgs/${org.id}/spaces`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/vnd.acme+json' },
        body: JSON.stringify({ title: 'From the stream' }),
      })
      expect(res.status).toBe(201)
      expect(JSON.parse(res.body).title).toBe('From the stream')
    })

    it('a stream consumed without req.body: next(error), or a 500 without next', async () => {
      const { api, auth, org } = await createSeededApi()
      const swallow = (req: IncomingMessage, _res: ServerResponse, next: (error?: unknown) => void) => {
        req.resume()
        req.on('end', () => next())
      }
      const init = { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{"title":"Lost"}' }
      const mounted = chain(swallow, toNodeHandler(api))
      let url = await serve(mounted.listener)
      expect((await rawRequest(`${url}/v1/orgs/${org.id}/spaces`, init)).status).toBe(599)
      expect(String(mounted.errors[0])).toMatch(/already read by another middleware/)
      await server!.close()

      const logged: unknown[] = []
      const handler = toNodeHandler(api, { onError: (e) => logged.push(e) })
      url = await serve((req, res) => swallow(req, res, () => handler(req, res)))
      const res = await rawRequest(`${url}/v1/orgs/${org.id}/spaces`, init)
      expect(res.status).toBe(500)
      expect(JSON.parse(res.body)).toEqual({ error: { code: 500, message: 'Internal server error' } })
      expect(logged).toHaveLength(1)
      expect(api.store.read((tx) => tx.all('spaces')).length).toBe(0)
    })
  })

  describe('responses', () => {
    it('repeated set-cookie headers stay separate', async () => {
      const { api } = await createSeededApi()
      api.fetch = async () =>
        new Response('ok', {
          headers: [
            ['set-cookie', 'a=1; Path=/'],
            ['set-cookie', 'b=2; Path=/'],
            ['x-one', '1'],
          ],
        })
      const url = await serve(toNodeHandler(api))
      const res = await rawRequest(`${url}/anything`)
      expect(res.headers['set-cookie']).toEqual(['a=1; Path=/', 'b=2; Path=/'])
      expect(res.headers['x-one']).toBe('1')
      expect(res.body).toBe('ok')
    })

    it('streams a body of several chunks as they come', async () => {
      const { api } = await createSeededApi()
      const parts = ['one,', 'two,', 'three']
      api.fetch = async () =>
        new Response(
          new ReadableStream({
            async pull(controller) {
              const part = parts.shift()
              if (part === undefined) return controller.close()
              await new Promise((r) => setTimeout(r, 5))
              controller.enqueue(new TextEncoder().encode(part))
            },
          }),
          { status: 207, statusText: 'Multi', headers: { 'content-type': 'text/plain' } },
        )
      const url = await serve(toNodeHandler(api))
      const res = await rawRequest(`${url}/stream`)
      expect(res.status).toBe(207)
      expect(res.headers['transfer-encoding']).toBe('chunked')
      expect(res.body).toBe('one,two,three')
    })

    it('a client going away aborts the request signal and cancels the response body', async () => {
      const { api } = await createSeededApi()
      let signal: AbortSignal | undefined
      const cancelled = new Promise<unknown>((resolveCancel) => {
        api.fetch = async (input) => {
          signal = (input as Request).signal
          return new Response(
            new ReadableStream({
              pull: async (controller) => {
                await new Promise((r) => setTimeout(r, 5))
                controller.enqueue(new TextEncoder().encode('tick\n'))
              },
              cancel: (reason) => resolveCancel(reason ?? 'cancelled'),
            }),
          )
        }
      })
      const url = await serve(toNodeHandler(api))
      const controller = new AbortController()
      const res = await fetch(`${url}/forever`, { signal: controller.signal })
      const reader = res.body!.getReader()
      await reader.read()
      controller.abort()
      await expect(cancelled).resolves.toBeDefined()
      expect(signal?.aborted).toBe(true)
    })

    it('a response failing before its headers went out: 500 JSON, without the headers it had set', async () => {
      const { api } = await createSeededApi()
      api.fetch = async () =>
        new Response('never', {
          status: 200,
          headers: [
            ['x-a', 'set before the failure'],
            ['x-bad', 'fine'],
          ],
        })
      const onError = vi.fn()
      const handler = toNodeHandler(api, { onError })
      // A host whose response refuses one header: setting it throws inside the bridge.
      const url = await serve((req, res) => {
        const setHeader = res.setHeader.bind(res)
        res.setHeader = ((name: string, value: number | string | readonly string[]) => {
          if (name === 'x-bad') throw new Error('refused')
          return setHeader(name, value)
        }) as typeof res.setHeader
        handler(req, res)
      })
      const res = await rawRequest(`${url}/v1/user`)
      expect(res.status).toBe(500)
      expect(JSON.parse(res.body)).toEqual({ error: { code: 500, message: 'Internal server error' } })
      expect(res.headers['x-a']).toBeUndefined()
      expect(onError).toHaveBeenCalledWith(expect.objectContaining({ message: 'refused' }))
    })

    it('a fetch that throws answers 500 JSON and reports the error', async () => {
      const { api } = await createSeededApi()
      api.fetch = async () => {
        throw new Error('boom')
      }
      const onError = vi.fn()
      const { listener, errors } = chain(toNodeHandler(api, { onError }))
      const url = await serve(listener)
      const res = await rawRequest(`${url}/v1/user`)
      expect(res.status).toBe(500)
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
      expect(JSON.parse(res.body)).toEqual({ error: { code: 500, message: 'Internal server error' } })
      expect(onError).toHaveBeenCalledWith(expect.objectContaining({ message: 'boom' }))
      // The API could answer (a 500): the host's error handler is not involved.
      expect(errors).toEqual([])
    })

    it('a body failing after the headers went out: next(error), or the connection closes', async () => {
      const { api } = await createSeededApi()
      api.fetch = async () => {
        let n = 0
        return new Response(
          new ReadableStream({
            pull: async (controller) => {
              await new Promise((r) => setTimeout(r, 5))
              if (n++ < 2) controller.enqueue(new TextEncoder().encode('part\n'))
              else controller.error(new Error('stream broke'))
            },
          }),
        )
      }
      const mounted = chain(toNodeHandler(api))
      let url = await serve(mounted.listener)
      await expect(rawRequest(`${url}/v1/user`)).rejects.toThrow()
      expect(String(mounted.errors[0])).toMatch(/stream broke/)
      await server!.close()

      const onError = vi.fn()
      url = await serve(toNodeHandler(api, { onError }))
      await expect(rawRequest(`${url}/v1/user`)).rejects.toThrow()
      expect(onError).toHaveBeenCalledWith(expect.objectContaining({ message: 'stream broke' }))
    })
  })
})

describe('toNodeHandler: a read answered in the handler\u2019s call', () => {
  it('writes a bodiless GET (and a 404) before the handler returns; a request with a body is written later', async () => {
    const { api, org, auth } = await createSeededApi()
    const handler = toNodeHandler(api)
    const endedInCall: Record<string, boolean> = {}
    const url = await serve((req, res) => {
      handler(req, res)
      endedInCall[`${req.method} ${req.url}`] = res.writableEnded
    })
    const get = await fetch(`${url}/v1/orgs/${org.id}`, { headers: auth })
    expect(get.status).toBe(200)
    const missing = await fetch(`${url}/v1/spaces/nope`, { headers: auth })
    expect(missing.status).toBe(404)
    const post = await fetch(`${url}/v1/orgs/${org.id}/spaces`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: '{"title":"T"}',
    })
    expect(post.status).toBe(201)
    await Promise.all([get.text(), missing.text(), post.text()])
    expect(endedInCall).toEqual({ [`GET /v1/orgs/${org.id}`]: true, 'GET /v1/spaces/nope': true, [`POST /v1/orgs/${org.id}/spaces`]: false })
  })
})

describe('onAnswered', () => {
  it('tells each answered request its status and operation, with the Node request, at the root (the API basePath) and under a prefix', async () => {
    const { api, auth } = await createSeededApi({ basePath: '/api' })
    const seen: Array<{ url: string | undefined; method: string; path: string; status: number; operationId: string | undefined }> = []
    const handler = toNodeHandler(api, {
      onAnswered: (req, { method, path, status, operationId }) => void seen.push({ url: req.url, method, path, status, operationId }),
    })
    const url = await serve(handler)
    expect((await fetch(`${url}/api/v1/orgs?page=x`, { headers: auth })).status).toBe(400)
    expect((await fetch(`${url}/api/v1/orgs`, { method: 'DELETE', headers: auth })).status).toBe(405)
    expect((await fetch(`${url}/other`)).status).toBe(404)
    expect(seen).toEqual([
      { url: '/api/v1/orgs?page=x', method: 'GET', path: '/v1/orgs', status: 400, operationId: 'listOrganizationsForAuthenticatedUser' },
      { url: '/api/v1/orgs', method: 'DELETE', path: '/v1/orgs', status: 405, operationId: undefined },
      { url: '/other', method: 'GET', path: '/other', status: 404, operationId: undefined },
    ])
  })

  it('createFetchHandler tells it too', async () => {
    const { api, auth } = await createSeededApi()
    const seen: unknown[] = []
    const fetch = createFetchHandler(api, { onAnswered: ({ request, ...rest }) => void seen.push({ url: request.url, ...rest }) })
    expect((await fetch('http://x.test/v1/orgs', { headers: auth })).status).toBe(200)
    expect(seen).toEqual([{ url: 'http://x.test/v1/orgs', method: 'GET', path: '/v1/orgs', status: 200, operationId: 'listOrganizationsForAuthenticatedUser' }])
  })
})
