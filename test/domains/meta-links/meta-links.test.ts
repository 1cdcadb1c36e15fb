import { describe, expect, it } from 'vitest'
import { createUrls, type ContentGrant } from '../../../src/core/context.js'
import type { ReadContext } from '../../../src/domains/context.js'
import { metaLinks } from '../../../src/domains/meta-links/locations.js'
import { BASE } from '../../helpers.js'
import { metaLinksWorld } from './helpers.js'

/**
 * A page's meta links (docs/behaviour/meta-links.md): `canonical`, its published URL, and
 * `alternates`, the same page (same path) in the other variants of the containers publishing its
 * space, each at its published URL.
 */
const url = (u: string) => ({ kind: 'url', url: u })

async function setup() {
  const w = await metaLinksWorld()
  const pages = ['Getting Started', 'Getting Started/Install', 'Reference']
  const en = await w.space('English', pages)
  const fr = await w.space('Français', pages)
  const de = await w.space('Deutsch', ['Getting Started', 'Reference'])
  const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs', spaces: [en.id, fr.id, de.id], published: true })
  const urls = await w.siteSpaceUrls(site.id)
  return { ...w, en, fr, de, site, urls }
}

describe('meta links', () => {
  it('variants of a site: the same page at the same path in the other site-spaces, the first page at the site-space URL', async () => {
    const w = await setup()
    const install = await w.metaLinks(w.tokens.ada, w.en.id, w.en.pages['Getting Started/Install']!)
    expect(install.status).toBe(200)
    // The German variant has no page at that path.
    expect(install.body).toEqual({
      canonical: url(`${w.urls[w.en.id]}/getting-started/install`),
      alternates: [url(`${w.urls[w.fr.id]}/getting-started/install`)],
    })
    // The first page of a site-space is served at the site-space's URL.
    const first = await w.metaLinks(w.tokens.ada, w.fr.id, w.fr.pages['Getting Started']!)
    expect(first.body).toEqual({ canonical: url(w.urls[w.fr.id]!), alternates: [url(w.urls[w.en.id]!), url(w.urls[w.de.id]!)] })
    expect(w.urls[w.en.id]).not.toContain('english')
    expect(w.urls[w.fr.id]).toMatch(/\/francais$/)
    const reference = await w.metaLinks(w.tokens.rita, w.de.id, w.de.pages.Reference!)
    expect(reference.body.alternates).toEqual([url(`${w.urls[w.en.id]}/reference`), url(`${w.urls[w.fr.id]}/reference`)])
  })

  it('hidden site-spaces, unpublished sites and spaces published nowhere give no links', async () => {
    const w = await setup()
    const base = `/v1/orgs/${w.org.id}/sites/${w.site.id}`
    const list = (await w.ada('GET', `${base}/site-spaces`)).body.items
    const frSiteSpace = list.find((s: any) => s.space.id === w.fr.id).id
    expect((await w.ada('PATCH', `${base}/site-spaces/${frSiteSpace}`, { hidden: true })).status).toBe(200)
    const page = w.en.pages['Getting Started/Install']!
    expect((await w.metaLinks(w.tokens.ada, w.en.id, page)).body.alternates).toEqual([])
    await w.api.fixtures.publishSite(w.org.id, w.site.id, false)
    expect((await w.metaLinks(w.tokens.ada, w.en.id, page)).body).toEqual({ alternates: [] })
    const alone = await w.space('Alone', ['Intro'])
    expect((await w.metaLinks(w.tokens.ada, alone.id, alone.pages.Intro!)).body).toEqual({ alternates: [] })
  })

  it('sections: alternates come from the same section only; a space in two sites links to its variants in both, canonical in the oldest', async () => {
    const w = await setup()
    const es = await w.space('Español', ['Getting Started', 'Getting Started/Install'])
    const api = await w.space('API', ['Getting Started', 'Getting Started/Install'])
    // A second site: English and Spanish in a section, the API space in another.
    const intl = await w.api.fixtures.createSite(w.org.id, { title: 'Intl', spaces: [w.en.id], published: true })
    const base = `/v1/orgs/${w.org.id}/sites/${intl.id}`
    const guides = (await w.ada('POST', `${base}/sections`, { spaceId: w.en.id, title: 'Guides' })).body
    expect((await w.ada('POST', `${base}/site-spaces`, { spaceId: es.id, sectionId: guides.id })).status).toBe(201)
    expect((await w.ada('POST', `${base}/sections`, { spaceId: api.id, title: 'API' })).status).toBe(201)
    const intlUrls = await w.siteSpaceUrls(intl.id)
    const links = await w.metaLinks(w.tokens.ada, w.en.id, w.en.pages['Getting Started/Install']!)
    expect(links.body).toEqual({
      canonical: url(`${w.urls[w.en.id]}/getting-started/install`),
      alternates: [url(`${w.urls[w.fr.id]}/getting-started/install`), url(`${intlUrls[es.id]}/getting-started/install`)],
    })
    // The API section is another product, not a variant.
    expect(JSON.stringify(links.body)).not.toContain(intlUrls[api.id]!)
  })

  it("a site token's links stay in its site, and leave out the variants whose condition its visitor does not meet", async () => {
    const w = await setup()
    const base = `/v1/orgs/${w.org.id}/sites/${w.site.id}`
    const list = (await w.ada('GET', `${base}/site-spaces`)).body.items
    const siteSpaceOf = (space: string) => list.find((s: any) => s.space.id === space).id
    expect((await w.ada('PATCH', `${base}/site-spaces/${siteSpaceOf(w.fr.id)}`, { condition: 'visitor.claims.beta == true' })).status).toBe(200)
    const other = await w.api.fixtures.createSite(w.org.id, { title: 'Other', spaces: [w.en.id, w.de.id], published: true })
    const otherUrls = await w.siteSpaceUrls(other.id)
    const linksFor = (claims: Record<string, unknown> | undefined, site = w.site.id, siteSpace = siteSpaceOf(w.en.id)) =>
      w.api.store.read((tx) => {
        const grant: ContentGrant | undefined = claims && {
          kind: 'site',
          organization: w.org.id,
          site,
          siteSpace,
          space: w.en.id,
          spaces: [w.en.id, w.fr.id, w.de.id],
          claims,
          visitorType: 'human',
        }
        const ctx = {
          actor: { user: grant ? '' : w.users.ada.id, content: grant },
          tx,
          urls: createUrls(BASE),
          access: { can: () => true },
        } as unknown as ReadContext
        return metaLinks(ctx, tx.get('spaces', w.en.id)!, 'reference')
      })
    expect(linksFor({})).toEqual({ canonical: url(`${w.urls[w.en.id]}/reference`), alternates: [url(`${w.urls[w.de.id]}/reference`)] })
    expect(linksFor({ beta: true }).alternates).toEqual([url(`${w.urls[w.fr.id]}/reference`), url(`${w.urls[w.de.id]}/reference`)])
    // The other site's token: its own URLs only.
    expect(linksFor({}, other.id, 'x')).toEqual({ canonical: url(`${otherUrls[w.en.id]}/reference`), alternates: [url(`${otherUrls[w.de.id]}/reference`)] })
    // A member sees both sites (conditions are for visitors): canonical in the oldest.
    expect(linksFor(undefined).alternates).toHaveLength(3)
  })
})
