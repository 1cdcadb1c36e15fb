import { GitBookAPI, GitBookAPIError } from '@gitbook/api'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { createDocsApi } from '../src/index.js'
import { sequentialIds } from '../src/testing.js'
import { seedDemo } from './demo-data.js'

/**
 * The API as a test double for code written against the official client `@gitbook/api`: the
 * client's `serviceBinding` sends every request to `api.fetch`, in process, with no server and
 * no network. Run it with `npx tsx examples/with-official-client.ts`.
 */
export async function runOfficialClientExample(log: (line: string) => void = console.log) {
  const api = createDocsApi({ ids: sequentialIds('id') })
  const demo = await seedDemo(api)
  const gitbook = new GitBookAPI({ authToken: demo.adminToken, serviceBinding: { fetch: api.fetch } })

  const { data: me } = await gitbook.user.getAuthenticatedUser()
  log(`signed in as ${me.displayName} (${me.id})`)

  const { data: orgs } = await gitbook.orgs.listOrganizationsForAuthenticatedUser()
  log(`organizations: ${orgs.items.map((o) => o.title).join(', ')} (count ${orgs.count})`)

  const { data: spaces } = await gitbook.orgs.listSpacesInOrganizationById(demo.organization.id, { limit: 2 })
  log(`spaces: ${spaces.items.map((s) => `${s.title} (${s.visibility})`).join(', ')} of ${spaces.count}, next page: ${spaces.next ? 'yes' : 'no'}`)
  const { data: space } = await gitbook.spaces.getSpaceById(spaces.items[0]!.id)
  log(`space "${space.title}": can edit ${space.permissions?.edit}, in collection ${space.parent}`)

  const { data: renamed } = await gitbook.orgs.updateOrganizationById(demo.organization.id, { title: 'Acme Documentation' })
  log(`renamed to "${renamed.title}"`)

  // Errors come back as the client's GitBookAPIError, carrying the API's status and message.
  let notFound: { code: number; message: string } | undefined
  try {
    await gitbook.orgs.getOrganizationById('no-such-org')
  } catch (error) {
    if (!(error instanceof GitBookAPIError)) throw error
    notFound = { code: error.code, message: error.errorMessage }
    log(`getOrganizationById('no-such-org') -> ${error.code} ${error.errorMessage}`)
  }

  // The store shows what the calls did.
  const stored = api.store.read((tx) => tx.get('organizations', demo.organization.id))
  return {
    me,
    organizations: orgs.items.map((o) => o.title),
    spaces: { titles: spaces.items.map((s) => s.title), count: spaces.count, hasNext: spaces.next !== undefined },
    space,
    renamed: renamed.title,
    storedTitle: stored?.title,
    notFound,
  }
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href
if (isMain) await runOfficialClientExample()
