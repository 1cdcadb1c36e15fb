import type { ReadContext } from '../context.js'
import { ApiError } from '../../core/errors.js'
import { evaluateCondition } from '../common/expressions.js'
import { publishedUrl } from '../sites/urls.js'
import { findSiteByUrl, matchContent, parseUrl, publishedSpaces, type ContentMatch, type ParsedUrl, type Visible } from './resolve.js'
import { jose, mintKey, mintedToken, remember, tokenDay, type SiteTokenPayload, type VisitorCheck } from './site-tokens.js'
import { visitorAuthOf } from '../sites/publishing-auth.js'
import { findRevision } from '../content/revision.js'
import { spaceRedirect, type ContentRedirect } from './space-redirects.js'

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
  changeRequest?: string
  revision?: string
  preview?: boolean
}

const notFound = () => new ApiError('NOT_FOUND', 'No content found for the URL')

/** The site's login URL with the path the visitor asked for (`location`, below the site's base), as GitBook's visitor authentication has it. */
function withLocation(fallbackURL: string, segments: readonly string[]): string {
  const to = new URL(fallbackURL)
  to.searchParams.set('location', `/${segments.map(encodeURIComponent).join('/')}`)
  return to.toString()
}

/** `/a/b/` from segments (percent-encoded, as in a URL); `/` for none. */
function basePathOf(segments: readonly string[]): string {
  return segments.length === 0 ? '/' : `/${segments.map(encodeURIComponent).join('/')}/`
}

/** The official `PublishedContentRedirect` to a site's login (visitor authentication). */
export interface ExternalRedirect {
  target: 'external'
  site: string
  redirect: string
}

const unauthorized = (message: string) => new ApiError('UNAUTHORIZED', message)

/** The registered claims of a JWT: not the visitor's. */
const REGISTERED = new Set(['exp', 'iat', 'nbf', 'iss', 'aud', 'jti'])

/**
 * Resolve a published URL for a visitor: the content it names and a site token for it, a redirect
 * to the site's login (a `visitor-auth` site without a valid visitor token), a redirect to a page
 * (a path the space's redirects name, space-redirects.ts), or a 404 (no
 * published site there, a share-link site without its key, nothing the visitor may open).
 */
export function resolvePublishedUrl(
  ctx: ReadContext,
  input: { url: string; visitor?: VisitorInput | undefined; redirectOnError?: boolean | undefined },
): PublishedSiteContent | ExternalRedirect | ContentRedirect {
  const parsed = parseUrl(input.url)
  // A preview (`~/changes/<id>/` or `~/revisions/<id>/`) is read out first: the site's part of the URL is what comes before it.
  const preview = parsed && previewOf(parsed)
  const url = preview ? preview.url : parsed
  const found = url && findSiteByUrl(ctx, url)
  if (!url || !found) throw notFound()
  const { site } = found
  // A site preview opens to members who may read the site, resolving with their own token (the
  // renderer passes the preview link's token), published or not, whatever its visibility.
  const previewer = ctx.actor.user !== '' && !ctx.actor.content && ctx.access.can('site', site.id, 'access') ? ctx.actor.user : undefined
  if (found.preview ? previewer === undefined : !site.published) throw notFound()
  const claims: Record<string, unknown> = { unsigned: input.visitor?.unsignedClaims ?? {} }
  let visitor: VisitorCheck | undefined
  let loginUrl: string | undefined
  if (site.visibility === 'visitor-auth' && !found.preview) {
    // Only a visitor token signed with the site's key opens it; its claims are the visitor's.
    const auth = visitorAuthOf(ctx.tx, site.id)
    loginUrl = auth?.fallbackURL === undefined ? undefined : withLocation(auth.fallbackURL, url.segments.slice(found.consumed))
    const login = (why: string) => {
      if (loginUrl === undefined) throw unauthorized(`${why}, and the site has no fallbackURL to send visitors to`)
      return { target: 'external' as const, site: site.id, redirect: loginUrl }
    }
    const token = input.visitor?.jwtToken
    if (token === undefined || auth === undefined) return login('This site needs a visitor token')
    // jose is loaded on first use: outside the transaction, then the operation runs again (core/warmup.ts).
    if (!jose.loaded) ctx.beforehand(async () => void (await jose.load()))
    const { decodeJwt } = jose.get()
    let payload: Record<string, unknown>
    try {
      payload = decodeJwt(token)
    } catch {
      if (input.redirectOnError) return login('The visitor token is not a JWT')
      throw unauthorized('The visitor token is not a JWT')
    }
    // Read before the signature is checked (after the transaction): an answer is given only once it is.
    for (const [name, value] of Object.entries(payload)) if (!REGISTERED.has(name) && name !== 'unsigned') claims[name] = value
    visitor = { token, key: auth.key }
  }
  // Sections and site-spaces with a condition open only to visitors it holds for (adaptive content).
  const visible: Visible = (condition) => condition === undefined || evaluateCondition(condition, { claims })
  const match = matchContent(ctx, found, url, visible)
  if (!match) throw notFound()
  // A path the space's content redirects (Git Sync's redirects); not in previews, which show a change request's or an old revision's pages.
  const redirect = found.preview || preview ? undefined : spaceRedirect(ctx, match, url.segments)
  // A visitor token is checked first (after the transaction, issueToken): an unverified visitor learns no page's URL.
  if (redirect && visitor === undefined) return redirect
  const answer = contentAnswer(ctx, match, url.segments, claims, input.visitor?.type ?? 'human', visitor !== undefined, preview?.after)
  // A member resolving with his own token (GitBook's renderer on a preview) gets a token that reads
  // change requests as he may (access/levels.ts); anyone else a visitor's token.
  if (found.preview) Object.assign(answer.payload, { member: previewer, preview: true })
  else if (ctx.actor.user !== '' && !ctx.actor.content && ctx.access.can('space', match.siteSpace.space, 'viewChangeRequests')) {
    answer.payload.member = ctx.actor.user
  }
  if (preview) previewAnswer(ctx, answer.content, preview)
  issueToken(ctx, answer.payload, answer.content, visitor, input.redirectOnError ? loginUrl : undefined, redirect)
  return answer.content
}

