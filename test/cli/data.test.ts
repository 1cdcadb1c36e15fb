import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runCli, type CliIo } from '../../src/cli/main.js'
import type { RunningServer } from '../../src/cli/serve.js'
import { scratchDir } from '../sqlite/helpers.js'

const scratch = scratchDir('cli-data-')

function io() {
  const out: string[] = []
  const err: string[] = []
  const value: CliIo = { out: (t) => void out.push(t), err: (t) => void err.push(t), env: {} }
  return { io: value, out: () => out.join(''), err: () => err.join('') }
}

const running: RunningServer[] = []
afterEach(async () => {
  for (const r of running.splice(0)) await r.close()
})

async function serve(args: string[]) {
  const t = io()
  const result = await runCli(['serve', '--port', '0', ...args], t.io)
  if (typeof result === 'number') throw new Error(`exit ${result}: ${t.err()}`)
  running.push(result)
  return { server: result, banner: t.out() }
}

const adminToken = (banner: string) => /token {2}(gb_api_\S+) {3}\(Ada Lovelace, admin\)/.exec(banner)![1]!

describe('cli: serve --data', () => {
  it('keeps the state in the directory: the demo data goes in once, and what was written is there after a restart', async () => {
    const dir = join(mkdtempSync(join(scratch, 'case-')), 'docs-data')
    const first = await serve(['--data', dir])
    expect(first.banner).toMatch(new RegExp(`^docs-content-api on http://localhost:\\d+ \\(demo data, data in ${dir}: SQLite, kept across restarts\\)`))
    expect(existsSync(join(dir, 'docs.sqlite'))).toBe(true)
    const token = adminToken(first.banner)
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
    const org = ((await (await fetch(`${first.server.url}/v1/orgs`, { headers: auth })).json()) as any).items[0].id
    const created = await fetch(`${first.server.url}/v1/orgs/${org}/spaces`, { method: 'POST', headers: auth, body: JSON.stringify({ title: 'Kept' }) })
    expect(created.status).toBe(201)
    const space = ((await created.json()) as any).id
    const before = first.server.api.dump()
    await first.server.close()
    running.splice(0)

    const second = await serve(['--data', dir])
    // Not the demo data loaded again: the same tokens and the space written before.
    expect(second.banner).toMatch(/\(data in .*: SQLite, kept across restarts\)/)
    expect(adminToken(second.banner)).toBe(token)
    const res = await fetch(`${second.server.url}/v1/spaces/${space}`, { headers: auth })
    expect(res.status).toBe(200)
    expect(((await res.json()) as any).title).toBe('Kept')
    expect(second.server.api.dump()).toEqual(before)
  })

  it('a seed goes into an empty directory only; a directory in use is refused, the port left free', async () => {
    const root = mkdtempSync(join(scratch, 'case-'))
    const seed = join(root, 'state.json')
    writeFileSync(seed, JSON.stringify({ users: [{ id: 'ada', displayName: 'Ada' }], tokens: [{ id: 'gb_api_seeded_token', user: 'ada' }] }))
    const dir = join(root, 'data')
    const { banner, server } = await serve(['--data', dir, '--seed', seed])
    expect(banner).toContain(`(data in ${dir}: SQLite, kept across restarts)`)
    expect(banner).toContain('token  gb_api_seeded_token   (Ada)')

    const busy = io()
    expect(await runCli(['serve', '--port', '0', '--data', dir], busy.io)).toBe(1)
    expect(busy.err()).toContain(`${join(dir, 'docs.sqlite')} is in use: another store`)
    await server.close()
    running.splice(0)

    const again = io()
    expect(await runCli(['serve', '--port', '0', '--data', dir, '--seed', seed], again.io)).toBe(2)
    expect(again.err()).toContain(`--seed: ${dir} already holds data (a seed goes into an empty data directory only)`)
  })
})
