import type { IntegrationExecutionContext, IntegrationHandler } from './delivery-options.js'

/**
 * One attempt at delivering an event to an in-process handler, as the platform's dispatcher
 * calls an integration's script (the conventions of `@gitbook/runtime`): a `POST` to `/v1` whose
 * multipart form holds `event` and `environment` as JSON, signed with the integration's signing
 * secret (HMAC-SHA256 of the body, hex, in `x-gitbook-integration-signature`).
 */
export interface Dispatch {
  url: string
  event: unknown
  environment: unknown
  signingSecret: string
}

/** What an attempt came to: delivered, or failed, and whether a retry may do better. */
export type Outcome = { ok: true; status: number } | { ok: false; retry: boolean; reason: string }

/** Statuses worth another attempt (the handler may answer otherwise later); any other non-2xx refuses the event. */
const RETRIED = new Set([408, 429])

async function sign(secret: string, body: string): Promise<string> {
  const enc = new TextEncoder()
  const key = await crypto.subtle.importKey('raw', enc.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, enc.encode(body)))
  return [...mac].map((b) => b.toString(16).padStart(2, '0')).join('')
}

/** The request a script receives for this event. */
export async function dispatchRequest(d: Dispatch): Promise<Request> {
  const form = new FormData()
  form.set('event', JSON.stringify(d.event))
  form.set('environment', JSON.stringify(d.environment))
  // Serialize once to sign the very bytes the handler reads.
  const draft = new Request(d.url, { method: 'POST', body: form })
  const body = await draft.text()
  const headers = { 'content-type': draft.headers.get('content-type')!, 'x-gitbook-integration-signature': await sign(d.signingSecret, body) }
  return new Request(d.url, { method: 'POST', headers, body })
}

const excerpt = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}…` : text)
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

/** Call the handler once; never throws. `timeout` bounds the answer and what it handed to `waitUntil`. */
export async function attempt(handler: IntegrationHandler, request: Request, timeout: number): Promise<Outcome> {
  const waiting: Promise<unknown>[] = []
  const ctx: IntegrationExecutionContext = { waitUntil: (p) => void waiting.push(Promise.resolve(p)), passThroughOnException: () => {} }
  let timer: ReturnType<typeof setTimeout> | undefined
  const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeout)))
  try {
    const run = (async () => {
      const response: unknown = await handler(request, {}, ctx)
      const settled = await Promise.allSettled(waiting)
      return { response, settled }
    })()
    const result = await Promise.race([run, timedOut])
    if (result === 'timeout') return { ok: false, retry: true, reason: `the handler did not answer within ${timeout} ms` }
    const { response, settled } = result
    if (!(response instanceof Response)) return { ok: false, retry: false, reason: 'the handler answered something other than a Response' }
    const rejected = settled.find((s) => s.status === 'rejected')
    if (response.ok && rejected)
      return { ok: false, retry: true, reason: `a promise handed to waitUntil failed: ${messageOf((rejected as PromiseRejectedResult).reason)}` }
    if (response.ok) return { ok: true, status: response.status }
    const text = await response.text().catch(() => '')
    const retry = response.status >= 500 || RETRIED.has(response.status)
    return { ok: false, retry, reason: `the handler answered ${response.status}${text ? `: ${excerpt(text)}` : ''}` }
  } catch (error) {
    return { ok: false, retry: true, reason: `the handler threw: ${messageOf(error)}` }
  } finally {
    clearTimeout(timer)
  }
}