function contentAnswer(
  ctx: ReadContext,
  match: ContentMatch,
  segments: readonly string[],
  claims: Record<string, unknown>,
  visitorType: 'human' | 'agent',
  authenticated: boolean,
  /** The page path after a preview's segments: part of the live page's canonical URL. */
  previewPath: readonly string[] = [],
): { payload: SiteTokenPayload; content: PublishedSiteContent } {
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
    ...(authenticated && { authenticated: true as const }),
  }
  const content: PublishedSiteContent = {
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
    canonicalUrl: publishedUrl(ctx, site, [...structureSegments, ...match.rest, ...previewPath], shareKey),
  }
  return { payload, content }
}

/**
 * Put the site token in the answer: the one already signed for this grant today, or one signed
 * once the transaction is over. A visitor token is checked every time (then): refused, the answer
 * becomes a 401, or the redirect to the site's login when the caller asked for one (`fallback`).
 */
function issueToken(
  ctx: ReadContext,
  payload: SiteTokenPayload,
  answer: PublishedSiteContent,
  visitor: VisitorCheck | undefined,
  loginUrl: string | undefined,
  /** A space redirect to answer instead of the content once the visitor token verifies. */
  redirect?: ContentRedirect,
): void {
  const tokens = ctx.services.siteTokens
  const day = tokenDay(ctx.now())
  const key = mintKey(payload, day.iat)
  const token = visitor ? undefined : mintedToken(tokens, key)
  if (token !== undefined) {
    answer.apiToken = token
    return
  }
  const at = ctx.now().getTime()
  ctx.later('issueSiteToken', { secret: tokens.secret, payload, day, visitor, at }, (issued) => {
    if ('token' in issued) {
      if (!visitor) remember(tokens.minted, key, issued.token)
      answer.apiToken = issued.token
      if (redirect) replaceAnswer(answer, redirect)
      return
    }
    if (loginUrl === undefined) throw unauthorized(`Invalid visitor token: ${issued.failed}`)
    // The answer becomes the redirect to the login.
    replaceAnswer(answer, { target: 'external', site: payload.site, redirect: loginUrl } satisfies ExternalRedirect)
  })
}

/** An answer given after the transaction becomes a redirect: the same object (the one handed out), emptied. */
function replaceAnswer(answer: PublishedSiteContent, redirect: ExternalRedirect | ContentRedirect): void {
  for (const field of Object.keys(answer)) delete (answer as unknown as Record<string, unknown>)[field]
  Object.assign(answer, redirect)
}

/** A preview URL: the change request or revision it names, the URL without those segments, and the page path after them. */
interface Preview {
  kind: 'changes' | 'revisions'
  id: string
  url: ParsedUrl
  after: string[]
}

/**
 * GitBook's preview URLs: `<site URL>/~/changes/<change request id>/<page path>` and
 * `<site URL>/~/revisions/<revision id>/<page path>` (the renderer's lib/data/urls.ts reads them
 * the same way: the site is what comes before `~`).
 */
function previewOf(url: ParsedUrl): Preview | undefined {
  const at = url.segments.indexOf('~')
  const kind = url.segments[at + 1]
  const id = url.segments[at + 2]
  if (at < 0 || (kind !== 'changes' && kind !== 'revisions') || id === undefined) return undefined
  return { kind, id, url: { ...url, segments: url.segments.slice(0, at) }, after: url.segments.slice(at + 3) }
}

/**
 * The content answer of a preview: the change request (of the space the URL renders, readable by
 * the caller: members who may read change requests) or the revision (of that space; one made for a
 * change request under the same rule, main's old ones for anyone the site opens to), its segments
 * in `basePath` (links stay in the preview) and the page path after them. Anything else is the 404
 * of a URL naming nothing.
 */
function previewAnswer(ctx: ReadContext, content: PublishedSiteContent, preview: Preview): void {
  const space = ctx.tx.get('spaces', content.space)
  if (!space) throw notFound()
  const mayReadChanges = () => ctx.access.can('space', space.id, 'viewChangeRequests')
  if (preview.kind === 'changes') {
    const cr =
      ctx.tx.get('changeRequests', preview.id) ??
      (/^[1-9]\d{0,9}$/.test(preview.id) ? ctx.tx.scan('changeRequests', 'byNumber', `${space.id}/${preview.id}`)[0]?.row : undefined)
    if (!cr || cr.space !== space.id || !mayReadChanges()) throw notFound()
    content.changeRequest = cr.id
  } else {
    const rev = findRevision(ctx.tx, space, preview.id)
    if (!rev || (rev.changeRequest !== undefined && !mayReadChanges())) throw notFound()
    content.revision = rev.id
  }
  const segments = ['~', preview.kind, preview.id]
  content.basePath = `${content.basePath}${segments.map(encodeURIComponent).join('/')}/`
  content.pathname = [...(content.pathname === '' ? [] : content.pathname.split('/')), ...preview.after].join('/')
  content.preview = true
}
