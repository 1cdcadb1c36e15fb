/**
 * CORS, opt-in (`cors: true` or options): browsers on other origins may call the API. Every
 * answer to a request with an allowed `Origin` carries `Access-Control-Allow-Origin`; a preflight
 * (`OPTIONS` with `Access-Control-Request-Method`) is answered 204 with the methods of the path.
 */
export interface CorsOptions {
  /**
   * Origins allowed: `'*'`, one origin, a list, or a predicate.
   * @default '*'
   * @example ['https://app.example.com']
   */
  origin?: '*' | string | readonly string[] | ((origin: string) => boolean)
  /** Send `Access-Control-Allow-Credentials: true` (the origin is then echoed, never `*`). @default false */
  credentials?: boolean
  /** Seconds a browser may cache a preflight answer. @default 600 */
  maxAge?: number
  /** Request headers allowed when the preflight names none. @default ['authorization', 'content-type', 'prefer'] */
  allowHeaders?: readonly string[]
  /** Response headers scripts may read. @default ['location', 'retry-after', 'www-authenticate', 'allow'] */
  exposeHeaders?: readonly string[]
}

export interface Cors {
  /** Headers to add to the answer of a request from `origin` (none when the origin is not allowed). */
  headers(origin: string | null): Record<string, string> | undefined
  /** Headers of a preflight answer for a path serving `methods`, given the request's headers (`header(name)`, as `Headers.get`). */
  preflight(header: (name: string) => string | null, methods: readonly string[]): Record<string, string> | undefined
}

export function createCors(options: boolean | CorsOptions | undefined): Cors | undefined {
  if (!options) return undefined
  const o: CorsOptions = options === true ? {} : options
  const origin = o.origin ?? '*'
  const allowed = (value: string): boolean =>
    origin === '*' || (typeof origin === 'function' ? origin(value) : typeof origin === 'string' ? origin === value : origin.includes(value))
  // `*` cannot go with credentials, and a list or predicate must name the one origin it allowed.
  const echo = o.credentials || origin !== '*'
  const expose = (o.exposeHeaders ?? ['location', 'retry-after', 'www-authenticate', 'allow']).join(', ')
  const headers = (value: string | null): Record<string, string> | undefined => {
    if (value === null || !allowed(value)) return undefined
    const out: Record<string, string> = { 'access-control-allow-origin': echo ? value : '*', 'access-control-expose-headers': expose }
    if (echo) out.vary = 'Origin'
    if (o.credentials) out['access-control-allow-credentials'] = 'true'
    return out
  }
  return {
    headers,
    preflight(header, methods) {
      const base = headers(header('origin'))
      if (!base || !header('access-control-request-method')) return undefined
      return {
        ...base,
        vary: echo ? 'Origin, Access-Control-Request-Headers' : 'Access-Control-Request-Headers',
        'access-control-allow-methods': methods.join(', '),
        'access-control-allow-headers': header('access-control-request-headers') ?? (o.allowHeaders ?? ['authorization', 'content-type', 'prefer']).join(', '),
        'access-control-max-age': String(o.maxAge ?? 600),
      }
    },
  }
}
