import { execFile } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

/**
 * The time limit of outgoing fetches keeps the event loop alive while a request is pending
 * (a timer of its own, not `AbortSignal.timeout`, whose timer does not): a plain Node script
 * awaiting `api.idle()` over a fetch that never settles sees the spec end with FETCH_TIMEOUT,
 * instead of Node exiting (code 13, an unsettled top-level await) before the limit.
 */
const run = promisify(execFile)

describe('core: the outgoing time limit in a plain Node script', () => {
  it('await api.idle() over a fetch that never settles records FETCH_TIMEOUT and exits 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'outgoing-timer-'))
    const script = join(dir, 'script.mts')
    const entry = pathToFileURL(resolve('src/index.ts')).href
    writeFileSync(
      script,
      `import { createDocsApi } from ${JSON.stringify(entry)}
const api = createDocsApi({ fetch: () => new Promise<Response>(() => undefined), openapi: { fetchTimeoutMs: 100 } })
const user = await api.fixtures.createUser({ displayName: 'Ada' })
const org = await api.fixtures.createOrganization({ title: 'Acme', members: [{ user: user.id, role: 'admin' }] })
const token = await api.fixtures.createToken(user.id)
const res = await api.fetch(new Request('http://localhost:4000/v1/orgs/' + org.id + '/openapi', {
  method: 'POST',
  headers: { authorization: 'Bearer ' + token, 'content-type': 'application/json' },
  body: JSON.stringify({ slug: 'spec', source: { url: 'https://specs.example.com/a.yaml' } }),
}))
await api.idle()
const spec = api.store.read((tx) => tx.all('openapiSpecs')[0])
console.log(JSON.stringify({ status: res.status, state: spec?.processingState, code: spec?.lastProcessErrorCode }))
`,
    )
    // A rejection (a non-zero exit code, 13 before the fix) fails the test with the child's output.
    const { stdout } = await run(process.execPath, ['--import', 'tsx', script], { cwd: resolve('.'), timeout: 60_000 })
    expect(JSON.parse(stdout.trim())).toEqual({ status: 201, state: 'complete', code: 'FETCH_TIMEOUT' })
  }, 90_000)
})
