import { expect } from 'vitest'
import { call, createWorld } from '../../helpers.js'

/**
 * Spaces with pages, published in sites: the world of the meta links tests. `pages` are titles,
 * `Parent/Child` putting a page under another (slugs from titles: `Getting Started` →
 * `getting-started`).
 */
export async function metaLinksWorld() {
  const w = await createWorld()
  const ada = (method: string, path: string, body?: unknown) => call(w.api, w.tokens.ada, method, path, body)

  /** A space whose main content holds `pages`; returns its id and its pages' ids by title. */
  const space = async (title: string, pages: string[], options: { visibility?: 'public' } = {}) => {
    const s = await w.api.fixtures.createSpace(w.org.id, { title, ...options })
    const cr = (await ada('POST', `/v1/spaces/${s.id}/change-requests`, { subject: 'Pages' })).body
    const ids: Record<string, string> = {}
    for (const path of pages) {
      const parts = path.split('/')
      const name = parts.pop()!
      const into = parts.length ? ids[parts.join('/')] : undefined
      const res = await ada('POST', `/v1/spaces/${s.id}/change-requests/${cr.id}/content?compat=false`, {
        changes: [{ operation: 'insert_page', title: name, ...(into && { into }), document: { markdown: `${name} in ${title}.` } }],
      })
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      ids[path] = res.body.changes[0].page.id
    }
    expect((await ada('POST', `/v1/spaces/${s.id}/change-requests/${cr.id}/merge`)).status).toBe(200)
    return { id: s.id, pages: ids, cr: cr.id as string }
  }

  /** The published URL of each site-space of a site, by space id. */
  const siteSpaceUrls = async (site: string): Promise<Record<string, string>> => {
    const list = (await ada('GET', `/v1/orgs/${w.org.id}/sites/${site}/site-spaces?limit=100`)).body
    return Object.fromEntries(list.items.map((s: any) => [s.space.id, s.urls.published]))
  }

  const metaLinks = (token: string, spaceId: string, pageId: string) => call(w.api, token, 'GET', `/v1/spaces/${spaceId}/content/page/${pageId}/meta-links`)

  return { ...w, ada, space, siteSpaceUrls, metaLinks }
}
