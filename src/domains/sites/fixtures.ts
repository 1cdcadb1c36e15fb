import { type System } from '../common/fixture-kit.js'
import { encodeSite } from './encode.js'
import { setPublished } from './lifecycle.js'
import { getSite } from './model.js'

/** Test fixtures of sites: built through the same domain functions as the API (`createSite` is site-structure/fixtures.ts's: it adds site-spaces). */
export function siteFixtures(system: System) {
  return {
    /** Publish (or, with `false`, unpublish) a site. */
    async publishSite(organizationId: string, siteId: string, published = true) {
      return system((ctx) => encodeSite(ctx, setPublished(ctx, getSite(ctx, organizationId, siteId), published), 'admin'))
    },
  }
}
