import { GitBookAPI, type PublishedSiteContent } from '@gitbook/api'
import { createDocsApi } from '../../src/index.js'
import { seedDemo } from '../../src/demo.js'
import { expectOfficialResponse } from './official.js'

export const BASE = 'http://localhost:4000'

/**
 * The demo data as GitBook's renderer meets it (the renderer-*.test.ts replays): `@gitbook/api`
 * clients over `api.fetch`, the Acme Docs site, and `visit(url)`, the renderer's first call for a
 * URL (an anonymous visitor, checked against the official schema) with a client holding the
 * site token of its answer.
 */
export async function rendererWorld() {
  const api = createDocsApi({ baseUrl: BASE })
  const demo = await seedDemo(api)
  const client = (authToken?: string) => new GitBookAPI({ endpoint: BASE, ...(authToken && { authToken }), serviceBinding: { fetch: api.fetch } })
  const admin = client(demo.adminToken)
  const site = (await admin.orgs.getSiteById(demo.organization.id, demo.site.id)).data
  const visit = async (url: string) => {
    const res = await client().urls.resolvePublishedContentByUrl({ url, visitor: { unsignedClaims: {} }, redirectOnError: false })
    expectOfficialResponse('resolvePublishedContentByUrl', 200, res.data)
    const content = res.data as PublishedSiteContent
    return { content, gb: client(content.apiToken) }
  }
  return { api, demo, client, admin, site, visit }
}
