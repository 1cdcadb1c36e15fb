import { call, createWorld } from '../../helpers.js'

/**
 * A published site with two spaces: "Guide" (the default site-space, at the site's root) with
 * pages `intro` (its first page), `install` and `install/linux`, and "API" (site-space path
 * `api`) with page `reference`; `http(method, path, body, token?)` calls under the site, as ada (admin) by default.
 */
export async function redirectWorld() {
  const w = await createWorld()
  const ada = w.tokens.ada
  const guide = await w.api.fixtures.createSpace(w.org.id, { title: 'Guide' })
  const api = await w.api.fixtures.createSpace(w.org.id, { title: 'API' })
  const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs', spaces: [guide.id, api.id], published: true })
  const base = `/v1/orgs/${w.org.id}/sites/${site.id}`
  const siteSpaces = (await call(w.api, ada, 'GET', `${base}/site-spaces`)).body.items as Array<{ id: string; path: string; urls: { published: string } }>
  const merge = async (spaceId: string, changes: unknown[]) => {
    const crs = `/v1/spaces/${spaceId}/change-requests`
    const cr = (await call(w.api, ada, 'POST', crs, { subject: 'Pages' })).body
    const edit = await call(w.api, ada, 'POST', `${crs}/${cr.id}/content?compat=false`, { changes })
    if (edit.status !== 200) throw new Error(JSON.stringify(edit.body))
    const merged = await call(w.api, ada, 'POST', `${crs}/${cr.id}/merge`)
    if (merged.status !== 200) throw new Error(JSON.stringify(merged.body))
    return edit.body.changes.map((c: { page: { id: string } }) => c.page.id) as string[]
  }
  const [intro, install, linux] = await merge(guide.id, [
    { operation: 'insert_page', title: 'Intro', document: { markdown: 'Hello' } },
    { operation: 'insert_page', title: 'Install', ref: 'install', document: { markdown: 'Install it' } },
    { operation: 'insert_page', title: 'Linux', into: 'install', document: { markdown: 'On Linux' } },
  ])
  const [reference] = await merge(api.id, [{ operation: 'insert_page', title: 'Reference', document: { markdown: 'Endpoints' } }])
  const http = (method: string, path: string, body?: unknown, token = ada) => call(w.api, token, method, `${base}${path}`, body)
  return {
    ...w,
    site,
    base,
    spaces: { guide, api },
    siteSpaces: { guide: siteSpaces[0]!, api: siteSpaces[1]! },
    pages: { intro: intro!, install: install!, linux: linux!, reference: reference! },
    /** The site's published URL (no trailing slash). */
    siteUrl: site.urls.published as string,
    http,
    /** Merge a change request of these content changes into a space; the ids of the pages they touched. */
    merge,
  }
}

export type RedirectWorld = Awaited<ReturnType<typeof redirectWorld>>

/** An external destination. */
export const external = (url: string) => ({ kind: 'external' as const, url })
