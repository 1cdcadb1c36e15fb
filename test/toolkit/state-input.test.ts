import { describe, expect, expectTypeOf, it } from 'vitest'
import { createDocsApi, type StateDocument, type StateDocumentInput, type StateRowInput } from '../../src/index.js'
import { createDemoState } from '../../src/demo.js'
import { BASE, call } from '../helpers.js'

// StateDocumentInput types a hand-written seed: the input of each collection's seed schema, so
// the fields the loader defaults are optional. `npx tsc` checks the types below (expectTypeOf
// and @ts-expect-error); vitest runs the loads.

/** A minimal seed, every default left out, typed without a cast. */
const seed = {
  users: [{ id: 'ada', displayName: 'Ada', email: 'ada@acme.test' }],
  tokens: [{ id: 'gb_api_ada_token', user: 'ada' }],
  organizations: [{ id: 'acme', title: 'Acme' }],
  members: [{ organization: 'acme', user: 'ada', role: 'admin' }],
  collections: [{ id: 'guides', organization: 'acme', title: 'Guides' }],
  spaces: [
    { id: 'intro', organization: 'acme', parent: 'guides', title: 'Intro' },
    { id: 'handbook', organization: 'acme' },
  ],
  sites: [{ id: 'docs', organization: 'acme' }],
  siteSpaces: [{ id: 'ss1', site: 'docs', space: 'intro', path: 'intro', default: true }],
  integrations: [],
  integrationSiteInstallations: [],
} satisfies StateDocumentInput

describe('StateDocumentInput: a hand-written seed, defaults left out', () => {
  it('types the fields the loader defaults as optional, and the others as required', () => {
    // A user's emailVerified (default true), a token's createdAt (default now).
    expectTypeOf<{ id: string; displayName: string }>().toExtend<StateRowInput<'users'>>()
    expectTypeOf<{ id: string; user: string }>().toExtend<StateRowInput<'tokens'>>()
    // A space installation's id, integration and organization come from its installation.
    expectTypeOf<{ installation: string; space: string }>().toExtend<StateRowInput<'integrationSpaceInstallations'>>()
    expectTypeOf<{ installation: string; site: string }>().toExtend<StateRowInput<'integrationSiteInstallations'>>()
    // Required fields stay required; unknown collections and fields are refused.
    expectTypeOf<{ id: string }>().not.toExtend<StateRowInput<'users'>>()
    expectTypeOf<{ installation: string }>().not.toExtend<StateRowInput<'integrationSiteInstallations'>>()
    // @ts-expect-error: a user's displayName is a string
    const wrongType: StateDocumentInput = { users: [{ id: 'ada', displayName: 1 }] }
    // @ts-expect-error: `organisations` is no collection
    const wrongCollection: StateDocumentInput = { organisations: [{ id: 'acme', title: 'Acme' }] }
    // @ts-expect-error: `titel` is no field of an organization
    const wrongField: StateDocumentInput = { organizations: [{ id: 'acme', titel: 'Acme' }] }
    expect([wrongType, wrongCollection, wrongField]).toHaveLength(3)
  })

  it('takes what api.dump() writes (a StateDocument is a StateDocumentInput)', async () => {
    expectTypeOf<StateDocument>().toExtend<StateDocumentInput>()
    expectTypeOf<Parameters<typeof createDocsApi>[0]>().toEqualTypeOf<import('../../src/index.js').DocsApiOptions | undefined>()
    expectTypeOf<NonNullable<Parameters<typeof createDocsApi>[0]>['seed']>().toEqualTypeOf<StateDocumentInput | undefined>()
    const { state } = await createDemoState()
    const api = createDocsApi({ baseUrl: BASE, seed: state })
    await api.fixtures.load({ users: [{ id: 'extra', displayName: 'Extra' }] })
    expect(api.store.read((tx) => tx.get('users', 'extra'))).toEqual({ id: 'extra', displayName: 'Extra', emailVerified: true })
  })

  it('createDocsApi({ seed }) and api.fixtures.load take the minimal seed, and fill in the defaults', async () => {
    expectTypeOf<Parameters<ReturnType<typeof createDocsApi>['fixtures']['load']>[0]>().toEqualTypeOf<StateDocumentInput>()
    for (const api of [createDocsApi({ baseUrl: BASE, seed }), createDocsApi({ baseUrl: BASE })]) {
      if (!api.store.read((tx) => tx.get('users', 'ada'))) await api.fixtures.load(seed)
      const res = await call(api, 'gb_api_ada_token', 'GET', '/v1/orgs/acme/spaces')
      expect(res.status).toBe(200)
      expect(res.body.items.map((s: { id: string; title: string; visibility: string }) => [s.id, s.title, s.visibility])).toEqual([
        ['intro', 'Intro', 'in-collection'],
        ['handbook', 'Untitled', 'private'],
      ])
      expect(api.store.read((tx) => tx.get('members', 'acme/ada'))).toMatchObject({ role: 'admin', disabled: false })
      expect(api.store.read((tx) => tx.get('users', 'ada'))!.emailVerified).toBe(true)
    }
  })
})
