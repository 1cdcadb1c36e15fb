import type { z } from 'zod'
import { ApiError } from '../../core/errors.js'
import { parseInput, type System } from '../common/fixture-kit.js'
import { encodeSite } from '../sites/encode.js'
import { setPublished } from '../sites/lifecycle.js'
import { CreateSiteSchema } from '../sites/schemas.js'
import { createSite } from './site-lifecycle.js'

/** Test fixtures of sites with their structure: built through the same domain functions as the API. */
export function siteStructureFixtures(system: System) {
  return {
    /**
     * Create a site (its `spaces` become site-spaces at its root); `published: true` publishes it.
     * @example await api.fixtures.createSite(org.id, { title: 'Docs', spaces: [space.id], published: true })
     */
    async createSite(organizationId: string, input: z.input<typeof CreateSiteSchema> & { published?: boolean } = {}) {
      const { published, ...rest } = input
      const data = parseInput(CreateSiteSchema, rest, 'site')
      return system((ctx) => {
        if (!ctx.tx.get('organizations', organizationId)) throw new ApiError('NOT_FOUND', 'Organization not found')
        const site = createSite(ctx, organizationId, data)
        return encodeSite(ctx, published ? setPublished(ctx, site, true) : site, 'admin')
      })
    },
  }
}
