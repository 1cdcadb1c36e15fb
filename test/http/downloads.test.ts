import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { binaryAnswer } from '../../src/core/binary.js'
import { ApiError } from '../../src/core/errors.js'
import { defineOperation, type OperationDef } from '../../src/core/operation.js'
import { implement } from '../../src/domains/context.js'
import { API_CORE } from '../../src/http/api-core.js'
import { createDocsApi, createFetchHandler, createOpenApiDocument } from '../../src/index.js'
import { BASE, call } from '../helpers.js'
import { edit, openCr, setup, type CrWorld } from '../domains/change-requests/helpers.js'

/**
 * The URLs the API hands out (a file's `downloadURL`, a change request's PDF URL) are operations
 * of the table like any other (docs/behaviour/content-and-change-requests.md): the journal keeps
 * them, faults reach them, CORS and HEAD work as on /v1, and their 404s say what they said.
 */

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='
const PNG_BYTES = Uint8Array.from(atob(PNG), (c) => c.charCodeAt(0))

/** A world with a change request holding a page and a file: the file's download URL, and a PDF URL of the change request. */
async function withUrls(w: CrWorld) {
  const cr = await openCr(w)
  const res = await edit(w, cr.id, [
    { operation: 'insert_files', files: [{ name: 'a dot.png', contentType: 'image/png', base64: PNG }] },
    { operation: 'insert_page', title: 'Printed', document: { markdown: 'Hello PDF' } },
  ])
  expect(res.status).toBe(200)
  const file: string = res.body.insertedFiles[0].downloadURL
  const pdf = await call(w.api, w.tokens.ada, 'GET', `${w.base}/change-requests/${cr.id}/pdf`)
  expect(pdf.status).toBe(200)
  return { file, pdf: pdf.body.url as string }
}

