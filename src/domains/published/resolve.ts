import type { ReadContext } from '../context.js'
import type { SiteRow } from '../sites/rows.js'
import type { SiteSectionRow, SiteSpaceRow } from '../site-structure/rows.js'
import { siteOpenedByKey } from '../access/share-keys.js'
import { hasSections, isPublishedSiteSpace, siteSpacesOf } from '../site-structure/tree.js'

/**
 * Which published content a URL names (GitBook's URL lookup). A URL is read from the left:
 *
 * 1. the site, by origin and path (sites/urls.ts builds the same URLs): a proxy origin
 *    (`company.com/docs`), a custom hostname (and the site's basename, if any), or the API's
 *    published base followed by the organization (hostname or id) and the site (basename or id);
 * 2. on a `share-link` site, the key of one of its active links (a path segment, as GitBook's
 *    share-link URLs have it, or the URL's `share` parameter);
 * 3. a section by its path (else the default one), then a site-space by its path (else the
 *    default one of its section or of the site's root);
 * 4. what is left is the page's path in that space.
 *
 * Every step is a lookup by index or a scan of one site's structure: never a scan of every site.
 */

export interface SiteMatch {
  site: SiteRow
  /** How many of the URL's path segments the site's own URL takes. */
  consumed: number
  /** Whether the URL is under the preview base (`previewUrl`): for members, published or not, with no share key. */
  preview?: boolean
}

export interface ContentMatch extends SiteMatch {
  shareKey?: string | undefined
  /** Whether the key was a path segment (it is then part of the base paths). */
  keyInPath: boolean
  section?: SiteSectionRow | undefined
  siteSpace: SiteSpaceRow
  /** The path segments the section and site-space took. */
  structure: string[]
  /** The page path: the segments left. */
  rest: string[]
  /** Whether no further site path segment could be expected (see `complete` in the official answer). */
  complete: boolean
}

/** A URL as its parts: lower-case host, decoded non-empty path segments, the `share` parameter. */
export interface ParsedUrl {
  host: string
  segments: string[]
  share?: string | undefined
}

/** Parse a URL to resolve: undefined when it is not an http(s) URL or its path does not decode. */
export function parseUrl(text: string): ParsedUrl | undefined {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return undefined
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined
  const segments: string[] = []
  for (const raw of url.pathname.split('/')) {
    if (raw === '') continue
    try {
      segments.push(decodeURIComponent(raw))
    } catch {
      return undefined
    }
  }
  return { host: url.host.toLowerCase(), segments, share: url.searchParams.get('share') ?? undefined }
}

/** The API's published base as host and path segments (`publishedUrl` option). */
function publishedBase(ctx: ReadContext): ParsedUrl | undefined {
  return parseUrl(ctx.urls.published('/'))
}

/** The base of site previews as host and path segments (`previewUrl` option). */
function previewBase(ctx: ReadContext): ParsedUrl | undefined {
  return parseUrl(ctx.urls.preview('/'))
}

const startsWith = (segments: readonly string[], prefix: readonly string[]) => prefix.every((s, i) => segments[i] === s)

/** The published site a URL is under, from its origin and first path segments. */
export function findSiteByUrl(ctx: ReadContext, url: ParsedUrl): SiteMatch | undefined {
  // A proxy origin: the host and up to 8 path segments (the longest first).
  for (let n = Math.min(url.segments.length, 8); n >= 0; n--) {
    const origin = [url.host, ...url.segments.slice(0, n)].join('/')
    const site = ctx.tx.scan('sites', 'byProxy', origin, { limit: 1 })[0]?.row
    if (site) return { site, consumed: n }
  }
  // A custom hostname, with the site's basename when it has one.
  const byHost = ctx.tx.scan('sites', 'byHostname', url.host, { limit: 1 })[0]?.row
  if (byHost) {
    if (byHost.basename === undefined) return { site: byHost, consumed: 0 }
    return url.segments[0] === byHost.basename ? { site: byHost, consumed: 1 } : undefined
  }
  // The preview base: /{site id} (GitBook's renderer on its preview host).
  const preview = previewBase(ctx)
  if (preview && preview.host === url.host && startsWith(url.segments, preview.segments)) {
    const site = ctx.tx.get('sites', url.segments[preview.segments.length] ?? '')
    return site ? { site, consumed: preview.segments.length + 1, preview: true } : undefined
  }
  // The published base: /{organization hostname or id}/{site basename or id}.
  const base = publishedBase(ctx)
  if (!base || base.host !== url.host || !startsWith(url.segments, base.segments)) return undefined
  const [orgSegment, siteSegment] = url.segments.slice(base.segments.length)
  if (orgSegment === undefined || siteSegment === undefined) return undefined
  const organization = ctx.tx.scan('organizations', 'byHostname', orgSegment, { limit: 1 })[0]?.row ?? ctx.tx.get('organizations', orgSegment)
  if (!organization) return undefined
  const site =
    ctx.tx.scan('sites', 'byBasename', `${organization.id}/${siteSegment}`, { limit: 1 })[0]?.row ??
    ((s) => (s && s.organization === organization.id && s.basename === undefined ? s : undefined))(ctx.tx.get('sites', siteSegment))
  return site ? { site, consumed: base.segments.length + 2 } : undefined
}

