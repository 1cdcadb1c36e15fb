import { readFile } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { createRequire } from 'node:module'
import { isIP } from 'node:net'
import { dirname, join } from 'node:path'
import type { DocsApi } from '../api.js'
import { API_CORE } from '../http/api-core.js'
import type { ReadContext } from '../domains/context.js'
import { siteBaseUrl } from '../domains/sites/urls.js'

/**
 * The pages `serve` answers besides the API (docs/guide/command-line.md#the-index-and-the-api-reference):
 * - `GET /`: an index of what is served (organizations, sites and their URLs, the tokens), as HTML,
 *   or as JSON (`ServeIndex`) with `Accept: application/json`;
 * - `GET /reference`: Swagger UI over `/openapi.json`, its files served from the swagger-ui-dist
 *   package under `/reference/` (no CDN).
 */

export interface HomeOptions {
  api: DocsApi
  /** The server's base URL (`RunningServer.url`). */
  url: string
  /** The interface serve listens on: secrets are shown only on a loopback one. */
  host: string
  /** The demo's visitor tokens, by visitor-auth site (as the banner has them). */
  visitorTokens?: Record<string, string>
}

/** `GET /` as JSON. */
export interface ServeIndex {
  /** The server's base URL. */
  url: string
  /** Whether secrets (tokens, share-link keys, visitor tokens) are shown: only when serve listens on a loopback host. */
  secretsShown: boolean
  organizations: Array<{
    id: string
    title: string
    sites: Array<{
      id: string
      title: string
      visibility: string
      published: boolean
      /** The published site's URL (published sites only). */
      url?: string
      /** Where the site opens: a share-link site's URL with an active link's key, a visitor-auth one's with the demo's visitor token (`?jwt_token=`); with secrets shown only. */
      opensAt?: string
    }>
  }>
  tokens: Array<{
    /** The token itself; left out when secrets are not shown. */
    token?: string
    /** The user's id. */
    user: string
    /** Display name and roles, as the banner says it: `Ada Lovelace, admin`. */
    who: string
  }>
  /** How many organizations and tokens there are in all: each list shows the first INDEX_LIMIT. */
  totals: { organizations: number; tokens: number }
  links: { openapi: string; reference: string }
}

/**
 * At most this many organizations, sites per organization and tokens are listed: a served API
 * seeded with thousands of them answers its index in bounded time (the totals say how many there are).
 */
export const INDEX_LIMIT = 100

/** Whether `host` is a loopback interface (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase()
  if (h === 'localhost' || h.endsWith('.localhost')) return true
  if (isIP(h) === 4) return h.startsWith('127.')
  if (isIP(h) === 6) return h === '::1' || /^(0{0,4}:){7}0{0,3}1$/.test(h) || /^::ffff:127\./.test(h)
  return false
}

/**
 * Whether a request's Host header names this server as a browser on this machine reaches it: a
 * loopback name or address, or the base URL's host. Any other name resolved to 127.0.0.1 (DNS
 * rebinding: a web page's own name pointed at this machine) reads the index without secrets.
 */
export function isLocalHostHeader(hostHeader: string | undefined, url: string): boolean {
  if (!hostHeader) return false
  const name = hostHeader.replace(/:\d+$/, '')
  if (isLoopbackHost(name)) return true
  try {
    return name.toLowerCase() === new URL(url).hostname.toLowerCase()
  } catch {
    return false
  }
}

/**
 * What `GET /` lists: the state as it is now. Secrets are shown when serve listens on a loopback
 * host and, for a request (`hostHeader` given), when its Host header is a local one (`isLocalHostHeader`).
 */
