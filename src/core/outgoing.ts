import ipaddr from 'ipaddr.js'
import { ApiError } from './errors.js'
import type { FetchBudget } from './outgoing-limits.js'

/**
 * The guard for every request the library makes on a client's behalf (a file imported from a
 * URL, say): without it, a client could make the server read its own network (a cloud metadata
 * endpoint at 169.254.169.254, an admin page on localhost) and hand back the answer.
 *
 * Limit: the code is runtime-neutral, and web standards have no DNS lookup, so only the host as
 * written is checked. A public-looking name that resolves to a private address is not caught
 * here: the `fetch` the API was given must add that check. On Node, `createGuardedFetch` of
 * `docs-content-api/node` does (every address of the name checked by the same rules, the
 * connection made to the address checked), and the `serve` command uses it; the fetch throws
 * `refusedAddressError` for what it refuses, which `fetchOutgoing` answers as the 400 of a host
 * refused as written.
 */

const DEFAULT_MAX_BYTES = 10 * 1024 * 1024
const DEFAULT_TIMEOUT_MS = 10_000
const MAX_REDIRECTS = 5

/** How a refused range is named in the error message (ipaddr.js's range names otherwise). */
const RANGE_WORDS: Readonly<Record<string, string>> = {
  private: 'a private address',
  loopback: 'a loopback address',
  linkLocal: 'a link-local address',
  uniqueLocal: 'a unique-local address',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
  reserved: 'a reserved address',
  unspecified: 'the unspecified address',
  carrierGradeNat: 'a carrier-grade NAT address',
  ipv4Compatible: 'an IPv4-compatible IPv6 address',
}

const LOCAL_SUFFIXES = ['.localhost', '.local', '.internal']

interface Options {
  field: string
  allowPrivateNetwork: boolean
}

function invalid(field: string, why: string): ApiError {
  return new ApiError('BAD_REQUEST', `Invalid request: body field \`${field}\`: ${why}`)
}

function couldNotFetch(field: string, why: string): ApiError {
  return invalid(field, `could not fetch the URL: ${why}`)
}

/** The errors of fetches that ran out of time (a job records a timeout apart from other failures). */
const timedOut = new WeakSet<object>()

/** Whether `error` is a `fetchOutgoing` failure because no answer came within its time limit. */
export function isFetchTimeout(error: unknown): boolean {
  return typeof error === 'object' && error !== null && timedOut.has(error)
}

/**
 * The ipaddr.js range of an address, with IPv4-mapped IPv6 (::ffff:a.b.c.d) judged by its IPv4
 * address. ipaddr.js calls the deprecated IPv4-compatible form (::a.b.c.d) unicast; some stacks
 * still route it to the IPv4 address, so it is refused too.
 */
function rangeOf(address: ipaddr.IPv4 | ipaddr.IPv6): string {
  if (address.kind() === 'ipv4') return address.range()
  const v6 = address as ipaddr.IPv6
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().range()
  const range = v6.range()
  return range === 'unicast' && v6.parts.slice(0, 6).every((p) => p === 0) ? 'ipv4Compatible' : range
}

/** Why an address is not public (`a loopback address`), or undefined when it is. */
function addressWhy(address: ipaddr.IPv4 | ipaddr.IPv6): string | undefined {
  const range = rangeOf(address)
  return range === 'unicast' ? undefined : (RANGE_WORDS[range] ?? `a special-purpose address (${range})`)
}

/**
 * Why an IP address (as a resolver gives it: `127.0.0.1`, `::1`, `fe80::1%eth0`) is not public,
 * or undefined when it is; an address that does not parse is refused. The rules of the host as
 * written, for what a name resolves to.
 */
export function addressRefusal(address: string): string | undefined {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6
  try {
    parsed = ipaddr.parse(address)
  } catch {
    return 'not an IP address'
  }
  return addressWhy(parsed)
}

/** Why a host (a URL's hostname) is not public, or undefined when it is, as far as can be told without DNS. */
export function hostRefusal(hostname: string): string | undefined {
  // The WHATWG URL parser has already turned every IPv4 form (0x7f.1, 2130706433, 0177.0.0.1)
  // into dotted decimal and lower-cased names; a trailing dot names the same host.
  const host = hostname.replace(/\.+$/, '')
  if (host.startsWith('[') && host.endsWith(']')) return addressWhy(ipaddr.IPv6.parse(host.slice(1, -1)))
  if (ipaddr.IPv4.isValidFourPartDecimal(host)) return addressWhy(ipaddr.IPv4.parse(host))
  if (host === 'localhost' || LOCAL_SUFFIXES.some((suffix) => host.endsWith(suffix))) return 'a local host name'
  // A name without a dot resolves only through a local search domain (http://metadata/, http://intranet/).
  if (!host.includes('.')) return 'a single-label host name, which only a local network resolves'
  return undefined
}