/**
 * Whether a visitor may open a section or site-space: its condition holds for the visitor's
 * claims (`visible` decides; without it every condition holds).
 */
export type Visible = (condition: string | undefined) => boolean

/** The content a URL names under its site (steps 2 to 4 above); undefined when the site does not open to it. */
export function matchContent(ctx: ReadContext, match: SiteMatch, url: ParsedUrl, visible: Visible): ContentMatch | undefined {
  const { site } = match
  let i = match.consumed
  let shareKey: string | undefined
  let keyInPath = false
  if (site.visibility === 'share-link' && !match.preview) {
    const segment = url.segments[i]
    if (segment !== undefined && siteOpenedByKey(ctx.tx, segment)?.id === site.id) {
      shareKey = segment
      keyInPath = true
      i++
    } else if (url.share !== undefined && siteOpenedByKey(ctx.tx, url.share)?.id === site.id) {
      shareKey = url.share
    } else return undefined
  }
  const structureStart = i
  // A default taken where the URL could still name a sibling: more site path may follow.
  let open = false
  let section: SiteSectionRow | undefined
  if (hasSections(ctx, site.id)) {
    const sections = ctx.tx
      .scan('siteSections', 'bySite', site.id)
      .map((e) => e.row)
      .filter((s) => visible(s.condition))
    const named = url.segments[i] === undefined ? undefined : sections.find((s) => s.path === url.segments[i])
    if (named) {
      section = named
      i++
    } else {
      section = sections.find((s) => s.default) ?? sections[0]
      if (sections.length > 1) open = true
    }
    if (!section) return undefined
  }
  const siteSpaces = siteSpacesOf(ctx, site.id, section?.id).filter((s) => openable(ctx, s) && visible(s.condition))
  const named = url.segments[i] === undefined ? undefined : siteSpaces.find((s) => s.path === url.segments[i])
  let siteSpace: SiteSpaceRow | undefined
  if (named) {
    siteSpace = named
    i++
    // A site-space named by the URL ends the site's part of it, whatever default came before.
    open = false
  } else {
    siteSpace = siteSpaces.find((s) => s.default) ?? siteSpaces.find((s) => !s.hidden)
    if (siteSpaces.length > 1) open = true
  }
  if (!siteSpace) return undefined
  const rest = url.segments.slice(i)
  return {
    ...match,
    shareKey,
    keyInPath,
    section,
    siteSpace,
    structure: url.segments.slice(structureStart, i),
    rest,
    complete: !(open && rest.length === 0),
  }
}

/** A site-space a URL may open: its space is there and not in the trash (hidden ones open by their path). */
function openable(ctx: ReadContext, row: SiteSpaceRow): boolean {
  if (row.hidden) {
    const space = ctx.tx.get('spaces', row.space)
    return space !== undefined && space.deletedAt === undefined
  }
  return isPublishedSiteSpace(ctx, row)
}

/** The spaces a site publishes to its visitors (the site-spaces that open), each once. */
export function publishedSpaces(ctx: ReadContext, site: SiteRow): string[] {
  const spaces = new Set<string>()
  for (const { row } of ctx.tx.scan('siteSpaces', 'bySite', site.id)) if (openable(ctx, row)) spaces.add(row.space)
  return [...spaces]
}
