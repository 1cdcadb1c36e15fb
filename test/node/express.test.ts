import express, { type ErrorRequestHandler } from 'express'
import { afterEach, describe, expect, it } from 'vitest'
import { toNodeHandler, UnreadableRequestError } from '../../src/node.js'
import { createSeededApi, listen, rawRequest, type Listening } from './helpers.js'

let server: Listening | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

// Mounting under Express used to go wrong two ways with a generic Node bridge: express.json()
// had consumed the stream, so a POST was answered 201 with its body ignored (a space "Untitled");
// and with basePath '/api' on the API, `app.use('/api', ...)` stripped the prefix twice (404).
describe('toNodeHandler in Express', () => {
  describe.each([
    ['an API without basePath', {}],
    ["an API with basePath '/api'", { basePath: '/api' }],
  ])('app.use(express.json()), app.use("/api", handler), %s', (_name, options) => {
    async function setup() {
      const seeded = await createSeededApi({ ...options, baseUrl: 'http://docs.test/api' })
      const app = express()
      app.use(express.json())
      app.use('/api', toNodeHandler(seeded.api))
      server = await listen(app)
      return { ...seeded, url: server.url }
    }

    it('routes /api/v1/... and honours a POST body', async () => {
      const { url, auth, org, api } = await setup()
      const res = await rawRequest(`${url}/api/v1/orgs/${org.id}/spaces`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'Handbook' }),
      })
      expect(res.status).toBe(201)
      const space = JSON.parse(res.body)
      expect(space.title).toBe('Handbook')
      expect(api.store.read((tx) => tx.get('spaces', space.id))?.title).toBe('Handbook')
      expect(res.headers.location).toBe(`http://docs.test/api/v1/spaces/${space.id}`)
      const user = await rawRequest(`${url}/api/v1/user`, { headers: auth })
      expect(JSON.parse(user.body).displayName).toBe('Ada Lovelace')
    })

    it('a bodiless request stays bodiless (not the {} express.json() may leave)', async () => {
      const { url, auth, org } = await setup()
      const team = await rawRequest(`${url}/api/v1/orgs/${org.id}/teams`, { method: 'PUT', headers: auth })
      expect(team.status).toBe(400)
      expect(JSON.parse(team.body).error.message).toBe('Invalid request: body is required (a JSON object)')
      const space = await rawRequest(`${url}/api/v1/orgs/${org.id}/spaces`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' } })
      expect(space.status).toBe(201)
      expect(JSON.parse(space.body).title).toBe('Untitled')
    })

    it('answers its own 404 under /api, HEAD as GET, and leaves the rest of the app to Express', async () => {
      const { url, auth } = await setup()
      const missing = await rawRequest(`${url}/api/v1/nope`, { headers: auth })
      expect(JSON.parse(missing.body)).toEqual({ error: { code: 404, message: 'No route for GET /v1/nope' } })
      const head = await rawRequest(`${url}/api/v1/user`, { method: 'HEAD', headers: auth })
      expect(head.status).toBe(200)
      expect(head.body).toBe('')
      expect(Number(head.headers['content-length'])).toBeGreaterThan(0)
      const outside = await rawRequest(`${url}/v1/user`, { headers: auth })
      expect(outside.status).toBe(404)
      expect(outside.headers['content-type']).toMatch(/^text\/html/)
    })
  })

  it('a mount inside a mounted router: the whole mount path is the prefix', async () => {
    const { api, auth } = await createSeededApi()
    const router = express.Router()
    router.use('/docs', toNodeHandler(api))
    const app = express()
    app.use('/api', router)
    server = await listen(app)
    expect((await rawRequest(`${server.url}/api/docs/v1/user`, { headers: auth })).status).toBe(200)
  })

  it('a form that express.urlencoded() parsed is not JSON: 415 from the API', async () => {
    const { api, auth, org } = await createSeededApi()
    const app = express()
    app.use(express.urlencoded())
    app.use(toNodeHandler(api))
    server = await listen(app)
    const res = await rawRequest(`${server.url}/v1/orgs/${org.id}/spaces`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'title=Form',
    })
    expect(res.status).toBe(415)
  })

  it("a body another middleware consumed without leaving req.body reaches Express's error handler", async () => {
    const { api, auth, org } = await createSeededApi()
    const seen: unknown[] = []
    const app = express()
    app.use((req, _res, next) => {
      req.resume()
      req.on('end', () => next())
    })
    app.use(toNodeHandler(api))
    app.use(((error, _req, res, _next) => {
      seen.push(error)
      res.status(502).json({ handled: true })
    }) as ErrorRequestHandler)
    server = await listen(app)
    const res = await rawRequest(`${server.url}/v1/orgs/${org.id}/spaces`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: '{"title":"Lost"}',
    })
    expect(res.status).toBe(502)
    expect(seen[0]).toBeInstanceOf(UnreadableRequestError)
  })
})
