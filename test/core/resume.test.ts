import { describe, expect, it } from 'vitest'
import { createDocsApi } from '../../src/index.js'
import { fakeFetch, PETSTORE_YAML } from '../fixtures/openapi.js'
import { call, createWorld } from '../helpers.js'

/**
 * core/jobs.ts `supersede` and core/resume.ts: after `restore()` the jobs of the state left
 * behind write nothing (whatever their area), and `fixtures.load` resumes only what it loaded.
 */
const tick = () => new Promise((resolve) => setTimeout(resolve, 5))

function gate() {
  let open!: () => void
  const closed = new Promise<void>((resolve) => (open = resolve))
  return { closed, open }
}

describe('core: jobs superseded by restore()', () => {
  it('a job running when the API goes back to a snapshot writes nothing more: no transaction, no failed step, no onError, no job it defers', async () => {
    const errors: unknown[] = []
    const api = createDocsApi({ onError: (e) => errors.push(e) })
    const user = await api.fixtures.createUser({ displayName: 'Ada' })
    const snapshot = api.snapshot()
    const g = gate()
    const seen: string[] = []
    const rename = (name: string) => (ctx: { tx: any }) => ctx.tx.update('users', { ...ctx.tx.get('users', user.id), displayName: name })
    api.system((ctx) =>
      ctx.defer('writer', {
        async run(env) {
          await env.transaction(rename('Before restore'))
          await g.closed
          env.defer('child', { run: () => void seen.push('child ran') })
          await env.transaction(rename('After restore'))
          seen.push('not reached')
        },
        failed: () => void seen.push('failed step'),
      }),
    )
    api.system((ctx) =>
      ctx.defer('thrower', {
        async run() {
          await g.closed
          throw new Error('boom')
        },
        failed: () => void seen.push('failed step of thrower'),
      }),
    )
    await tick()
    expect(api.store.read((tx) => tx.get('users', user.id)!.displayName)).toBe('Before restore')
    api.restore(snapshot)
    g.open()
    await api.idle()
    expect(api.store.read((tx) => tx.get('users', user.id)!.displayName)).toBe('Ada')
    expect(seen).toEqual([])
    expect(errors).toEqual([])
    // Jobs started after the restore run as usual.
    api.system((ctx) => ctx.defer('later', { run: async (env) => void (await env.transaction(rename('Later'))) }))
    await api.idle()
    expect(api.store.read((tx) => tx.get('users', user.id)!.displayName)).toBe('Later')
  })

  it("a fork leaves the parent's jobs alone", async () => {
    const api = createDocsApi()
    const user = await api.fixtures.createUser({ displayName: 'Ada' })
    const g = gate()
    api.system((ctx) =>
      ctx.defer('writer', {
        async run(env) {
          await g.closed
          await env.transaction((c) => c.tx.update('users', { ...c.tx.get('users', user.id)!, displayName: 'Written' }))
        },
      }),
    )
    const fork = api.fork()
    g.open()
    await api.idle()
    expect(api.store.read((tx) => tx.get('users', user.id)!.displayName)).toBe('Written')
    expect(fork.store.read((tx) => tx.get('users', user.id)!.displayName)).toBe('Ada')
  })
})

describe('core: fixtures.load resumes the rows it loaded, not the others', () => {
  it('a spec of the running API keeps its one job; the loaded spec left pending is processed', async () => {
    const served = fakeFetch({ 'https://specs.acme.test/a.yaml': PETSTORE_YAML })
    const w = await createWorld({ fetch: served.fetch })
    served.hold()
    await call(w.api, w.tokens.ada, 'POST', `/v1/orgs/${w.org.id}/openapi`, { slug: 'mine', source: { url: 'https://specs.acme.test/a.yaml' } })
    await tick()
    await w.api.fixtures.load({
      organizations: [{ id: 'globex', title: 'Globex' }],
      openapiSpecs: [{ id: 'loaded', organization: 'globex', slug: 'theirs', processingState: 'pending', pendingSource: { text: PETSTORE_YAML } }],
    })
    served.release()
    await w.api.idle()
    expect(served.calls).toEqual(['https://specs.acme.test/a.yaml'])
    expect(
      w.api.store.read((tx) => tx.all('openapiSpecs').map((s) => [s.slug, s.processingState, tx.scan('openapiSpecVersions', 'bySpec', s.id).length])),
    ).toEqual([
      ['mine', 'complete', 1],
      ['theirs', 'complete', 1],
    ])
  })
})