describe('downloads and PDFs are operations of the table', () => {
  it('the URLs handed out are those of the operations, and the journal records them (operation, status, no body kept)', async () => {
    const w = await setup()
    const { file, pdf } = await withUrls(w)
    expect(file).toMatch(new RegExp(`^${BASE}/files/[^/]+/a%20dot\\.png$`))
    expect(pdf).toMatch(new RegExp(`^${BASE}/pdf/[^/]+$`))
    w.api.journal.clear()

    const bytes = await w.api.fetch(file)
    expect(bytes.status).toBe(200)
    expect(new Uint8Array(await bytes.arrayBuffer())).toEqual(PNG_BYTES)
    const printed = await w.api.fetch(pdf)
    expect(printed.status).toBe(200)
    expect(new TextDecoder().decode((await printed.arrayBuffer()).slice(0, 5))).toBe('%PDF-')
    await w.api.fetch(`${BASE}/files/no-such-key/x.png`)

    expect(w.api.journal.entries.map((e) => [e.method, e.path, e.operationId, e.status, e.user])).toEqual([
      ['GET', new URL(file).pathname, 'downloadFile', 200, ''],
      ['GET', new URL(pdf).pathname, 'downloadChangeRequestPDF', 200, ''],
      ['GET', '/files/no-such-key/x.png', 'downloadFile', 404, ''],
    ])
    // Bytes are no JSON: the journal keeps no body of them (a 404's JSON body it keeps).
    expect(w.api.journal.entries.map((e) => e.responseBody)).toEqual([undefined, undefined, { error: { code: 404, message: 'File not found' } }])
  })

  it('an injected fault reaches a download and a PDF, by operation id or by path', async () => {
    const w = await setup()
    const { file, pdf } = await withUrls(w)
    w.api.faults.add({ operationId: 'downloadFile', status: 503, times: 1, message: 'CDN down' })
    const failed = await w.api.fetch(file)
    expect(failed.status).toBe(503)
    expect(await failed.json()).toEqual({ error: { code: 503, message: 'CDN down' } })
    expect((await w.api.fetch(file)).status).toBe(200)
    w.api.faults.add({ path: '/pdf/{ticket}', status: 500, times: 1 })
    expect((await w.api.fetch(pdf)).status).toBe(500)
    expect((await w.api.fetch(pdf)).status).toBe(200)
    expect(w.api.journal.find({ operationId: 'downloadFile' }).map((e) => [e.status, e.fault])).toEqual([
      [503, true],
      [200, false],
    ])
  })

  it('answers other origins when `cors` is on: CORS headers on the bytes, and a preflight naming GET, HEAD, OPTIONS', async () => {
    const w = await setup()
    const { file, pdf } = await withUrls(w)
    const withCors = createFetchHandler(w.api, { cors: true })
    const origin = { origin: 'https://app.example' }
    for (const url of [file, pdf]) {
      expect((await w.api.fetch(new Request(url, { headers: origin }))).headers.get('access-control-allow-origin'), url).toBeNull()
      const res = await withCors(new Request(url, { headers: origin }))
      expect(res.status, url).toBe(200)
      expect(res.headers.get('access-control-allow-origin'), url).toBe('*')
      const preflight = await withCors(new Request(url, { method: 'OPTIONS', headers: { ...origin, 'access-control-request-method': 'GET' } }))
      expect(preflight.status, url).toBe(204)
      expect(preflight.headers.get('allow'), url).toBe('GET, HEAD, OPTIONS')
      expect(preflight.headers.get('access-control-allow-methods'), url).toContain('GET')
    }
  })

  it('HEAD answers the headers of a GET without the body', async () => {
    const w = await setup()
    const { file, pdf } = await withUrls(w)
    const head = await w.api.fetch(new Request(file, { method: 'HEAD' }))
    expect(head.status).toBe(200)
    expect(head.headers.get('content-type')).toBe('image/png')
    expect(head.headers.get('content-length')).toBe(String(PNG_BYTES.byteLength))
    expect(head.headers.get('content-disposition')).toBe("inline; filename*=UTF-8''a%20dot.png")
    expect((await head.arrayBuffer()).byteLength).toBe(0)
    // A HEAD of a PDF not made yet does not render it: its headers come without their length.
    const renders = () => w.api[API_CORE].runtime.services.pdfs.stats.renders
    const before = renders()
    const early = await w.api.fetch(new Request(pdf, { method: 'HEAD' }))
    expect(early.status).toBe(200)
    expect(early.headers.get('content-type')).toBe('application/pdf')
    expect(early.headers.get('content-length')).toBeNull()
    expect(renders()).toBe(before)
    const get = await w.api.fetch(pdf)
    expect(renders()).toBe(before + 1)
    // Once made (kept), a HEAD says its length.
    const pdfHead = await w.api.fetch(new Request(pdf, { method: 'HEAD' }))
    expect(pdfHead.status).toBe(200)
    expect(pdfHead.headers.get('content-type')).toBe('application/pdf')
    expect(pdfHead.headers.get('content-length')).toBe(get.headers.get('content-length'))
    expect((await pdfHead.arrayBuffer()).byteLength).toBe(0)
    expect(renders()).toBe(before + 1)
    expect(w.api.journal.last()).toMatchObject({ method: 'HEAD', operationId: 'downloadChangeRequestPDF', status: 200 })
  })

  it('a key no file names, or a ticket that is not one, is a 404 saying so as before; other methods are a 405', async () => {
    const w = await setup()
    const { file } = await withUrls(w)
    const key = new URL(file).pathname.split('/')[2]!
    const missing = await w.api.fetch(`${BASE}/files/no-such-key/a.png`)
    expect(missing.status).toBe(404)
    expect(await missing.json()).toEqual({ error: { code: 404, message: 'File not found' } })
    // By key alone, and with an empty name, the bytes are served (as an attachment or inline, without a file name).
    const byKey = await w.api.fetch(`${BASE}/files/${key}`)
    expect([byKey.status, byKey.headers.get('content-disposition')]).toEqual([200, 'inline'])
    expect((await w.api.fetch(`${BASE}/files/${key}/`)).status).toBe(200)
    const noTicket = await w.api.fetch(`${BASE}/pdf/no-such-ticket`)
    expect(noTicket.status).toBe(404)
    expect(await noTicket.json()).toEqual({ error: { code: 404, message: 'PDF not found or expired: ask GET .../change-requests/{id}/pdf for a new URL' } })
    const post = await w.api.fetch(new Request(file, { method: 'POST' }))
    expect(post.status).toBe(405)
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS')
  })

  it('needs no token, and like every operation answers 401 to a token that is no token', async () => {
    const w = await setup()
    const { file, pdf } = await withUrls(w)
    for (const url of [file, pdf]) {
      expect((await w.api.fetch(new Request(url, { headers: { authorization: `Bearer ${w.tokens.olga}` } }))).status, url).toBe(200)
      expect((await w.api.fetch(new Request(url, { headers: { authorization: 'Bearer gb_api_unknown' } }))).status, url).toBe(401)
    }
  })

  it("is served under the handler's basePath, as /v1 is", async () => {
    const w = await setup()
    const { file } = await withUrls(w)
    const mounted = createFetchHandler(w.api, { basePath: '/api' })
    const res = await mounted(file.replace(BASE, `${BASE}/api`))
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/png')
  })

  it('the OpenAPI document describes them: bytes of their type, no security, beyond the official document', async () => {
    const w = await setup()
    const doc = createOpenApiDocument(w.api.operations, { baseUrl: BASE }) as any
    const download = doc.paths['/files/{blobKey}/{fileName}'].get
    expect(download).toMatchObject({ operationId: 'downloadFile', security: [], 'x-beyond-official': true })
    expect(download.responses['200'].content).toEqual({ '*/*': { schema: { type: 'string', format: 'binary' } } })
    expect(download.parameters.map((p: any) => [p.name, p.in])).toEqual([
      ['blobKey', 'path'],
      ['fileName', 'path'],
    ])
    expect(doc.paths['/files/{blobKey}'].get.operationId).toBe('downloadFileByKey')
    const pdf = doc.paths['/pdf/{ticket}'].get
    expect(pdf).toMatchObject({ operationId: 'downloadChangeRequestPDF', security: [], 'x-beyond-official': true })
    expect(pdf.responses['200'].content).toEqual({ 'application/pdf': { schema: { type: 'string', format: 'binary' } } })
    expect(pdf.responses['401']).toBeUndefined()
  })
})

