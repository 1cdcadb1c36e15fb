import { createDocsApi, type DocsApi } from './api.js'
import type { StateDocument } from './state/seed.js'

/** What the demo seed created: ids and tokens to try the API with. */
export interface DemoData {
  organization: { id: string; title: string }
  collection: { id: string; title: string }
  spaces: Array<{ id: string; title: string; visibility: string }>
  /** A published public site holding the first two spaces. */
  site: { id: string; title: string }
  /** Ada is admin of the organization. */
  adminToken: string
  /** Rita has the `read` role: she sees content but gets 403 on changes. */
  readerToken: string
}

/**
 * Seed an API with demo data through `api.fixtures` (the same domain rules as the API itself):
 * two users with tokens, an organization, a collection, a few spaces and a published site.
 */
export async function seedDemo(api: DocsApi, options: { adminToken?: string } = {}): Promise<DemoData> {
  const { fixtures } = api
  const ada = await fixtures.createUser({ displayName: 'Ada Lovelace', email: 'ada@acme.test' })
  const rita = await fixtures.createUser({ displayName: 'Rita Reader', email: 'rita@acme.test' })
  const organization = await fixtures.createOrganization({
    title: 'Acme Docs',
    emailDomains: ['acme.test'],
    members: [
      { user: ada.id, role: 'admin' },
      { user: rita.id, role: 'read' },
    ],
  })
  const collection = await fixtures.createCollection(organization.id, { title: 'Guides', description: 'How-to guides' })
  const spaces = [
    await fixtures.createSpace(organization.id, { title: 'Getting started', emoji: '1f680', parent: collection.id }),
    await fixtures.createSpace(organization.id, { title: 'API reference', emoji: '1f4d8', visibility: 'public' }),
    await fixtures.createSpace(organization.id, { title: 'Internal handbook', emoji: '1f512' }),
  ]
  const site = await fixtures.createSite(organization.id, {
    title: 'Acme Docs',
    spaces: [spaces[0]!.id, spaces[1]!.id],
    published: true,
  })
  return {
    site: { id: site.id, title: site.title },
    organization: { id: organization.id, title: organization.title },
    collection: { id: collection.id, title: collection.title },
    spaces: spaces.map((s) => ({ id: s.id, title: s.title, visibility: s.visibility })),
    adminToken: await fixtures.createToken(ada.id, options.adminToken),
    readerToken: await fixtures.createToken(rita.id),
  }
}

/**
 * The demo data as a state document (for `createDocsApi({ seed })` or `docs-content-api serve
 * --seed`), built through the fixtures on a throwaway API. Tokens are random unless given.
 * @example const { state, demo } = await createDemoState(); const api = createDocsApi({ seed: state })
 */
export async function createDemoState(options: { adminToken?: string } = {}): Promise<{ state: StateDocument; demo: DemoData }> {
  const api = createDocsApi()
  const demo = await seedDemo(api, options)
  return { state: api.dump(), demo }
}