/** The brand of a refusal by a guarding fetch: a symbol of the global registry, so it holds across copies of this module (the ESM and CJS builds, the entries' bundles). */
const REFUSED = Symbol.for('docs-content-api.refused-address')

/**
 * The error a guarding fetch (one that resolves names, `createGuardedFetch`) throws, or gives as
 * the `cause` of its TypeError, for a host it will not connect to: `reason` is the sentence
 * `fetchOutgoing` and Git Sync answer with (`files.example.com resolves to 127.0.0.1, a loopback
 * address; only public addresses can be fetched`).
 */
export function refusedAddressError(host: string, why: string): Error {
  const reason = `${host} ${why}; only public addresses can be fetched`
  return Object.assign(new Error(reason), { [REFUSED]: reason })
}

/** The reason of a refusal by a guarding fetch, found in `error` or its chain of causes; undefined for any other failure. */
export function refusalIn(error: unknown): string | undefined {
  for (let e = error, depth = 0; typeof e === 'object' && e !== null && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    const reason = (e as { [REFUSED]?: unknown })[REFUSED]
    if (typeof reason === 'string') return reason
  }
  return undefined
}

/** What is wrong with fetching a parsed URL, or undefined when nothing is. */
function problemWith(url: URL, allowPrivateNetwork: boolean): string | undefined {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `only http and https URLs can be fetched, not ${url.protocol}`
  if (allowPrivateNetwork) return undefined
  const why = hostRefusal(url.hostname)
  return why && `${url.hostname} is ${why}; only public addresses can be fetched`
}

/**
 * Throws ApiError('BAD_REQUEST', message naming the field and rule) unless `url` is an http(s)
 * URL to a public address; private, loopback, link-local, unique-local, multicast, reserved,
 * unspecified, carrier-grade NAT, IPv4-mapped IPv6 of those, and hostnames `localhost`/
 * `*.localhost`/`*.local`/`*.internal` are refused unless `allowPrivateNetwork`.
 */
export function checkOutgoingUrl(url: string, options: { field: string; allowPrivateNetwork: boolean }): URL {
  const { field } = options
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw invalid(field, 'not a valid URL')
  }
  const problem = problemWith(parsed, options.allowPrivateNetwork)
  if (problem) throw invalid(field, problem)
  return parsed
}

/** Settle with `promise`, or reject with the signal's reason once it aborts (a fetch may ignore its signal). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason)
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort)
        resolve(value)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort)
        reject(error)
      },
    )
  })
}

/** Let go of a body that will not be read (frees the connection). */
function discard(response: Response): void {
  response.body?.cancel().catch(() => undefined)
}

/**
 * The body length the headers announce, when it is the length of the body `fetch` hands over
 * (not with a Content-Encoding: fetch decodes the body, so it may be longer than announced).
 */
function announcedLength(response: Response): number | undefined {
  const encoding = response.headers.get('content-encoding')
  if (encoding && encoding.trim().toLowerCase() !== 'identity') return undefined
  const value = response.headers.get('content-length')
  return value !== null && /^\d+$/.test(value.trim()) ? Number(value) : undefined
}

/**
 * Read the body, stopping as soon as it exceeds `maxBytes` or the length it announced (the
 * Content-Length may be absent or lie). `onBytes` hears of each chunk as it comes (and may throw
 * to stop the read: a budget shared by several fetches).
 */
async function readCapped(response: Response, maxBytes: number, field: string, signal: AbortSignal, onBytes?: (bytes: number) => void): Promise<Uint8Array> {
  const tooLarge = () => new ApiError('PAYLOAD_TOO_LARGE', `Invalid request: body field \`${field}\`: the file at the URL is larger than ${maxBytes} bytes`)
  const announced = announcedLength(response)
  // An encoded length over the cap is refused too: decoded, the body is rarely smaller.
  if (Number(response.headers.get('content-length')) > maxBytes) {
    discard(response)
    throw tooLarge()
  }
  if (!response.body) return new Uint8Array()
  const reader = response.body.getReader()
  // With a Content-Length, the bytes go straight into one array of that size (no list of chunks
  // kept, then copied: half the memory, and less for the garbage collector to do).
  const whole = announced !== undefined ? new Uint8Array(announced) : undefined
  const chunks: Uint8Array[] = []
  let total = 0
  try {
    for (;;) {
      const { done, value } = await untilAborted(reader.read(), signal)
      if (done) break
      if (total + value.byteLength > maxBytes) throw tooLarge()
      if (announced !== undefined && total + value.byteLength > announced)
        throw couldNotFetch(field, `the server sent more than the ${announced} bytes its Content-Length announced`)
      if (whole) whole.set(value, total)
      else chunks.push(value)
      total += value.byteLength
      onBytes?.(value.byteLength)
    }
  } catch (error) {
    reader.cancel().catch(() => undefined)
    throw error
  }
  if (whole) return total === whole.byteLength ? whole : whole.slice(0, total)
  const bytes = new Uint8Array(total)
  let at = 0
  for (const chunk of chunks) {
    bytes.set(chunk, at)
    at += chunk.byteLength
  }
  return bytes
}

