import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runCli, type CliIo } from '../../src/cli/main.js'
import { loggedPath, type RunningServer } from '../../src/cli/serve.js'

/** The command line's options, through runCli in this process (test/cli/process.test.ts runs it as a child). */

function io(env: Record<string, string | undefined> = {}) {
  const out: string[] = []
  const err: string[] = []
  const value: CliIo = { out: (t) => void out.push(t), err: (t) => void err.push(t), env }
  return { io: value, out: () => out.join(''), err: () => err.join('') }
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
  return { server: result, ...t }
}

/** Run to an exit code. */
async function exit(args: string[], env: Record<string, string | undefined> = {}) {
  const t = io(env)
  const code = await runCli(args, t.io)
  if (typeof code !== 'number') {
    running.push(code)
    throw new Error('it served')
  }
  return { code, out: t.out(), err: t.err() }
}

const scratch = () => mkdtempSync(join(tmpdir(), 'cli-options-'))

/** A seed of one user (with a token unless `token` is false). */
function seedFile(token = true): string {
  const file = join(scratch(), 'state.json')
  writeFileSync(file, JSON.stringify({ users: [{ id: 'ada', displayName: 'Ada' }], ...(token && { tokens: [{ id: 'gb_api_seeded_token', user: 'ada' }] }) }))
  return file
}

describe('cli: request log', () => {
  it('a line per request: method, path, status, operationId, ms; JSON lines with --log json; none with --quiet', async () => {
    const text = await serve([], { DEMO_TOKEN: 'gb_api_log_token' })
    const before = text.out().length
    await fetch(`${text.server.url}/v1/orgs`, { headers: { authorization: 'Bearer gb_api_log_token' } })
    await fetch(`${text.server.url}/v1/nowhere?jwt_token=secret1&token=secret2&page=2`)
    await fetch(`${text.server.url}/openapi.json`)
    await expect.poll(() => text.out().slice(before).split('\n').length).toBeGreaterThanOrEqual(4)
    const lines = text.out().slice(before).trim().split('\n')
    expect(lines[0]).toMatch(/^GET \/v1\/orgs 200 listOrganizationsForAuthenticatedUser \d+(\.\d)?ms$/)
    expect(lines[1]).toMatch(/^GET \/v1\/nowhere\?jwt_token=\*\*\*&token=\*\*\*&page=2 404 \d+(\.\d)?ms$/)
    expect(lines[2]).toMatch(/^GET \/openapi\.json 200 \d+(\.\d)?ms$/)
    expect(text.out()).not.toContain('secret1')
    expect(text.out()).not.toContain('secret2')

    const json = await serve(['--log', 'json'], { DEMO_TOKEN: 'gb_api_log_token' })
    const start = json.out().length
    await fetch(`${json.server.url}/v1/orgs`, { headers: { authorization: 'Bearer gb_api_log_token' } })
    await expect.poll(() => json.out().length).toBeGreaterThan(start)
    const entry = JSON.parse(json.out().slice(start))
    expect(entry).toEqual({
      time: expect.any(String),
      method: 'GET',
      path: '/v1/orgs',
      status: 200,
      operationId: 'listOrganizationsForAuthenticatedUser',
      ms: expect.any(Number),
    })
    expect(Number.isNaN(Date.parse(entry.time))).toBe(false)

    const quiet = await serve(['--quiet'])
    const banner = quiet.out()
    expect((await fetch(`${quiet.server.url}/v1/orgs`)).status).toBe(401)
    await new Promise((done) => setTimeout(done, 50))
    expect(quiet.out()).toBe(banner)

    expect((await exit(['serve', '--log', 'xml'])).err).toContain('--log xml: must be text or json')
    expect((await exit(['serve', '--quiet', '--log', 'json'])).code).toBe(2)
  })

  it('loggedPath writes secret query values as ***', () => {
    expect(loggedPath('/v1/orgs')).toBe('/v1/orgs')
    expect(loggedPath('/site?jwt_token=abc&x=1&access%5Ftoken=def&apiToken=g&q')).toBe('/site?jwt_token=***&x=1&access%5Ftoken=***&apiToken=***&q')
  })
})

