import { describe, expect, it } from 'vitest'
import { ApiError } from '../../src/core/errors.js'
import { addressRefusal, checkOutgoingUrl, fetchOutgoing, refusalIn, refusedAddressError } from '../../src/core/outgoing.js'

const field = 'changes[0].files[0].url'
const guarded = { field, allowPrivateNetwork: false }
const open = { field, allowPrivateNetwork: true }

/** The ApiError a call throws (or rejects with), for assertions on code, status and message. */
async function failure(call: () => unknown): Promise<ApiError> {
  try {
    await call()
  } catch (error) {
    if (ApiError.isApiError(error)) return error
    throw error
  }
  throw new Error('expected an ApiError')
}

/** A fake fetch answering from a table of URL -> response maker, recording the URLs and init it was given. */
function fakeFetch(routes: Record<string, () => Response>) {
  const calls: Array<{ url: string; init: RequestInit | undefined }> = []
  const fn = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input)
    calls.push({ url, init })
    const route = routes[url]
    if (!route) throw new TypeError(`fetch failed: no route for ${url}`)
    return route()
  }) as typeof fetch
  return { fn, calls }
}

const redirect =
  (to: string, status = 302) =>
  () =>
    new Response(null, { status, headers: { location: to } })

describe('checkOutgoingUrl', () => {
  it.each([
    ['http://127.0.0.1/', /loopback/],
    ['http://127.1:8080/admin', /loopback/],
    ['http://0x7f000001/', /127\.0\.0\.1 is a loopback address/],
    ['http://0x7f.1/', /loopback/],
    ['http://2130706433/', /loopback/],
    ['http://10.1.2.3/', /private/],
    ['http://172.16.0.1/', /private/],
    ['http://172.31.255.255/', /private/],
    ['http://192.168.1.1/', /private/],
    ['http://169.254.169.254/latest/meta-data/', /link-local/],
    ['http://100.64.0.1/', /carrier-grade NAT/],
    ['http://0.0.0.0/', /unspecified/],
    ['http://224.0.0.1/', /multicast/],
    ['http://255.255.255.255/', /broadcast/],
    ['http://192.0.2.1/', /reserved/],
    ['http://[::1]/', /loopback/],
    ['http://[::]/', /unspecified/],
    ['http://[fc00::1]/', /unique-local/],
    ['http://[fd12:3456::1]/', /unique-local/],
    ['http://[fe80::1]/', /link-local/],
    ['http://[ff02::1]/', /multicast/],
    ['http://[::ffff:127.0.0.1]/', /loopback/],
    ['http://[::ffff:10.0.0.1]/', /private/],
    ['http://[::127.0.0.1]/', /IPv4-compatible/],
    ['http://[64:ff9b::a00:1]/', /special-purpose address \(rfc6052\)/],
    ['http://localhost:3000/', /local host name/],
    ['http://LOCALHOST./', /local host name/],
    ['http://foo.localhost/', /local host name/],
    ['http://printer.local/', /local host name/],
    ['http://metadata.google.internal/', /local host name/],
    ['http://intranet/', /single-label/],
    ['ftp://example.com/a.png', /only http and https URLs can be fetched, not ftp:/],
    ['file:///etc/passwd', /not file:/],
    ['data:image/png;base64,AAAA', /not data:/],
    ['javascript:alert(1)', /not javascript:/],
    ['not a url', /not a valid URL/],
  ])('refuses %s', async (url, message) => {
    const error = await failure(() => checkOutgoingUrl(url, guarded))
    expect(error.code).toBe('BAD_REQUEST')
    expect(error.status).toBe(400)
    expect(error.message).toMatch(`Invalid request: body field \`${field}\`: `)
    expect(error.message).toMatch(message)
  })

  it.each([
    'https://example.com/x.png',
    'http://93.184.216.34/a',
    'https://[2606:2800:220:1:248:1893:25c8:1946]/',
    'http://[::ffff:93.184.216.34]/',
    'http://8.8.8.8:8080/',
  ])('allows %s', (url) => {
    expect(checkOutgoingUrl(url, guarded)).toBeInstanceOf(URL)
  })

  it.each(['http://127.0.0.1/', 'http://10.0.0.1/', 'http://[::1]/', 'http://localhost:3000/', 'http://169.254.169.254/'])(
    'allows %s with allowPrivateNetwork',
    (url) => {
      expect(checkOutgoingUrl(url, open).href).toBe(url)
    },
  )

  it.each(['ftp://localhost/', 'file:///etc/passwd', 'data:text/plain,hi', 'javascript:alert(1)'])('still refuses %s with allowPrivateNetwork', async (url) => {
    expect((await failure(() => checkOutgoingUrl(url, open))).message).toMatch(/only http and https/)
  })
})

