import { describe, expect, it } from 'vitest'
import { ApiError } from '../../src/core/errors.js'
import { fetchOutgoing } from '../../src/core/outgoing.js'
import { createFetchBudget } from '../../src/core/outgoing-limits.js'

/** Let pending promise callbacks run. */
const settle = () => new Promise((done) => setTimeout(done, 0))

describe('createFetchBudget', () => {
  it('grants leases while bytes and fetches fit, then first come, first served', async () => {
    const budget = createFetchBudget(100, 3)
    const a = await budget.acquire(60)
    const order: string[] = []
    const b = budget.acquire(50).then((lease) => (order.push('b'), lease))
    const c = budget.acquire(10).then((lease) => (order.push('c'), lease))
    await settle()
    // c would fit, but b came first: nothing overtakes a fetch that waits (no starvation of large ones).
    expect(order).toEqual([])
    expect([budget.bytesInFlight, budget.fetchesInFlight]).toEqual([60, 1])
    a.shrink(20)
    await settle()
    expect(order).toEqual(['b', 'c'])
    expect([budget.bytesInFlight, budget.fetchesInFlight]).toEqual([80, 3])
    const d = budget.acquire(1).then((lease) => (order.push('d'), lease))
    await settle()
    expect(order).toEqual(['b', 'c']) // three fetches at most
    ;(await b).release()
    ;(await b).release() // twice gives back once
    await settle()
    expect(order).toEqual(['b', 'c', 'd'])
    expect([budget.bytesInFlight, budget.fetchesInFlight]).toEqual([31, 3])
    a.release()
    ;(await c).release()
    ;(await d).release()
    expect([budget.bytesInFlight, budget.fetchesInFlight]).toEqual([0, 0])
  })

  it('lets a fetch larger than the whole budget run alone rather than wait forever', async () => {
    const budget = createFetchBudget(100, 8)
    const small = await budget.acquire(10)
    let started = false
    const big = budget.acquire(1000).then((lease) => ((started = true), lease))
    await settle()
    expect(started).toBe(false)
    small.release()
    await settle()
    expect(started).toBe(true)
    expect(budget.bytesInFlight).toBe(100)
    ;(await big).release()
  })
})

describe('fetchOutgoing with a budget', () => {
  const options = { field: 'source.url', allowPrivateNetwork: false, maxBytes: 1000 }

  it('holds its cap until the headers come, then only the length announced, and gives it back', async () => {
    const budget = createFetchBudget(5000, 8)
    const seen: number[] = []
    const fn = (async () => {
      seen.push(budget.bytesInFlight)
      const body = new ReadableStream<Uint8Array>({
        // A stream pulls once when made: the chunk comes a macrotask later, as it would from the network.
        async pull(controller) {
          await settle()
          seen.push(budget.bytesInFlight)
          controller.enqueue(new Uint8Array(40))
          controller.close()
        },
      })
      return new Response(body, { headers: { 'content-length': '40' } })
    }) as typeof fetch
    const got = await fetchOutgoing(fn, 'https://example.com/a', { ...options, budget })
    expect(got.bytes.byteLength).toBe(40)
    expect(seen).toEqual([1000, 40])
    expect(budget.bytesInFlight).toBe(0)
  })

  it('keeps the cap for an encoded body (its Content-Length is not the length read), and refuses a body longer than it announced', async () => {
    const budget = createFetchBudget(5000, 8)
    let during = 0
    const encoded = (async () => {
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          await settle()
          during = budget.bytesInFlight
          controller.enqueue(new Uint8Array(50))
          controller.close()
        },
      })
      return new Response(body, { headers: { 'content-length': '10', 'content-encoding': 'gzip' } })
    }) as typeof fetch
    expect((await fetchOutgoing(encoded, 'https://example.com/gz', { ...options, budget })).bytes.byteLength).toBe(50)
    expect(during).toBe(1000)
    const liar = (async () => new Response(new Uint8Array(50), { headers: { 'content-length': '10' } })) as typeof fetch
    const error = await fetchOutgoing(liar, 'https://example.com/liar', { ...options, budget }).catch((e: unknown) => e)
    expect(ApiError.isApiError(error) && error.message).toBe(
      'Invalid request: body field `source.url`: could not fetch the URL: the server sent more than the 10 bytes its Content-Length announced',
    )
    expect(budget.bytesInFlight).toBe(0)
  })

  it('gives the lease back when the fetch fails', async () => {
    const budget = createFetchBudget(5000, 1)
    const failing = (async () => {
      throw new TypeError('fetch failed')
    }) as typeof fetch
    await expect(fetchOutgoing(failing, 'https://example.com/x', { ...options, budget })).rejects.toThrow('could not fetch the URL: fetch failed')
    expect([budget.bytesInFlight, budget.fetchesInFlight]).toEqual([0, 0])
  })
})