describe('cli: options', () => {
  it('the banner names the home page and the API reference', async () => {
    const { server, out } = await serve([])
    expect(out()).toContain(`Home page:      ${server.url}/\nAPI reference:  ${server.url}/reference\n`)
  })

  it('--admin-token and DEMO_TOKEN: applied to the demo data and demo-seed, refused with a seed or a data directory holding other tokens', async () => {
    const seed = seedFile()
    const flag = await exit(['serve', '--port', '0', '--seed', seed, '--admin-token', 'gb_api_x'])
    expect(flag.code).toBe(2)
    expect(flag.err).toContain("--admin-token is the demo admin's: a seed brings its own tokens (put the token in the seed's `tokens`)")
    const env = await exit(['serve', '--port', '0', '--seed', seed], { DEMO_TOKEN: 'gb_api_x' })
    expect(env.code).toBe(2)
    expect(env.err).toContain("DEMO_TOKEN is the demo admin's")

    const printed = await exit(['demo-seed', '--admin-token', 'gb_api_printed_token'])
    expect(JSON.parse(printed.out).tokens.map((t: { id: string }) => t.id)).toContain('gb_api_printed_token')
    const fromEnv = await exit(['demo-seed'], { DEMO_TOKEN: 'gb_api_env_token' })
    expect(JSON.parse(fromEnv.out).tokens.map((t: { id: string }) => t.id)).toContain('gb_api_env_token')

    const dir = join(scratch(), 'data')
    const first = await serve(['--data', dir, '--admin-token', 'gb_api_first_token'])
    expect(first.out()).toContain('token  gb_api_first_token   (Ada Lovelace, admin)')
    await first.server.close()
    running.splice(0)
    // The same token again (DEMO_TOKEN still set): what the directory holds already.
    const same = await serve(['--data', dir], { DEMO_TOKEN: 'gb_api_first_token' })
    await same.server.close()
    running.splice(0)
    const other = await exit(['serve', '--port', '0', '--data', dir, '--admin-token', 'gb_api_other_token'])
    expect(other.code).toBe(2)
    expect(other.err).toContain(`--admin-token: ${dir} already holds data, with its own tokens`)
  })

  it('--base-url must be an absolute http(s) URL', async () => {
    for (const [value, said] of [
      ['localhost:4000', 'must be an absolute http or https URL'],
      ['/api', 'must be an absolute http or https URL'],
      ['ftp://example.com', 'must be an absolute http or https URL'],
      ['https://example.com/api?x=1', 'must have no query or fragment'],
    ]) {
      const { code, err } = await exit(['serve', '--port', '0', '--base-url', value!])
      expect(code, value).toBe(2)
      expect(err).toContain(`--base-url ${value}: ${said}`)
    }
    const { server } = await serve(['--base-url', 'https://docs.example.com/api/'])
    expect(server.url).toBe('https://docs.example.com/api')
  })

  it('--database: a postgres:// URL, not with --data; --blobs only with it; a database that cannot be reached exits 1 without the password', async () => {
    const both = await exit(['serve', '--port', '0', '--data', scratch(), '--database', 'postgres://127.0.0.1/docs'])
    expect(both.code).toBe(2)
    expect(both.err).toContain('docs-content-api: --data and --database: one or the other')
    const blobs = await exit(['serve', '--port', '0', '--blobs', scratch()])
    expect(blobs.code).toBe(2)
    expect(blobs.err).toContain('docs-content-api: --blobs: only with --database')
    const notPg = await exit(['serve', '--port', '0', '--database', 'mysql://me:hunter22@db/docs'])
    expect(notPg.code).toBe(2)
    expect(notPg.err).toContain('--database: must be a PostgreSQL URL, postgres://user:password@host:port/database (got mysql://me:***@db/docs)')
    expect(notPg.err).not.toContain('hunter22')
    // Port 1 on loopback: nothing listens there.
    const unreachable = await exit(['serve', '--port', '0', '--database', 'postgres://me:hunter22@127.0.0.1:1/docs', '--blobs', scratch()])
    expect(unreachable.code).toBe(1)
    expect(unreachable.err).toMatch(
      /^docs-content-api: PostgreSQL: opening postgres:\/\/me:\*\*\*@127\.0\.0\.1:1\/docs failed \(connect ECONNREFUSED 127\.0\.0\.1:1\)\n$/,
    )
    expect(unreachable.err).not.toContain('hunter22')
  })

  it('a seed without a token warns that every request will be a 401', async () => {
    const { err } = await serve(['--seed', seedFile(false)])
    expect(err()).toBe('docs-content-api: warning: the state holds no token: every request will be answered 401 (add `tokens` to the seed)\n')
    expect((await serve(['--seed', seedFile()])).err()).toBe('')
  })

  it('a failed first start with --data removes the directories it created, and only those', async () => {
    const bad = join(scratch(), 'bad.json')
    writeFileSync(bad, JSON.stringify({ tokens: [{ id: 'gb_api_nobody_x', user: 'ghost' }] }))
    const root = scratch()
    const created = join(root, 'new', 'data')
    const failed = await exit(['serve', '--port', '0', '--data', created, '--seed', bad])
    expect(failed.code).toBe(1)
    expect(existsSync(join(root, 'new'))).toBe(false)
    const kept = join(root, 'kept')
    mkdirSync(kept)
    expect((await exit(['serve', '--port', '0', '--data', kept, '--seed', bad])).code).toBe(1)
    expect(existsSync(kept)).toBe(true)
  })

  it('DOCS_CONTENT_API_ALLOW_PRIVATE_NETWORK=1 is --allow-private-network', async () => {
    expect((await serve([], { DOCS_CONTENT_API_ALLOW_PRIVATE_NETWORK: '1' })).out()).toContain('; outgoing requests may reach private addresses)')
    expect((await serve([], { DOCS_CONTENT_API_ALLOW_PRIVATE_NETWORK: '0' })).out()).not.toContain('private addresses')
  })
})
