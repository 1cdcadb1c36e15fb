import { describe, expect, it } from 'vitest'
import { createGuardedFetch } from '../../../src/node.js'
import { createWorld } from '../../helpers.js'
import { exportSpace, gitInfo, importRepo, pageLines, useGitServer } from './helpers.js'

const git = useGitServer()

/** A world whose API fetches through the Node guard, the stub resolver sending git.example.com to the loopback test server. */
async function guardedWorld(allowPrivateNetwork: boolean) {
  const asked: string[] = []
  const lookup = async (hostname: string) => (asked.push(hostname), hostname === 'git.example.com' ? [{ address: '127.0.0.1', family: 4 }] : [])
  const w = await createWorld({ fetch: createGuardedFetch({ lookup, allowPrivateNetwork }), allowPrivateNetwork })
  const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Docs' })
  return { ...w, space, asked }
}

const named = (url: string) => url.replace('127.0.0.1', 'git.example.com')

describe('Git Sync over the Node guard', () => {
  it('fails an import whose remote name resolves to a private address, saying why, with nothing sent to it', async () => {
    const w = await guardedWorld(false)
    git.server.createRepo('guarded', { 'README.md': '# Home\n' })
    const before = git.server.requests.length
    expect((await importRepo(w, { url: named(git.server.url('guarded', true)), ref: 'refs/heads/main' })).status).toBe(204)
    const info = (await gitInfo(w)).body
    expect(info.operation).toMatchObject({
      state: 'failure',
      direction: 'import',
      error: 'could not reach the repository: git.example.com resolves to 127.0.0.1, a loopback address; only public addresses can be fetched',
    })
    expect(w.asked).toEqual(['git.example.com'])
    expect(git.server.requests.length).toBe(before)
  })

  it('imports and exports through the checked address when private addresses are allowed', async () => {
    const w = await guardedWorld(true)
    git.server.createRepo('reached', { 'README.md': '# Home\n', 'a.md': '# A\n' })
    await importRepo(w, { url: named(git.server.url('reached', true)), ref: 'refs/heads/main' })
    expect((await gitInfo(w)).body.operation).toMatchObject({ state: 'success' })
    expect(await pageLines(w, w.space.id)).toEqual(['home: Home', 'a: A'])
    // An export pushes (POST with a pack body) through the same fetch.
    await exportSpace(w, { url: named(git.server.url('reached', true)), ref: 'refs/heads/export', commitMessage: 'From the API' })
    expect((await gitInfo(w)).body.operation).toMatchObject({ state: 'success', direction: 'export' })
    expect(git.server.git('reached', 'log', '-1', '--format=%s', 'export').trim()).toBe('From the API')
  })
})