export function serveIndex(options: HomeOptions, request: { hostHeader?: string } = {}): ServeIndex {
  const { api, url } = options
  const secretsShown = isLoopbackHost(options.host) && (!('hostHeader' in request) || isLocalHostHeader(request.hostHeader, url))
  const { urls } = api[API_CORE].runtime
  return api.store.read((tx) => {
    const ctx = { tx, urls } as unknown as ReadContext
    const allOrganizations = tx.all('organizations')
    const organizations = allOrganizations.slice(0, INDEX_LIMIT).map((org) => ({
      id: org.id,
      title: org.title,
      sites: tx.scan('sites', 'byOrganization', org.id, { limit: INDEX_LIMIT }).map(({ row: site }) => {
        const siteUrl = site.published ? siteBaseUrl(ctx, site) : undefined
        let opensAt: string | undefined
        if (siteUrl && secretsShown && site.visibility === 'share-link') {
          const link = tx.scan('shareLinks', 'bySite', site.id).find((e) => e.row.active)?.row
          if (link) opensAt = `${siteUrl}/${encodeURIComponent(link.key)}`
        }
        const visitorToken = site.visibility === 'visitor-auth' ? options.visitorTokens?.[site.id] : undefined
        if (siteUrl && secretsShown && visitorToken) opensAt = `${siteUrl}?jwt_token=${encodeURIComponent(visitorToken)}`
        return {
          id: site.id,
          title: site.title,
          visibility: site.visibility,
          published: site.published,
          ...(siteUrl !== undefined && { url: siteUrl }),
          ...(opensAt !== undefined && { opensAt }),
        }
      }),
    }))
    const allTokens = tx.all('tokens')
    const tokens = allTokens.slice(0, INDEX_LIMIT).map((t) => {
      const user = tx.get('users', t.user)
      const roles = tx.scan('members', 'byUser', t.user).map((m) => m.row.role ?? 'guest')
      const who = `${user?.displayName ?? t.user}${roles.length ? `, ${[...new Set(roles)].join('/')}` : ''}`
      return { ...(secretsShown && { token: t.id }), user: t.user, who }
    })
    const totals = { organizations: allOrganizations.length, tokens: allTokens.length }
    return { url, secretsShown, organizations, tokens, totals, links: { openapi: `${url}/openapi.json`, reference: `${url}/reference` } }
  })
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

/** A link when `href` is an http(s) URL, else the text alone. */
function link(href: string | undefined, text: string): string {
  if (!href || !/^https?:\/\//i.test(href)) return escapeHtml(text)
  return `<a href="${escapeHtml(href)}">${escapeHtml(text)}</a>`
}

/** The index as a self-contained HTML page: no script, no external asset. */
export function indexHtml(index: ServeIndex): string {
  const out: string[] = [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    '<title>docs-content-api</title>',
    '<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}',
    'code{font:13px ui-monospace,monospace;background:#f3f3f3;padding:1px 4px;border-radius:3px;word-break:break-all}',
    'h2{margin-top:2rem;border-bottom:1px solid #ddd}ul{padding-left:1.2rem}li{margin:.3rem 0}.muted{color:#666}</style>',
    '</head><body>',
    `<h1>docs-content-api</h1>`,
    `<p>The API on ${link(index.url, index.url)}. ${link(index.links.reference, 'API reference')} (Swagger UI) · ${link(index.links.openapi, 'OpenAPI document')}</p>`,
    '<h2>Organizations and sites</h2>',
  ]
  if (!index.organizations.length) out.push('<p class="muted">No organization.</p>')
  for (const org of index.organizations) {
    out.push(`<h3>${escapeHtml(org.title)} <code>${escapeHtml(org.id)}</code></h3>`)
    if (!org.sites.length) {
      out.push('<p class="muted">No site.</p>')
      continue
    }
    out.push('<ul>')
    for (const site of org.sites) {
      const state = `${site.published ? 'published' : 'not published'}, ${site.visibility}`
      const opens = site.opensAt ? `<br>opens at ${link(site.opensAt, site.opensAt)}` : ''
      out.push(
        `<li>${escapeHtml(site.title)} <span class="muted">(${escapeHtml(state)})</span> <code>${escapeHtml(site.id)}</code>${site.url ? `<br>${link(site.url, site.url)}` : ''}${opens}</li>`,
      )
    }
    out.push('</ul>')
  }
  const more = (shown: number, total: number, what: string) =>
    total > shown && out.push(`<p class="muted">And ${total - shown} more ${what} (the first ${shown} are listed).</p>`)
  more(index.organizations.length, index.totals.organizations, 'organizations')
  out.push('<h2>Tokens</h2>')
  if (!index.tokens.length) out.push('<p class="muted">No token.</p>')
  else {
    if (!index.secretsShown)
      out.push(
        '<p class="muted">Tokens are not shown here: the server listens on a host that is not loopback, or this request named another host than a loopback one or the server&#39;s (the banner lists them).</p>',
      )
    out.push('<ul>')
    for (const t of index.tokens) out.push(`<li>${t.token ? `<code>${escapeHtml(t.token)}</code> ` : ''}(${escapeHtml(t.who)})</li>`)
    out.push('</ul>')
    more(index.tokens.length, index.totals.tokens, 'tokens')
    out.push('<p class="muted">Send one as <code>Authorization: Bearer &lt;token&gt;</code>.</p>')
  }
  out.push('</body></html>', '')
  return out.join('\n')
}

/** Whether the request's Accept prefers JSON to HTML. */
function wantsJson(accept: string | undefined): boolean {
  if (!accept) return false
  const q = (type: string) => {
    let best = -1
    for (const part of accept.split(',')) {
      const [media, ...params] = part.trim().toLowerCase().split(';')
      if (media !== type && media !== `${type.split('/')[0]}/*` && media !== '*/*') continue
      const weight = Number(/^\s*q=([\d.]+)/.exec(params.find((p) => /^\s*q=/.test(p)) ?? '')?.[1] ?? 1)
      // An exact type counts over a wildcard.
      best = Math.max(best, media === type ? weight + 0.0001 : weight)
    }
    return best
  }
  const json = q('application/json')
  return json > 0 && json > q('text/html')
}

/** The files of swagger-ui-dist served under /reference/, with their content types. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'index.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
}

/** Where swagger-ui-dist is installed, and its version. */
let dist: { dir: string; version: string } | undefined
function swaggerUiDist(): { dir: string; version: string } {
  if (dist) return dist
  const require = createRequire(import.meta.url)
  const manifest = require.resolve('swagger-ui-dist/package.json')
  dist = { dir: dirname(manifest), version: (require(manifest) as { version: string }).version }
  return dist
}

const REFERENCE_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>docs-content-api: API reference</title>
<link rel="stylesheet" href="/reference/swagger-ui.css">
<link rel="stylesheet" href="/reference/index.css">
<link rel="icon" type="image/png" href="/reference/favicon-32x32.png" sizes="32x32">
<link rel="icon" type="image/png" href="/reference/favicon-16x16.png" sizes="16x16">
</head><body>
<div id="swagger-ui"></div>
<script src="/reference/swagger-ui-bundle.js"></script>
<script src="/reference/swagger-ui-standalone-preset.js"></script>
<script src="/reference/initializer.js"></script>
</body></html>
`

/** Swagger UI over the served OpenAPI document (the page's own origin). */
const INITIALIZER_JS = `window.onload = function () {
  window.ui = SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: 'StandaloneLayout',
  })
}
`

/** The package's files, read once. */
const assetCache = new Map<string, Promise<Buffer>>()

type Send = (status: number, headers: Record<string, string>, body?: string | Buffer) => void

/**
 * A request handler for `/`, `/reference` and `/reference/*`: answers them and returns true, or
 * returns false for every other path (the API's).
 */
