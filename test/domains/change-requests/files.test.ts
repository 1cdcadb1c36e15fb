import { describe, expect, it } from 'vitest'
import type { DocsApiOptions } from '../../../src/index.js'
import { call, createWorld, expectError } from '../../helpers.js'

/**
 * Files by URL: a batch's byte budget, files fetched a few at a time, and one budget of bytes in
 * flight for the whole API. The fake fetch counts what its answers hold while they are being
 * read: no timing is measured, only what was in flight at once.
 */

/** Bodies of `size` bytes in chunks of 100, one chunk per macrotask, so fetches overlap as real ones do. */
function meteredFetch(size: number, options: { announce?: boolean } = {}) {
  const meter = { active: 0, maxActive: 0, bytes: 0, maxBytes: 0, calls: 0 }
  const fn = (async () => {
    meter.calls++
    meter.active++
    meter.bytes += size
    meter.maxActive = Math.max(meter.maxActive, meter.active)
    meter.maxBytes = Math.max(meter.maxBytes, meter.bytes)
    let sent = 0
    let open = true
    const end = () => {
      if (!open) return
      open = false
      meter.active--
      meter.bytes -= size
    }
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        await new Promise((tick) => setTimeout(tick, 0))
        if (sent >= size) {
          end()
          controller.close()
          return
        }
        const n = Math.min(100, size - sent)
        sent += n
        controller.enqueue(new Uint8Array(n).fill(7))
      },
      cancel: end,
    })
    return new Response(body, {
      headers: { 'content-type': 'application/octet-stream', ...(options.announce !== false && { 'content-length': String(size) }) },
    })
  }) as typeof fetch
  return { fn, meter }
}

async function world(options: DocsApiOptions) {
  const w = await createWorld(options)
  const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Files' })
  const base = `/v1/spaces/${space.id}`
  const open = async () => (await call(w.api, w.tokens.ada, 'POST', `${base}/change-requests`, { subject: 'Files' })).body.id as string
  const upload = (cr: string, count: number, from = 0) =>
    call(w.api, w.tokens.ada, 'POST', `${base}/change-requests/${cr}/content?compat=false`, {
      changes: [
        {
          operation: 'insert_files',
          files: Array.from({ length: count }, (_, i) => ({ name: `f${from + i}.bin`, url: `https://files.example.com/f${from + i}.bin` })),
        },
      ],
    })
  const stored = () => w.api.store.read((tx) => tx.all('files').length)
  return { ...w, base, open, upload, stored }
}

describe('files by URL: limits', () => {
  it('refuses a batch whose files pass its byte budget (413 naming a file), keeping nothing', async () => {
    const { fn, meter } = meteredFetch(400)
    const w = await world({ fetch: fn, outgoing: { batchBytes: 1000 } })
    const cr = await w.open()
    const before = w.api.dump()
    const res = await w.upload(cr, 5)
    expectError(res, 413, 'the files of the batch are larger than 1000 bytes in all')
    expect(res.body.error.message).toMatch(/body field `changes\[0\]\.files\[\d\]\.url`/)
    expect(w.api.dump()).toEqual(before)
    expect(meter.active).toBe(0)
    // Within the budget, the same files go in.
    const ok = await w.upload(cr, 2)
    expect(ok.status).toBe(200)
    expect(ok.body.insertedFiles.map((f: { name: string }) => f.name)).toEqual(['f0.bin', 'f1.bin'])
  })

  it('counts base64 files against the budget too, before anything is fetched', async () => {
    const { fn, meter } = meteredFetch(400)
    const w = await world({ fetch: fn, outgoing: { batchBytes: 1000 } })
    const cr = await w.open()
    const b64 = (n: number) => btoa(String.fromCharCode(...new Uint8Array(n)))
    const res = await call(w.api, w.tokens.ada, 'POST', `${w.base}/change-requests/${cr}/content`, {
      changes: [
        {
          operation: 'insert_files',
          files: [
            { name: 'u.bin', url: 'https://files.example.com/u.bin' },
            { name: 'a.bin', contentType: 'application/octet-stream', base64: b64(600) },
            { name: 'b.bin', contentType: 'application/octet-stream', base64: b64(600) },
          ],
        },
      ],
    })
    expectError(res, 413, 'body field `changes[0].files[2].base64`: the files of the batch are larger than 1000 bytes')
    expect(meter.calls).toBe(0)
  })

  it('fetches the files of a batch a few at a time, in batch order in the answer', async () => {
    const { fn, meter } = meteredFetch(300)
    const w = await world({ fetch: fn })
    const res = await w.upload(await w.open(), 10)
    expect(res.status).toBe(200)
    expect(res.body.insertedFiles.map((f: { name: string }) => f.name)).toEqual(Array.from({ length: 10 }, (_, i) => `f${i}.bin`))
    expect(meter.maxActive).toBe(4)
    const { fn: fn2, meter: meter2 } = meteredFetch(300)
    const w2 = await world({ fetch: fn2, outgoing: { batchFetches: 2 } })
    expect((await w2.upload(await w2.open(), 6)).status).toBe(200)
    expect(meter2.maxActive).toBe(2)
  })

  it('bounds the bytes in flight across concurrent batches, whatever the number of callers', async () => {
    const { fn, meter } = meteredFetch(500)
    const cap = 10 * 1024 * 1024
    const w = await world({ fetch: fn, outgoing: { bytesInFlight: cap + 1200, fetchesInFlight: 8 } })
    const crs = await Promise.all(Array.from({ length: 6 }, () => w.open()))
    const answers = await Promise.all(crs.map((cr, i) => w.upload(cr, 5, i * 5)))
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200))
    expect(w.stored()).toBe(30)
    // A fetch reserves the 10 MiB cap before it starts and keeps the 500 bytes announced once its
    // headers come: three reading leave no room for a fourth's cap, whatever the number of batches.
    expect(meter.maxActive).toBe(3)
    expect(meter.maxBytes).toBe(1500)
    expect(meter.active).toBe(0)
  })

  it('lets at most `fetchesInFlight` fetches run at once across the API', async () => {
    const { fn, meter } = meteredFetch(100)
    const w = await world({ fetch: fn, outgoing: { fetchesInFlight: 3 } })
    const crs = await Promise.all(Array.from({ length: 4 }, () => w.open()))
    const answers = await Promise.all(crs.map((cr, i) => w.upload(cr, 4, i * 4)))
    expect(answers.map((a) => a.status)).toEqual(Array(4).fill(200))
    expect(meter.maxActive).toBe(3)
  })

  it('reserves the whole cap for a body of unknown length: with a budget below it, such fetches run one at a time', async () => {
    const { fn, meter } = meteredFetch(300, { announce: false })
    const w = await world({ fetch: fn, outgoing: { bytesInFlight: 1024 * 1024 } })
    const crs = await Promise.all(Array.from({ length: 3 }, () => w.open()))
    const answers = await Promise.all(crs.map((cr, i) => w.upload(cr, 3, i * 3)))
    expect(answers.map((a) => a.status)).toEqual(Array(3).fill(200))
    expect(meter.maxActive).toBe(1)
  })

  it('refuses limits that are not positive integers', async () => {
    await expect(world({ outgoing: { batchBytes: 0 } })).rejects.toThrow('outgoing.batchBytes must be a positive integer, not 0')
    await expect(world({ outgoing: { fetchesInFlight: 1.5 } })).rejects.toThrow('outgoing.fetchesInFlight must be a positive integer')
  })
})