describe('bytes answers and paths outside /v1 (core/binary.ts, core/operation.ts)', () => {
  const bytesOp = defineOperation({
    id: 'getBytes',
    method: 'GET',
    path: '/v1/test/bytes/{what}',
    tag: 'test',
    summary: 'A test operation answering bytes',
    params: z.object({ what: z.string() }),
    responseType: '*/*',
    status: 200,
    errors: ['NOT_FOUND'],
  })

  it('bytes made after the transaction may fail: an ApiError is answered as any error, anything else is a logged 500, never a rejected fetch', async () => {
    const errors: unknown[] = []
    const api = createDocsApi({ baseUrl: BASE, onError: (error) => errors.push(error) })
    const token = await api.fixtures.createToken((await api.fixtures.createUser({ displayName: 'Ada' })).id)
    const operations = implement(
      { getBytes: bytesOp },
      {
        getBytes: (_, { params }) =>
          binaryAnswer('text/plain', async () => {
            if (params.what === 'gone') throw new ApiError('NOT_FOUND', 'Gone meanwhile')
            if (params.what === 'broken') throw new Error('renderer crashed')
            return new TextEncoder().encode(`made ${params.what}`)
          }),
      },
    )
    const fetch = createFetchHandler({ [API_CORE]: { ...api[API_CORE], operations } })
    const get = (what: string) => fetch(`${BASE}/v1/test/bytes/${what}`, { headers: { authorization: `Bearer ${token}` } })
    const ok = await get('late')
    expect([ok.status, ok.headers.get('content-type'), ok.headers.get('content-length'), await ok.text()]).toEqual([200, 'text/plain', '9', 'made late'])
    const gone = await get('gone')
    expect([gone.status, await gone.json()]).toEqual([404, { error: { code: 404, message: 'Gone meanwhile' } }])
    const broken = await get('broken')
    expect([broken.status, await broken.json()]).toEqual([500, { error: { code: 500, message: 'Internal server error' } }])
    expect(errors).toEqual([new Error('renderer crashed')])
  })

  it('implement() refuses a path outside /v1 unless the def says so and is beyond the official document, and a response schema on bytes', () => {
    const bind = (def: Record<string, unknown>) => () =>
      implement({ getBytes: { ...bytesOp, ...def } as OperationDef }, { getBytes: () => binaryAnswer('text/plain', new Uint8Array()) as never })
    expect(bind({ path: '/test/bytes' })).toThrow('is not under /v1')
    expect(bind({ path: '/test/bytes', outsideV1: true })).toThrow('says `beyondOfficial`')
    expect(bind({ outsideV1: true, beyondOfficial: true })).toThrow('is under /v1, yet it says `outsideV1`')
    expect(bind({ response: z.object({}) })).toThrow('it answers bytes: it has no `response` schema')
    expect(bind({ path: '/test/bytes', outsideV1: true, beyondOfficial: true })).not.toThrow()
  })
})
