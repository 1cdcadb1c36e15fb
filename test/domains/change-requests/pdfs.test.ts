import { describe, expect, it } from 'vitest'
import type { DocsApi } from '../../../src/index.js'
import { API_CORE } from '../../../src/http/api-core.js'
import { call } from '../../helpers.js'
import { edit, openCr, setup, type CrWorld } from './helpers.js'
import { longestStall } from '../../stall.js'
import { createWorkerOffload } from '../../../src/node.js'
import { OffloadError, type Offload } from '../../../src/core/offload.js'
import { TEST_STORE } from '../../test-storage.js'

/** The PDF cache's counters: renders started, PDFs kept and their bytes. */
const pdfStats = (api: DocsApi) => ({ ...api[API_CORE].runtime.services.pdfs.stats })

async function pdfUrl(w: CrWorld, cr: string, token = w.tokens.ada, query = ''): Promise<string> {
  const res = await call(w.api, token, 'GET', `${w.base}/change-requests/${cr}/pdf${query}`)
  expect(res.status).toBe(200)
  return res.body.url
}

async function getPdf(w: CrWorld, url: string): Promise<{ status: number; bytes: Uint8Array }> {
  const res = await w.api.fetch(url)
  return { status: res.status, bytes: new Uint8Array(await res.arrayBuffer()) }
}

async function crWithPage(w: CrWorld, subject = 'Edit') {
  const cr = await openCr(w, subject)
  const res = await edit(w, cr.id, [
    { operation: 'insert_page', title: 'Printed', document: { markdown: 'Hello PDF' } },
    { operation: 'insert_page', title: 'Other', document: { markdown: 'Another page' } },
  ])
  expect(res.status).toBe(200)
  return { cr, pages: res.body.changes.map((c: { page: { id: string } }) => c.page.id) as string[] }
}

describe('change-request PDFs: made once, kept within a budget', () => {
  it('renders a URL once: a second GET is served the same bytes from the cache, and GETs at the same time share one render', async () => {
    const w = await setup()
    const { cr } = await crWithPage(w)
    const url = await pdfUrl(w, cr.id)
    const first = await getPdf(w, url)
    expect(first.status).toBe(200)
    expect(pdfStats(w.api)).toMatchObject({ renders: 1, entries: 1, bytes: first.bytes.byteLength })
    const second = await getPdf(w, url)
    expect(second.bytes).toEqual(first.bytes)
    expect(pdfStats(w.api).renders).toBe(1)

    const { cr: other } = await crWithPage(w, 'Other')
    const otherUrl = await pdfUrl(w, other.id)
    const together = await Promise.all([getPdf(w, otherUrl), getPdf(w, otherUrl), getPdf(w, otherUrl)])
    expect(together.map((r) => r.status)).toEqual([200, 200, 200])
    expect(together[1]!.bytes).toEqual(together[0]!.bytes)
    expect(pdfStats(w.api).renders).toBe(2)
  })

  it('shares the PDF between URLs of the same pages, and renders again when the title changes or the pages differ', async () => {
    const w = await setup()
    const { cr, pages } = await crWithPage(w)
    const a = await getPdf(w, await pdfUrl(w, cr.id))
    const b = await getPdf(w, await pdfUrl(w, cr.id, w.tokens.rita))
    expect(b.bytes).toEqual(a.bytes)
    expect(pdfStats(w.api).renders).toBe(1)
    await getPdf(w, await pdfUrl(w, cr.id, w.tokens.ada, `?page=${pages[0]}&only=true`))
    expect(pdfStats(w.api).renders).toBe(2)
    // The subject is in the PDF's title: the same pages under a new subject are printed again.
    expect((await call(w.api, w.tokens.ada, 'PATCH', `${w.base}/change-requests/${cr.id}`, { subject: 'Renamed' })).status).toBe(200)
    const renamed = await getPdf(w, await pdfUrl(w, cr.id))
    expect(renamed.bytes).not.toEqual(a.bytes)
    expect(pdfStats(w.api)).toMatchObject({ renders: 3, entries: 2 })
  })

  it('keeps PDFs within pdfCacheBytes (the least recently served go, and render again when asked for), and none with 0', async () => {
    const w = await setup()
    const { cr } = await crWithPage(w)
    const { cr: other } = await crWithPage(w, 'Other')
    const size = (await getPdf(w, await pdfUrl(w, cr.id))).bytes.byteLength
    expect(pdfStats(w.api).renders).toBe(1)

    // A budget for one PDF: the second evicts the first, which renders again when asked for.
    const small = w.api.fork({ pdfCacheBytes: size + 100 })
    const [one, two] = await Promise.all([pdfUrlIn(small, w, cr.id), pdfUrlIn(small, w, other.id)])
    await small.fetch(one)
    await small.fetch(two)
    expect(pdfStats(small)).toMatchObject({ renders: 2, entries: 1 })
    expect(pdfStats(small).bytes).toBeLessThanOrEqual(size + 100)
    expect((await small.fetch(one)).status).toBe(200)
    expect(pdfStats(small)).toMatchObject({ renders: 3, entries: 1 })

    const none = w.api.fork({ pdfCacheBytes: 0 })
    const url = await pdfUrlIn(none, w, cr.id)
    await none.fetch(url)
    await none.fetch(url)
    expect(pdfStats(none)).toMatchObject({ renders: 2, entries: 0, bytes: 0 })
  })

  it.skipIf(TEST_STORE === 'postgres')('lets a PDF go once no live URL names it (expired after an hour), and after a restore', async () => {
    const w = await setup()
    const { cr } = await crWithPage(w)
    const snapshot = w.api.snapshot()
    const url = await pdfUrl(w, cr.id)
    await getPdf(w, url)
    expect(pdfStats(w.api).entries).toBe(1)
    // A restored state may give the revision's id to other pages: the PDF is made again.
    w.api.restore(snapshot)
    expect(pdfStats(w.api).entries).toBe(0)
    expect((await getPdf(w, url)).status).toBe(200)
    expect(pdfStats(w.api)).toMatchObject({ renders: 2, entries: 1 })
    w.clock.advance(2 * 60 * 60 * 1000)
    expect((await getPdf(w, url)).status).toBe(404)
    expect(pdfStats(w.api)).toMatchObject({ entries: 0, bytes: 0 })
  })

  it('stops serving a kept PDF once its change request is gone', async () => {
    const w = await setup()
    const { cr } = await crWithPage(w)
    const url = await pdfUrl(w, cr.id)
    expect((await getPdf(w, url)).status).toBe(200)
    w.api.system((ctx) => ctx.tx.delete('changeRequests', cr.id))
    expect((await getPdf(w, url)).status).toBe(404)
  })
})

