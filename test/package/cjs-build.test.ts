import { execFile } from 'node:child_process'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { build, type Options } from 'tsup'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import configs from '../../tsup.config.js'

const run = promisify(execFile)
const root = resolve(import.meta.dirname, '../..')

// The CommonJS build must load where `require` cannot load ES modules: Node 20.0–20.18, and Jest.
// Node 20.19+ loads ESM from `require` by default, which hides the failure; the flag turns that off.
// The JS configs of tsup.config.ts (no types: they take most of the build's time) are built into a
// scratch folder inside the repository, so that `require('zod')` resolves from node_modules.
describe('CommonJS build', () => {
  let outDir: string

  beforeAll(async () => {
    outDir = await mkdtemp(join(root, '.tmp-cjs-build-'))
    const jsConfigs = ([configs].flat() as Options[]).filter((c) => !(typeof c.dts === 'object' && c.dts.only))
    for (const config of jsConfigs) await build({ ...config, outDir, config: false, silent: true, dts: false })
  }, 60_000)

  afterAll(async () => {
    if (outDir) await rm(outDir, { recursive: true, force: true })
  })

  it('builds one .cjs per entry', async () => {
    const files = await readdir(outDir)
    expect(files.filter((f) => f.endsWith('.cjs')).sort()).toEqual(expect.arrayContaining(['fetch.cjs', 'index.cjs', 'testing.cjs']))
  })

  it('every .cjs entry loads with require() under --no-experimental-require-module, and the API answers', async () => {
    const entries = (await readdir(outDir)).filter((f) => f.endsWith('.cjs'))
    const script = `
      const dir = ${JSON.stringify(outDir)}
      for (const f of ${JSON.stringify(entries)}) require(dir + '/' + f)
      const { createDocsApi } = require(dir + '/index.cjs')
      const api = createDocsApi()
      ;(async () => {
        const user = await api.fixtures.createUser({ displayName: 'Ada', email: 'ada@acme.test' })
        const token = await api.fixtures.createToken(user.id)
        const res = await api.fetch(new Request('http://localhost:4000/v1/user', { headers: { authorization: 'Bearer ' + token } }))
        // A site token (jose, ESM-only, bundled): signed when a published URL resolves, verified as a bearer.
        const org = await api.fixtures.createOrganization({ title: 'Acme', members: [{ user: user.id, role: 'admin' }] })
        const space = await api.fixtures.createSpace(org.id, { title: 'Docs' })
        const site = await api.fixtures.createSite(org.id, { title: 'Docs', spaces: [space.id], published: true })
        const resolve = new Request('http://localhost:4000/v1/urls/published', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: site.urls.published }) })
        const { apiToken } = await (await api.fetch(resolve)).json()
        const profile = await api.fetch(new Request('http://localhost:4000/v1/orgs/' + org.id + '/sites/' + site.id + '/published', { headers: { authorization: 'Bearer ' + apiToken } }))
        console.log(JSON.stringify({ status: res.status, id: (await res.json()).id, generated: user.id, profile: profile.status }))
      })().catch((e) => { console.error(e); process.exit(1) })
    `
    const { stdout } = await run(process.execPath, ['--no-experimental-require-module', '-e', script], { cwd: root })
    const out = JSON.parse(stdout) as { status: number; id: string; generated: string; profile: number }
    expect(out.status).toBe(200)
    expect(out.profile).toBe(200)
    expect(out.id).toBe(out.generated)
    // nanoid made the id (20 URL-safe characters), in the CommonJS build too.
    expect(out.generated).toMatch(/^[\w-]{20}$/)
  })
})