export function createHomeHandler(options: HomeOptions): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    const path = (req.url ?? '/').split('?')[0]!
    if (path !== '/' && path !== '/reference' && !path.startsWith('/reference/')) return false
    const head = req.method === 'HEAD'
    const send: Send = (status, headers, body) => {
      const bytes = body === undefined ? undefined : typeof body === 'string' ? Buffer.from(body) : body
      res.writeHead(status, { 'x-content-type-options': 'nosniff', ...headers, ...(bytes && { 'content-length': String(bytes.length) }) })
      res.end(head ? undefined : bytes)
    }
    const error = (status: number, message: string, headers: Record<string, string> = {}) =>
      send(
        status,
        { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
        JSON.stringify({ error: { code: status, message } }),
      )
    if (req.method !== 'GET' && !head) {
      error(405, `${req.method} ${path}: only GET and HEAD`, { allow: 'GET, HEAD' })
      return true
    }
    if (path === '/') {
      const index = serveIndex(options, { hostHeader: req.headers.host })
      // The index may hold tokens: never cached.
      const common = { 'cache-control': 'no-store', vary: 'Accept' }
      if (wantsJson(req.headers.accept)) send(200, { ...common, 'content-type': 'application/json; charset=utf-8' }, JSON.stringify(index, null, 2))
      else
        send(
          200,
          {
            ...common,
            'content-type': 'text/html; charset=utf-8',
            'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'",
          },
          indexHtml(index),
        )
      return true
    }
    if (path === '/reference' || path === '/reference/') {
      send(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' }, REFERENCE_HTML)
      return true
    }
    const name = path.slice('/reference/'.length)
    if (name === 'initializer.js') {
      send(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' }, INITIALIZER_JS)
      return true
    }
    const type = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined
    if (!type) {
      error(404, `No file ${path} (the reference's files: ${Object.keys(ASSETS).join(', ')}, initializer.js)`)
      return true
    }
    const { dir, version } = swaggerUiDist()
    // The package's files change only with its version: revalidated by it after a day.
    const etag = `"swagger-ui-dist@${version}/${name}"`
    const caching = { etag, 'cache-control': 'public, max-age=86400' }
    if (req.headers['if-none-match']?.split(/\s*,\s*/).includes(etag)) {
      send(304, caching)
      return true
    }
    let bytes = assetCache.get(name)
    if (!bytes) {
      bytes = readFile(join(dir, name))
      assetCache.set(name, bytes)
      bytes.catch(() => assetCache.delete(name))
    }
    bytes.then(
      (body) => send(200, { ...caching, 'content-type': type }, body),
      (cause: Error) => error(500, `swagger-ui-dist: ${name} cannot be read (${cause.message})`),
    )
    return true
  }
}