describe('change-request PDFs: off the event loop', () => {
  it('serves the PDF of a large change request while the event loop keeps turning (the longest stall a small part of the GET)', async () => {
    const w = await setup()
    const cr = await openCr(w)
    const paragraphs = (page: number) =>
      Array.from({ length: 400 }, (_, i) => `Paragraph ${i} of page ${page}: ${'some words to fill the line '.repeat(12)}`).join('\n\n')
    const res = await edit(
      w,
      cr.id,
      Array.from({ length: 4 }, (_, page) => ({ operation: 'insert_page', title: `Page ${page}`, document: { markdown: paragraphs(page) } })),
    )
    expect(res.status).toBe(200)
    await getPdf(w, await pdfUrl(w, cr.id, w.tokens.ada, `?page=${res.body.changes[0].page.id}&only=true`)) // fonts read once per process: not measured
    const url = await pdfUrl(w, cr.id)
    const { result: pdf, stall, total } = await longestStall(() => getPdf(w, url))
    expect(pdf.status).toBe(200)
    expect(pdf.bytes.byteLength).toBeGreaterThan(100_000)
    expect(stall).toBeLessThan(total / 5)
  })
})

describe('change-request PDF URLs: capped per user', () => {
  it("one user asking for 1,000 PDF URLs leaves another user's earlier URL working (each user keeps their latest 50)", async () => {
    const w = await setup()
    const { cr } = await crWithPage(w)
    const ritas = await pdfUrl(w, cr.id, w.tokens.rita)
    const adas: string[] = []
    for (let i = 0; i < 1000; i++) adas.push(await pdfUrl(w, cr.id))
    expect((await getPdf(w, ritas)).status).toBe(200)
    expect((await getPdf(w, adas[0]!)).status).toBe(404)
    expect((await getPdf(w, adas[949]!)).status).toBe(404)
    expect((await getPdf(w, adas[950]!)).status).toBe(200)
    expect((await getPdf(w, adas[999]!)).status).toBe(200)
    expect(w.api[API_CORE].runtime.tickets.size).toBe(51)
    // All of them print the same pages: one render, kept while any of their URLs lives.
    expect(pdfStats(w.api)).toMatchObject({ renders: 1, entries: 1 })
  })
})

/** A PDF URL from another API over the world's state (a fork), asked by ada. */
async function pdfUrlIn(api: DocsApi, w: CrWorld, cr: string): Promise<string> {
  const res = await call(api, w.tokens.ada, 'GET', `${w.base}/change-requests/${cr}/pdf`)
  expect(res.status).toBe(200)
  return res.body.url
}

describe('change-request PDFs: rendered through the offload', () => {
  it('renders on the worker threads of a worker offload (pdf-lib loads and lays out there, off the event loop): the bytes come back', async () => {
    const w = await setup()
    const { cr } = await crWithPage(w)
    const offload = createWorkerOffload({ workers: 1 })
    try {
      const api = w.api.fork({ offload })
      const res = await api.fetch(await pdfUrlIn(api, w, cr.id))
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('application/pdf')
      const bytes = new Uint8Array(await res.arrayBuffer())
      expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe('%PDF-')
      expect(offload.stats.tasks).toBe(1)
    } finally {
      await offload.close()
    }
  })

  it('an offload that cannot take the render (busy) answers 503 with Retry-After, and nothing is kept', async () => {
    const w = await setup()
    const { cr } = await crWithPage(w)
    const busy: Offload = {
      run: () => Promise.reject(new OffloadError('busy', 'every worker is busy')),
      close: async () => {},
    }
    const api = w.api.fork({ offload: busy })
    const res = await api.fetch(await pdfUrlIn(api, w, cr.id))
    expect(res.status).toBe(503)
    expect(res.headers.get('retry-after')).toBe('1')
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain('The PDF could not be made now')
    expect(pdfStats(api).entries).toBe(0)
  })
})
