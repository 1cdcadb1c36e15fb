/**
 * Whether a failed fetch failed because the connection broke before an answer came: the server
 * closed or reset it, typically a kept-alive socket it had already dropped (the next request on
 * it finds "other side closed"). Node's fetch (undici) throws `TypeError('fetch failed')` with the
 * socket's error as `cause` (its `code`: ECONNRESET, EPIPE, UND_ERR_SOCKET...); other runtimes
 * throw their own words. A name that does not resolve, a refused connection or a TLS failure is no
 * broken connection: sending again would fail the same way.
 */
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED'])
const RESET_WORDS = /other side closed|socket hang up|connection reset|connection closed|broken pipe/i

export function isConnectionReset(error: unknown): boolean {
  for (let e = error, depth = 0; typeof e === 'object' && e !== null && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown }
    if (typeof code === 'string' && RESET_CODES.has(code)) return true
    if (typeof message === 'string' && RESET_WORDS.test(message)) return true
  }
  return false
}