const REDIRECTS = new Set([301, 302, 303, 307, 308])

/**
 * Fetch through the given fetch with the guard. Redirects are not followed by the fetch
 * (`redirect: 'manual'`): each Location is checked like the first URL (a public host could
 * otherwise redirect to a private one), at most 5 hops. The body is capped at `maxBytes`
 * (default 10 MiB) while it is read, a 413 PAYLOAD_TOO_LARGE: the file is part of what the
 * client asked to store. The whole exchange, redirects and body included, has `timeoutMs`
 * (default 10 s). Any other failure (network error, a status other than 2xx) is a 400 naming
 * the field. Returns the bytes, the content-type header and the URL finally fetched.
 *
 * With a `budget` (core/outgoing-limits.ts), the fetch starts once it holds a lease of `maxBytes`
 * (its time limit runs from then), keeps only the Content-Length its server announces, and gives
 * the lease back when it settles. `onBytes` hears of each chunk of the body as it is read.
 */
export async function fetchOutgoing(
  fetchFn: typeof fetch,
  url: string,
  options: { field: string; allowPrivateNetwork: boolean; maxBytes?: number; timeoutMs?: number; budget?: FetchBudget; onBytes?: (bytes: number) => void },
): Promise<{ bytes: Uint8Array; contentType?: string; url: string }> {
  const { field } = options
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  let target = checkOutgoingUrl(url, options)
  const lease = await options.budget?.acquire(maxBytes)
  const { signal, clear } = timeLimit(timeoutMs)
  let hops = 0
  try {
    for (; ; hops++) {
      const response = await untilAborted(fetchFn(target.href, { redirect: 'manual', signal }), signal)
      if (REDIRECTS.has(response.status)) {
        discard(response)
        const location = response.headers.get('location')
        if (!location) throw couldNotFetch(field, `the server answered ${response.status} without a Location`)
        if (hops >= MAX_REDIRECTS) throw couldNotFetch(field, `more than ${MAX_REDIRECTS} redirects`)
        target = redirectTarget(location, target, options)
        continue
      }
      // A browser's fetch hides a manual redirect behind an opaque response (status 0): it cannot be checked, so not followed.
      if (response.type === 'opaqueredirect' || response.status === 0) throw couldNotFetch(field, 'the server redirected, and the redirect cannot be inspected')
      if (!response.ok) {
        discard(response)
        throw couldNotFetch(field, `the server answered ${response.status}`)
      }
      const announced = announcedLength(response)
      if (announced !== undefined) lease?.shrink(Math.min(announced, maxBytes))
      const bytes = await readCapped(response, maxBytes, field, signal, options.onBytes)
      const contentType = response.headers.get('content-type') ?? undefined
      return { bytes, contentType, url: target.href }
    }
  } catch (error) {
    if (ApiError.isApiError(error)) throw error
    // The fetch resolved the name and refused its address: the 400 of a host refused as written.
    const refused = refusalIn(error)
    if (refused) throw hops === 0 ? invalid(field, refused) : couldNotFetch(field, `redirected to ${target.href}: ${refused}`)
    if (signal.aborted) {
      const late = couldNotFetch(field, `no answer within ${timeoutMs} ms`)
      timedOut.add(late)
      throw late
    }
    throw couldNotFetch(field, error instanceof Error ? error.message : String(error))
  } finally {
    clear()
    lease?.release()
  }
}

/**
 * A signal that aborts after `ms`, driven by a timer that keeps the event loop alive while the
 * request is pending (`AbortSignal.timeout`'s timer does not: in a plain Node script a fetch that
 * never settles let the process exit before the timeout was recorded). `clear` stops the timer
 * once the exchange settled, so nothing waits on it afterwards.
 */
function timeLimit(ms: number): { signal: AbortSignal; clear: () => void } {
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(new DOMException(`The operation timed out after ${ms} ms`, 'TimeoutError')), ms)
  return { signal: controller.signal, clear: () => clearTimeout(timer) }
}

/** The next URL of a redirect, checked like the first one (the message says the refused URL came from a redirect). */
function redirectTarget(location: string, from: URL, options: Options): URL {
  let next: URL
  try {
    next = new URL(location, from)
  } catch {
    throw couldNotFetch(options.field, 'the server redirected to an invalid URL')
  }
  const problem = problemWith(next, options.allowPrivateNetwork)
  if (problem) throw couldNotFetch(options.field, `redirected to ${next.href}: ${problem}`)
  return next
}
