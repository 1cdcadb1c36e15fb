import { mkdtempSync, writeFileSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runCli, type CliIo } from '../../src/cli/main.js'
import { serve as serveApi, type RunningServer } from '../../src/cli/serve.js'

function io(env: Record<string, string | undefined> = {}) {
  const out: string[] = []
  const err: string[] = []
  const value: CliIo = { out: (t) => void out.push(t), err: (t) => void err.push(t), env }
  return { io: value, out: () => out.join(''), err: () => err.join('') }
}

/** A port nothing listens on right now. */
async function freePort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done))
  const { port } = probe.address() as AddressInfo
  await new Promise((done) => probe.close(done))
  return port
}

const running: RunningServer[] = []
afterEach(async () => {
  for (const r of running.splice(0)) await r.close()
})

async function serve(args: string[], env: Record<string, string | undefined> = {}) {
  const t = io(env)
  const result = await runCli(['serve', '--port', '0', ...args], t.io)
  if (typeof result === 'number') throw new Error(`exit ${result}: ${t.err()}`)
  running.push(result)
  return { server: result, banner: t.out() }
}

/** The curl lines of a banner, as [request init, url]: `-X` method, `-H "name: value"` headers, a `-d '...'` body, the URL last. */
const curlLines = (banner: string) =>
  banner
    .split('\n')
    .filter((l) => l.trim().startsWith('curl '))
    .map((l) => {
      const line = l.trim()
      const headers: Record<string, string> = {}
      for (const [, header] of line.matchAll(/-H "([^"]+)"/g)) headers[header!.split(': ')[0]!.toLowerCase()] = header!.split(': ')[1]!
      const body = /-d '([^']*)'/.exec(line)?.[1]
      const method = /-X (\w+)/.exec(line)?.[1] ?? 'GET'
      const url = line.split(' ').pop()!.replace(/^"|"$/g, '')
      return [{ method, headers, ...(body !== undefined && { body }) }, url] as const
    })