describe('fetchOutgoing', () => {
  it('returns the bytes, content type and URL, asking the fetch not to follow redirects', async () => {
    const { fn, calls } = fakeFetch({
      'https://example.com/a.png': () => new Response(new Uint8Array([1, 2, 3]), { headers: { 'content-type': 'image/png' } }),
    })
    const result = await fetchOutgoing(fn, 'https://example.com/a.png', guarded)
    expect(result).toEqual({ bytes: new Uint8Array([1, 2, 3]), contentType: 'image/png', url: 'https://example.com/a.png' })
    expect(calls[0]!.init?.redirect).toBe('manual')
    expect(calls[0]!.init?.signal).toBeInstanceOf(AbortSignal)
  })

  it('refuses before fetching anything when the URL is refused', async () => {
    const { fn, calls } = fakeFetch({})
    expect((await failure(() => fetchOutgoing(fn, 'http://169.254.169.254/', guarded))).message).toMatch(/link-local/)
    expect(calls).toEqual([])
  })

  it('follows redirects, relative ones too, checking each', async () => {
    const { fn } = fakeFetch({
      'https://example.com/a': redirect('/b', 301),
      'https://example.com/b': redirect('https://cdn.example.org/c', 307),
      'https://cdn.example.org/c': () => new Response('done'),
    })
    const result = await fetchOutgoing(fn, 'https://example.com/a', guarded)
    expect(new TextDecoder().decode(result.bytes)).toBe('done')
    expect(result.url).toBe('https://cdn.example.org/c')
    expect(result.contentType).toBe('text/plain;charset=UTF-8')
  })

  it('refuses a redirect to a private address without fetching it', async () => {
    const { fn, calls } = fakeFetch({ 'https://example.com/a': redirect('http://169.254.169.254/latest/meta-data/') })
    const error = await failure(() => fetchOutgoing(fn, 'https://example.com/a', guarded))
    expect(error.code).toBe('BAD_REQUEST')
    expect(error.message).toMatch(
      `body field \`${field}\`: could not fetch the URL: redirected to http://169.254.169.254/latest/meta-data/: 169.254.169.254 is a link-local address`,
    )
    expect(calls.map((c) => c.url)).toEqual(['https://example.com/a'])
  })

  it('refuses a redirect to another scheme even with allowPrivateNetwork', async () => {
    const { fn } = fakeFetch({ 'http://localhost/a': redirect('file:///etc/passwd') })
    expect((await failure(() => fetchOutgoing(fn, 'http://localhost/a', open))).message).toMatch(/only http and https/)
  })

  it('stops a redirect loop after 5 hops', async () => {
    const { fn, calls } = fakeFetch({ 'https://example.com/loop': redirect('https://example.com/loop') })
    const error = await failure(() => fetchOutgoing(fn, 'https://example.com/loop', guarded))
    expect(error.message).toMatch(/more than 5 redirects/)
    expect(calls).toHaveLength(6)
  })

  it('answers a 400 naming the status for a non-2xx answer or a redirect without Location', async () => {
    const { fn } = fakeFetch({
      'https://example.com/missing': () => new Response('nope', { status: 404 }),
      'https://example.com/r': () => new Response(null, { status: 302 }),
    })
    const missing = await failure(() => fetchOutgoing(fn, 'https://example.com/missing', guarded))
    expect(missing.status).toBe(400)
    expect(missing.message).toBe(`Invalid request: body field \`${field}\`: could not fetch the URL: the server answered 404`)
    expect((await failure(() => fetchOutgoing(fn, 'https://example.com/r', guarded))).message).toMatch(/answered 302 without a Location/)
  })

  it('answers a 400 for a network error', async () => {
    const error = await failure(() => fetchOutgoing(fakeFetch({}).fn, 'https://example.com/down', guarded))
    expect(error.status).toBe(400)
    expect(error.message).toMatch(/could not fetch the URL: fetch failed/)
  })

  it('refuses a body over the cap while reading it, without a Content-Length', async () => {
    let pulled = 0
    const endless = () =>
      new Response(
        new ReadableStream<Uint8Array>({
          pull(controller) {
            pulled++
            controller.enqueue(new Uint8Array(400))
          },
        }),
      )
    const error = await failure(() =>
      fetchOutgoing(fakeFetch({ 'https://example.com/big': endless }).fn, 'https://example.com/big', { ...guarded, maxBytes: 1000 }),
    )
    expect(error.code).toBe('PAYLOAD_TOO_LARGE')
    expect(error.status).toBe(413)
    expect(error.message).toMatch(`body field \`${field}\`: the file at the URL is larger than 1000 bytes`)
    expect(pulled).toBeLessThan(10)
  })

  it('refuses a body whose Content-Length is over the cap, and accepts one exactly at it', async () => {
    const { fn } = fakeFetch({
      'https://example.com/declared': () => new Response('x', { headers: { 'content-length': '5000' } }),
      'https://example.com/exact': () => new Response(new Uint8Array(1000)),
    })
    expect((await failure(() => fetchOutgoing(fn, 'https://example.com/declared', { ...guarded, maxBytes: 1000 }))).code).toBe('PAYLOAD_TOO_LARGE')
    expect((await fetchOutgoing(fn, 'https://example.com/exact', { ...guarded, maxBytes: 1000 })).bytes.byteLength).toBe(1000)
  })

  it('times out a fetch that never answers', async () => {
    const never = (() => new Promise<Response>(() => undefined)) as typeof fetch
    const started = Date.now()
    const error = await failure(() => fetchOutgoing(never, 'https://example.com/slow', { ...guarded, timeoutMs: 50 }))
    expect(error.code).toBe('BAD_REQUEST')
    expect(error.message).toBe(`Invalid request: body field \`${field}\`: could not fetch the URL: no answer within 50 ms`)
    expect(Date.now() - started).toBeLessThan(2000)
  })

  it('times out a body that stops arriving', async () => {
    const stalled = () => new Response(new ReadableStream<Uint8Array>({ start: (controller) => controller.enqueue(new Uint8Array(1)) }))
    const error = await failure(() =>
      fetchOutgoing(fakeFetch({ 'https://example.com/stall': stalled }).fn, 'https://example.com/stall', { ...guarded, timeoutMs: 50 }),
    )
    expect(error.message).toMatch(/no answer within 50 ms/)
  })
})

