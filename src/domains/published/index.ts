import { defineArea } from '../area.js'
import { publishedHandlers } from './handlers.js'
import { createSiteTokens, looksLikeJwt, verifySiteToken, type SiteTokens } from './site-tokens.js'

declare module '../../core/services.js' {
  interface Services {
    /** The key and caches of site API tokens (published/site-tokens.ts). */
    siteTokens: SiteTokens
  }
}

/**
 * The published area (see domains/area.ts): what visitors of published sites reach through GitBook's
 * renderer. It resolves published URLs and issues the site tokens the renderer then calls with.
 */
export const publishedArea = defineArea({
  name: 'published',
  collections: {},
  operations: publishedHandlers,
  services: (options) => ({ siteTokens: createSiteTokens(options.siteTokenSecret) }),
  bearer: (services, token, now) => (looksLikeJwt(token) ? verifySiteToken(services.siteTokens, token, now) : undefined),
})
