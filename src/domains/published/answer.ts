import type { ReadContext } from '../context.js'
import { ApiError } from '../../core/errors.js'
import { evaluateCondition } from '../common/expressions.js'
import { publishedUrl } from '../sites/urls.js'
import { findSiteByUrl, matchContent, parseUrl, publishedSpaces, type ContentMatch, type Visible } from './resolve.js'
import { mintKey, mintedToken, remember, tokenDay, type SiteTokenPayload } from './site-tokens.js'

/** What a visitor sends with a URL to resolve (the official `SiteVisitorPayload`). */
export interface VisitorInput {
  type?: 'human' | 'agent' | undefined
  jwtToken?: string | undefined
  unsignedClaims?: Record<string, unknown> | undefined
}

/** The official `PublishedSiteContent`, with a token that may still be signed after the transaction. */
export interface PublishedSiteContent {
  site: string
  siteSection?: string
  siteSpace: string
  space: string
  pathname: string
  basePath: string
  siteBasePath: string
  apiToken: string
  organization: string
  shareKey?: string
  complete: boolean
  canonicalUrl: string
}

const notFound = () => new ApiError('NOT_FOUND', 'No content found for the URL')

/** `/a/b/` from segments (percent-encoded, as in a URL); `/` for none. */
function basePathOf(segments: readonly string[]): string {
  return segments.length === 0 ? '/' : `/${segments.map(encodeURIComponent).join('/')}/`
}

/**
 * Resolve a published URL for a visitor: the content it names and a site token for it, or a 404
 * (no published site there, a share-link site without its key, nothing the visitor may open).
 */
export function resolvePublishedUrl(ctx: ReadContext, input: { url: string; visitor?: VisitorInput | undefined }): PublishedSiteContent {
  const url = parseUrl(input.url)
  const found = url && findSiteByUrl(ctx, url)
  if (!url || !found || !found.site.published) throw notFound()
  const { site } = found
  // Sites seen only by members, and sites behind visitor authentication (not issued here yet).
  if (site.visibility === 'visitor-auth') throw notFound()
  const claims: Record<string, unknown> = { unsigned: input.visitor?.unsignedClaims ?? {} }
  // Sections and site-spaces with a condition open only to visitors it holds for (adaptive content).
  const visible: Visible = (condition) => condition === undefined || evaluateCondition(condition, { claims })
  const match = matchContent(ctx, found, url, visible)
  if (!match) throw notFound()
  return contentAnswer(ctx, match, url.segments, claims, input.visitor?.type ?? 'human')
}

function contentAnswer(
  ctx: ReadContext,
  match: ContentMatch,
  segments: readonly string[],
  claims: Record<string, unknown>,
  visitorType: 'human' | 'agent',
): PublishedSiteContent {
  const { site, section, siteSpace, shareKey } = match
  const siteEnd = match.consumed + (match.keyInPath ? 1 : 0)
  const structureSegments = [...(section && !section.default ? [section.path] : []), ...(siteSpace.default ? [] : [siteSpace.path])]
  const payload: SiteTokenPayload = {
    kind: 'site',
    organization: site.organization,
    site: site.id,
    siteSpace: siteSpace.id,
    ...(section && { siteSection: section.id }),
    space: siteSpace.space,
    spaces: publishedSpaces(ctx, site),
    visitorType,
    claims,
    draft: false,
    ...(shareKey !== undefined && { shareKey }),
  }
  const answer: PublishedSiteContent = {
    site: site.id,
    ...(section && { siteSection: section.id }),
    siteSpace: siteSpace.id,
    space: siteSpace.space,
    pathname: match.rest.join('/'),
    basePath: basePathOf(segments.slice(0, siteEnd + match.structure.length)),
    siteBasePath: basePathOf(segments.slice(0, siteEnd)),
    apiToken: '',
    organization: site.organization,
    ...(shareKey !== undefined && { shareKey }),
    complete: match.complete,
    canonicalUrl: publishedUrl(ctx, site, [...structureSegments, ...match.rest], shareKey),
  }
  issueToken(ctx, payload, answer)
  return answer
}

/** Put the site token in the answer: the one already signed for this grant today, or one signed once the transaction is over. */
function issueToken(ctx: ReadContext, payload: SiteTokenPayload, answer: PublishedSiteContent): void {
  const tokens = ctx.services.siteTokens
  const day = tokenDay(ctx.now())
  const key = mintKey(payload, day.iat)
  const token = mintedToken(tokens, key)
  if (token !== undefined) {
    answer.apiToken = token
    return
  }
  ctx.later('signSiteToken', { secret: tokens.secret, payload, day }, (signed) => {
    remember(tokens.minted, key, signed)
    answer.apiToken = signed
  })
}