describe('refusals of a fetch that resolves names', () => {
  it('judges resolved addresses by the ranges of a host written as one', () => {
    expect(addressRefusal('93.184.216.34')).toBeUndefined()
    expect(addressRefusal('2606:2800:220:1::')).toBeUndefined()
    expect(addressRefusal('127.0.0.1')).toBe('a loopback address')
    expect(addressRefusal('169.254.169.254')).toBe('a link-local address')
    expect(addressRefusal('::ffff:10.0.0.1')).toBe('a private address')
    expect(addressRefusal('fe80::1%eth0')).toBe('a link-local address')
    expect(addressRefusal('not-an-address')).toBe('not an IP address')
  })

  it('answers a refusal in the cause of the fetch failure as the 400 of a private host, naming the field (and the redirect that led there)', async () => {
    const refused = () => {
      throw new TypeError('fetch failed', { cause: refusedAddressError('files.example.com', 'resolves to 127.0.0.1, a loopback address') })
    }
    const { fn } = fakeFetch({ 'https://files.example.com/a.png': refused, 'https://cdn.example.com/a.png': redirect('https://files.example.com/a.png') })
    const first = await failure(() => fetchOutgoing(fn, 'https://files.example.com/a.png', guarded))
    expect([first.status, first.message]).toEqual([
      400,
      `Invalid request: body field \`${field}\`: files.example.com resolves to 127.0.0.1, a loopback address; only public addresses can be fetched`,
    ])
    const hop = await failure(() => fetchOutgoing(fn, 'https://cdn.example.com/a.png', guarded))
    expect(hop.message).toBe(
      `Invalid request: body field \`${field}\`: could not fetch the URL: redirected to https://files.example.com/a.png: files.example.com resolves to 127.0.0.1, a loopback address; only public addresses can be fetched`,
    )
    // Any other failure keeps its own message.
    expect(refusalIn(new TypeError('fetch failed', { cause: new Error('ECONNREFUSED') }))).toBeUndefined()
  })
})
