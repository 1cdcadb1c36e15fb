/**
 * Testing an app built on `@gitbook/api` with docs-content-api as its test double, in vitest:
 * seed a state, snapshot it once and restore it before each test, inject faults to test retries,
 * and check what the app sent through the journal. `npm test` runs this file too.
 */
import { GitBookAPI, GitBookAPIError } from '@gitbook/api'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createDocsApi, type StoreSnapshot } from '../src/index.js'
import { createClock, createDemoState, sequentialIds } from '../src/testing.js'

// --- The code under test: prefix every space title of an organization, retrying on 503.
async function prefixSpaceTitles(gitbook: GitBookAPI, organizationId: string, prefix: string): Promise<number> {
  const { data } = await gitbook.orgs.listSpacesInOrganizationById(organizationId)
  for (const space of data.items) {
    if (space.title.startsWith(prefix)) continue
    for (let attempt = 1; ; attempt++) {
      try {
        await gitbook.spaces.updateSpaceById(space.id, { title: `${prefix}${space.title}`.slice(0, 50) })
        break
      } catch (error) {
        if (!(error instanceof GitBookAPIError) || error.code !== 503 || attempt === 3) throw error
      }
    }
  }
  return data.items.length
}

// --- The tests
const clock = createClock('2026-01-01T00:00:00.000Z')
const { state, demo } = await createDemoState()
const api = createDocsApi({ seed: state, now: clock.now, ids: sequentialIds('t') })
const gitbook = new GitBookAPI({ authToken: demo.adminToken, serviceBinding: { fetch: api.fetch } })
let start: StoreSnapshot

beforeAll(() => {
  start = api.snapshot()
})

beforeEach(() => {
  // Every test starts from the same state, with no leftover faults or journal entries.
  api.restore(start)
  api.faults.clear()
  api.journal.clear()
})

describe('prefixSpaceTitles', () => {
  it('renames every space once, and only the spaces', async () => {
    expect(await prefixSpaceTitles(gitbook, demo.organization.id, '[Acme] ')).toBe(3)
    const titles = api.store.read((tx) => tx.scan('spaces', 'byOrganization', demo.organization.id).map((e) => e.row.title))
    expect(titles).toEqual(['[Acme] Getting started', '[Acme] API reference', '[Acme] Internal handbook'])
    const patches = api.journal.find({ operationId: 'updateSpaceById' })
    expect(patches.map((e) => e.requestBody)).toEqual(titles.map((title) => ({ title })))
    expect(patches.every((e) => e.status === 200 && e.user !== undefined)).toBe(true)
  })

  it('retries a space whose update answers 503, and gives up after three attempts', async () => {
    api.faults.add({ operationId: 'updateSpaceById', status: 503, times: 2 })
    await prefixSpaceTitles(gitbook, demo.organization.id, 'v2 ')
    expect(api.journal.find({ operationId: 'updateSpaceById' }).map((e) => e.status)).toEqual([503, 503, 200, 200, 200])

    api.restore(start)
    api.faults.add({ operationId: 'updateSpaceById', status: 503 })
    await expect(prefixSpaceTitles(gitbook, demo.organization.id, 'v3 ')).rejects.toMatchObject({ code: 503 })
    // A faulted request changes nothing: every title is as the seed had it.
    expect(api.store.read((tx) => tx.all('spaces').map((s) => s.title))).toEqual(['Getting started', 'API reference', 'Internal handbook'])
  })

  it('starts from the seed again: the previous tests left nothing behind', async () => {
    expect(api.journal.entries).toEqual([])
    const { data } = await gitbook.orgs.listSpacesInOrganizationById(demo.organization.id)
    expect(data.items.map((s) => s.title)).toEqual(['Getting started', 'API reference', 'Internal handbook'])
  })
})