describe('cli: docs-content-api serve', () => {
  it('serves the demo data and prints tokens and curl lines that answer 200', async () => {
    const { server, banner } = await serve([])
    expect(banner).toMatch(/^docs-content-api on http:\/\/localhost:\d+ \(demo data, in memory/)
    expect(banner).toContain('organization  Acme Docs')
    expect(banner).toMatch(/token {2}gb_api_\S+ {3}\(Ada Lovelace, admin\)/)
    expect(banner).toMatch(/token {2}gb_api_\S+ {3}\(Rita Reader, read\)/)
    const lines = curlLines(banner)
    expect(lines.length).toBe(6) // the last: the control plane's reset
    for (const [init, url] of lines) {
      expect(url.startsWith(server.url)).toBe(true)
      const res = await fetch(url, init)
      expect(res.status, url).toBe(200)
      const body = await res.text()
      // The demo's pages are there to find: the search line finds the Installation page.
      if (url.includes('/search?')) expect(JSON.parse(body).items.flatMap((s: any) => s.pages.map((p: any) => p.title))).toContain('Installation')
      // The published site's URL resolves to a site token that reads the site, as GitBook's renderer uses it.
      if (url.endsWith('/v1/urls/published')) {
        const { site, organization, apiToken } = JSON.parse(body)
        const profile = await fetch(`${server.url}/v1/orgs/${organization}/sites/${site}/published`, { headers: { authorization: `Bearer ${apiToken}` } })
        expect(profile.status).toBe(200)
      }
    }
  })

  it('--seed serves a state document; --cors answers browsers; the admin token is printed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-'))
    const file = join(dir, 'state.json')
    writeFileSync(
      file,
      JSON.stringify({
        users: [{ id: 'ada', displayName: 'Ada' }],
        tokens: [{ id: 'gb_api_seeded_token', user: 'ada' }],
        organizations: [{ id: 'acme', title: 'Acme' }],
        members: [{ organization: 'acme', user: 'ada', role: 'admin' }],
      }),
    )
    const { server, banner } = await serve(['--seed', file, '--cors'])
    expect(banner).toContain('(in memory: data is lost on exit; CORS on)')
    expect(banner).toContain('token  gb_api_seeded_token   (Ada, admin)')
    const res = await fetch(`${server.url}/v1/orgs`, { headers: { authorization: 'Bearer gb_api_seeded_token', origin: 'https://app.test' } })
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(((await res.json()) as any).items.map((o: any) => o.id)).toEqual(['acme'])
    const preflight = await fetch(`${server.url}/v1/orgs`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.test', 'access-control-request-method': 'GET' },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, HEAD, POST, OPTIONS')
  })

  it('PORT and DEMO_TOKEN from the environment; /openapi.json is served', async () => {
    const { server, banner } = await serve([], { DEMO_TOKEN: 'gb_api_fixed_token' })
    expect(banner).toContain('token  gb_api_fixed_token   (Ada Lovelace, admin)')
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as any
    expect(doc.servers[0].url).toBe(server.url)
  })

  it('fetches files through the guard that resolves names; --allow-private-network lets it reach this machine', async () => {
    /** Insert, on a new change request of the demo's first space, a file fetched from `url`. */
    const insert = async (server: RunningServer, url: string) => {
      const auth = { authorization: 'Bearer gb_api_guard_token', 'content-type': 'application/json' }
      const orgs = (await (await fetch(`${server.url}/v1/orgs`, { headers: auth })).json()) as any
      const spaces = (await (await fetch(`${server.url}/v1/orgs/${orgs.items[0].id}/spaces`, { headers: auth })).json()) as any
      const base = `${server.url}/v1/spaces/${spaces.items[0].id}/change-requests`
      const cr = (await (await fetch(base, { method: 'POST', headers: auth, body: '{}' })).json()) as any
      const res = await fetch(`${base}/${cr.id}/content?compat=false`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ changes: [{ operation: 'insert_files', files: [{ name: 'openapi.json', url }] }] }),
      })
      return { status: res.status, body: (await res.json()) as any }
    }
    const env = { DEMO_TOKEN: 'gb_api_guard_token' }
    const { server: closed } = await serve([], env)
    const own = (server: RunningServer) => `${server.url.replace('localhost', '127.0.0.1')}/openapi.json`
    const refused = await insert(closed, own(closed))
    expect(refused.status).toBe(400)
    expect(refused.body.error.message).toMatch(/body field `changes\[0\]\.files\[0\]\.url`: 127\.0\.0\.1 is a loopback address/)
    const { server: open, banner } = await serve(['--allow-private-network'], env)
    expect(banner).toContain('; outgoing requests may reach private addresses)')
    const fetched = await insert(open, own(open))
    expect(fetched.status).toBe(200)
    expect(fetched.body.insertedFiles[0]).toMatchObject({ name: 'openapi.json', contentType: expect.stringMatching(/^application\/json/) })
    // A name is resolved (here by a stub: no DNS in tests) and refused for a private address it resolves to.
    const asked: string[] = []
    const lookup = async (hostname: string) => (asked.push(hostname), [{ address: '127.0.0.1', family: 4 }])
    const guarded = await serveApi({ port: 0, adminToken: 'gb_api_guard_token', lookup })
    running.push(guarded)
    const byName = await insert(guarded, `http://files.example.com:${new URL(guarded.url).port}/openapi.json`)
    expect(byName.status).toBe(400)
    expect(byName.body.error.message).toContain('files.example.com resolves to 127.0.0.1, a loopback address; only public addresses can be fetched')
    expect(asked).toEqual(['files.example.com'])
  })

  it('demo-seed prints the demo data as a state document that serve takes back', async () => {
    const t = io()
    expect(await runCli(['demo-seed'], t.io)).toBe(0)
    const state = JSON.parse(t.out())
    expect(state.format).toBe('docs-content-api/state')
    expect(state.organizations.map((o: any) => o.title)).toEqual(['Acme Docs'])
    const dir = mkdtempSync(join(tmpdir(), 'cli-'))
    writeFileSync(join(dir, 'demo.json'), t.out())
    const { server } = await serve(['--seed', join(dir, 'demo.json')])
    expect(server.api.dump()).toEqual(state)
  })

  it('usage mistakes exit 2 with the help; a seed the API refuses exits 1 naming the row', async () => {
    for (const args of [['nope'], ['serve', '--port', 'abc'], ['serve', '--bogus'], ['serve', 'extra'], ['serve', '--seed', '/no/such/file.json'], []]) {
      const t = io()
      expect(await runCli(args, t.io), args.join(' ')).toBe(2)
      expect(t.err() + t.out()).toContain('Usage: docs-content-api <command>')
    }
    const help = io()
    expect(await runCli(['--help'], help.io)).toBe(0)
    const dir = mkdtempSync(join(tmpdir(), 'cli-'))
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ tokens: [{ id: 'gb_api_nobody_x', user: 'ghost' }] }))
    const t = io()
    expect(await runCli(['serve', '--port', '0', '--seed', join(dir, 'bad.json')], t.io)).toBe(1)
    expect(t.err()).toContain('Invalid seed: `tokens[0].user`: no user "ghost"')
    // Nothing was left listening: the same port can be taken again.
    const port = await freePort()
    expect(await runCli(['serve', '--port', String(port), '--seed', join(dir, 'bad.json')], io().io)).toBe(1)
    const again = await runCli(['serve', '--port', String(port)], io().io)
    expect(typeof again).toBe('object')
    running.push(again as RunningServer)
  })
})
