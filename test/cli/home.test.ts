import { request } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { INDEX_LIMIT, indexHtml, isLocalHostHeader, isLoopbackHost, serveIndex, type ServeIndex } from '../../src/cli/home.js'
import { serve, type RunningServer } from '../../src/cli/serve.js'
import type { StateDocument } from '../../src/state/seed.js'

const running: RunningServer[] = []
afterEach(async () => {
  for (const r of running.splice(0)) await r.close()
})

async function start(options: Parameters<typeof serve>[0] = {}) {
  const server = await serve({ port: 0, ...options })
  running.push(server)
  return server
}

/** The src and href attributes of an HTML page, in order. */
const refs = (html: string) => [...html.matchAll(/\s(?:src|href)="([^"]*)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'))

describe('serve: GET / lists what is served', () => {
  it('as HTML: organizations, sites with their URLs, tokens with whose they are, links that answer', async () => {
    const server = await start()
    const res = await fetch(`${server.url}/`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(res.headers.get('cache-control')).toBe('no-store')
    const html = await res.text()
    const index = serveIndex({ api: server.api, url: server.url, host: '127.0.0.1' })
    expect(html).toContain('Acme Docs')
    for (const site of ['Acme Docs', 'Acme Partners', 'Acme Internal']) expect(html).toContain(site)
    // Every published site's URL, and where the share-link and visitor-auth sites open, as the banner prints them.
    const banner = server.banner()
    const bannerUrls = [...banner.matchAll(/^ +(?:site .*|opens at) (https:\/\/\S+)$/gm)].map((m) => m[1]!)
    expect(bannerUrls.length).toBe(5)
    const links = refs(html)
    for (const url of bannerUrls) expect(links).toContain(url)
    for (const [, token, who] of banner.matchAll(/token {2}(\S+) {3}\(([^)]+)\)/g)) {
      expect(html).toContain(`<code>${token}</code> (${who})`)
    }
    expect(index.tokens.length).toBe(2)
    // The links to the OpenAPI document and the reference answer.
    expect(links).toContain(`${server.url}/openapi.json`)
    expect(links).toContain(`${server.url}/reference`)
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as { openapi: string }
    expect(doc.openapi).toMatch(/^3\./)
    expect((await fetch(`${server.url}/reference`)).status).toBe(200)
    // No script and no external asset: nothing to load but the links a person follows.
    expect(html).not.toMatch(/<script|<link|<img/)
  })

  it('as JSON with Accept: application/json: the documented structure; its tokens call the API', async () => {
    const server = await start()
    const res = await fetch(`${server.url}/`, { headers: { accept: 'application/json' } })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(res.headers.get('vary')).toBe('Accept')
    const index = (await res.json()) as ServeIndex
    expect(index.url).toBe(server.url)
    expect(index.secretsShown).toBe(true)
    expect(index.links).toEqual({ openapi: `${server.url}/openapi.json`, reference: `${server.url}/reference` })
    expect(index.organizations.map((o) => o.title)).toEqual(['Acme Docs'])
    const sites = index.organizations[0]!.sites
    expect(sites.map((s) => [s.title, s.visibility, s.published])).toEqual([
      ['Acme Docs', 'public', true],
      ['Acme Partners', 'share-link', true],
      ['Acme Internal', 'visitor-auth', true],
    ])
    const [docs, partners, internal] = sites
    expect(docs!.opensAt).toBeUndefined()
    expect(partners!.opensAt?.startsWith(`${partners!.url}/`)).toBe(true)
    expect(internal!.opensAt?.startsWith(`${internal!.url}?jwt_token=`)).toBe(true)
    // The published URL resolves through the API, as GitBook's renderer calls it.
    const resolved = await fetch(`${server.url}/v1/urls/published`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: docs!.url }),
    })
    expect(((await resolved.json()) as { site: string }).site).toBe(docs!.id)
    expect(index.tokens.map((t) => t.who)).toEqual(['Ada Lovelace, admin', 'Rita Reader, read'])
    for (const t of index.tokens) {
      const orgs = await fetch(`${server.url}/v1/orgs`, { headers: { authorization: `Bearer ${t.token}` } })
      expect(orgs.status).toBe(200)
    }
    // HTML is what a browser gets (it prefers text/html); JSON only when preferred.
    const browser = await fetch(`${server.url}/`, { headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' } })
    expect(browser.headers.get('content-type')).toBe('text/html; charset=utf-8')
    const weighted = await fetch(`${server.url}/`, { headers: { accept: 'text/html;q=0.5, application/json' } })
    expect(weighted.headers.get('content-type')).toBe('application/json; charset=utf-8')
  })

  it('escapes titles (user data) and lists unpublished sites without a URL', async () => {
    const seed = {
      users: [{ id: 'ada', displayName: 'Ada <b>Lovelace</b>' }],
      tokens: [{ id: 'gb_api_seeded_token', user: 'ada' }],
      organizations: [{ id: 'acme', title: '<script>alert("org")</script> & Co' }],
      members: [{ organization: 'acme', user: 'ada', role: 'admin' }],
      sites: [
        { id: 'site1', organization: 'acme', type: 'basic', title: '<script>alert(1)</script>', visibility: 'public', published: true, basename: 'docs' },
        { id: 'site2', organization: 'acme', type: 'basic', title: 'Draft "one"', visibility: 'public', published: false },
      ],
    } as unknown as StateDocument
    const server = await start({ seed })
    const html = await (await fetch(`${server.url}/`)).text()
    expect(html).not.toContain('<script')
    expect(html).not.toContain('<b>')
    expect(html).toContain('&lt;script&gt;alert(&quot;org&quot;)&lt;/script&gt; &amp; Co')
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(html).toContain('Draft &quot;one&quot; <span class="muted">(not published, public)</span>')
    expect(html).toContain('<code>gb_api_seeded_token</code> (Ada &lt;b&gt;Lovelace&lt;/b&gt;, admin)')
    const index = (await (await fetch(`${server.url}/`, { headers: { accept: 'application/json' } })).json()) as ServeIndex
    expect(index.organizations[0]!.title).toBe('<script>alert("org")</script> & Co')
    const [published, draft] = index.organizations[0]!.sites
    expect(published!.url).toMatch(/^https?:\/\/.+\/docs$/)
    expect(draft).toEqual({ id: 'site2', title: 'Draft "one"', visibility: 'public', published: false })
  })

  it('lists at most INDEX_LIMIT organizations and tokens, and says how many more there are', async () => {
    const n = INDEX_LIMIT + 30
    const users = Array.from({ length: n }, (_, i) => ({ id: `u${i}`, displayName: `User ${i}` }))
    const seed = {
      users,
      tokens: users.map((u) => ({ id: `gb_api_token_${u.id}`, user: u.id })),
      organizations: Array.from({ length: n }, (_, i) => ({ id: `org${i}`, title: `Org ${i}` })),
    } as unknown as StateDocument
    const server = await start({ seed })
    const index = (await (await fetch(`${server.url}/`, { headers: { accept: 'application/json' } })).json()) as ServeIndex
    expect(index.organizations).toHaveLength(INDEX_LIMIT)
    expect(index.tokens).toHaveLength(INDEX_LIMIT)
    expect(index.totals).toEqual({ organizations: n, tokens: n })
    const html = await (await fetch(`${server.url}/`)).text()
    expect(html).toContain(`And 30 more organizations (the first ${INDEX_LIMIT} are listed).`)
    expect(html).toContain(`And 30 more tokens (the first ${INDEX_LIMIT} are listed).`)
  })

  it('shows secrets only on a loopback host: elsewhere, token owners without the token, sites without their keys', async () => {
    const server = await start()
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost']) expect(isLoopbackHost(host), host).toBe(true)
    for (const host of ['0.0.0.0', '::', '192.168.1.10', 'example.com', '::ffff:10.0.0.1']) expect(isLoopbackHost(host), host).toBe(false)
    const index = serveIndex({ api: server.api, url: server.url, host: '0.0.0.0' })
    expect(index.secretsShown).toBe(false)
    expect(index.tokens).toEqual([
      { user: expect.any(String), who: 'Ada Lovelace, admin' },
      { user: expect.any(String), who: 'Rita Reader, read' },
    ])
    expect(index.organizations[0]!.sites.every((s) => s.opensAt === undefined && s.url)).toBe(true)
    expect(JSON.stringify(index)).not.toContain('gb_api_')
    const html = indexHtml(index)
    expect(html).not.toContain('gb_api_')
    expect(html).not.toContain('jwt_token')
    expect(html).toContain('<li>(Ada Lovelace, admin)</li>')
    expect(html).toContain('Tokens are not shown here')
  })

  it('shows no secret to a request naming another host (a DNS-rebinding page), whatever the interface', async () => {
    const server = await start()
    const port = new URL(server.url).port
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`]) expect(isLocalHostHeader(host, server.url), host).toBe(true)
    expect(isLocalHostHeader(`docs.example:${port}`, 'http://docs.example:4000')).toBe(true)
    for (const host of [`attacker.example:${port}`, '', undefined]) expect(isLocalHostHeader(host, server.url), String(host)).toBe(false)
    // Through HTTP: node's http client sends the Host header asked for.
    const body = await new Promise<string>((done, fail) => {
      const req = request({ host: '127.0.0.1', port, path: '/', headers: { host: `attacker.example:${port}`, accept: 'application/json' } }, (res) => {
        let text = ''
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk))
        res.on('end', () => done(text))
      })
      req.on('error', fail).end()
    })
    const index = JSON.parse(body) as ServeIndex
    expect(index.secretsShown).toBe(false)
    expect(index.tokens.map((t) => t.who)).toEqual(['Ada Lovelace, admin', 'Rita Reader, read'])
    expect(body).not.toContain('gb_api_')
    expect(body).not.toContain('jwt_token')
  })

  it('answers HEAD without a body, refuses other methods with 405, and leaves the API its paths', async () => {
    const server = await start()
    const head = await fetch(`${server.url}/`, { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(0)
    expect(await head.text()).toBe('')
    const post = await fetch(`${server.url}/`, { method: 'POST' })
    expect(post.status).toBe(405)
    expect(post.headers.get('allow')).toBe('GET, HEAD')
    expect(((await post.json()) as { error: { message: string } }).error.message).toContain('only GET and HEAD')
    expect((await fetch(`${server.url}/v1/orgs`)).status).toBe(401)
  })
})

describe('serve: GET /reference, Swagger UI from swagger-ui-dist', () => {
  it('an HTML page whose every file is served locally, with its content type and caching headers', async () => {
    const server = await start()
    const res = await fetch(`${server.url}/reference`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
    const html = await res.text()
    const files = refs(html)
    // The bundle, the preset, the initializer, the style sheets and the icons: all on this server (no CDN).
    expect(files.length).toBe(7)
    const types: Record<string, string> = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8', png: 'image/png' }
    for (const file of files) {
      expect(file.startsWith('/reference/'), file).toBe(true)
      const asset = await fetch(new URL(file, server.url))
      expect(asset.status, file).toBe(200)
      expect(asset.headers.get('content-type'), file).toBe(types[file.split('.').pop()!])
      expect(asset.headers.get('x-content-type-options')).toBe('nosniff')
      const body = Buffer.from(await asset.arrayBuffer())
      expect(body.length, file).toBeGreaterThan(0)
      expect(Number(asset.headers.get('content-length'))).toBe(body.length)
      if (file.endsWith('initializer.js')) {
        expect(body.toString()).toContain("url: '/openapi.json'")
        expect(asset.headers.get('cache-control')).toBe('no-cache')
        continue
      }
      if (file.endsWith('.png')) expect([...body.subarray(1, 4)]).toEqual([0x50, 0x4e, 0x47])
      // The package's own files: cached for a day, then revalidated by their ETag (the package's version).
      expect(asset.headers.get('cache-control')).toBe('public, max-age=86400')
      const etag = asset.headers.get('etag')!
      expect(etag).toMatch(/^"swagger-ui-dist@\d+\.\d+\.\d+\//)
      const again = await fetch(new URL(file, server.url), { headers: { 'if-none-match': etag } })
      expect(again.status).toBe(304)
      expect(await again.text()).toBe('')
    }
    expect(html).toMatch(/<script src="\/reference\/swagger-ui-bundle\.js">/)
    // The bundle is Swagger UI's: it defines what the initializer calls.
    const bundle = await (await fetch(`${server.url}/reference/swagger-ui-bundle.js`)).text()
    expect(bundle).toContain('SwaggerUIBundle')
    // What the initializer loads answers, as JSON.
    const doc = await fetch(`${server.url}/openapi.json`)
    expect(doc.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(((await doc.json()) as { paths: object }).paths).toBeTypeOf('object')
  })

  it('answers 404 for a file it does not serve (nothing else of the package, no path out of it)', async () => {
    const server = await start()
    for (const path of ['/reference/package.json', '/reference/..%2Fpackage.json', '/reference/swagger-initializer.js', '/reference/nope.js']) {
      const res = await fetch(`${server.url}${path}`)
      expect(res.status, path).toBe(404)
      expect(((await res.json()) as { error: { message: string } }).error.message).toContain('No file')
    }
  })
})
