import { linkEmbed, type EmbedResolver } from './resolver.js'
import type { Embed } from './schemas.js'

/** An oEmbed provider: the URLs it answers for, and its endpoint (`https://www.youtube.com/oembed`). */
export interface OEmbedProvider {
  match: RegExp | ((url: URL) => boolean)
  endpoint: string
}

export interface OEmbedResolverOptions {
  /** Providers whose endpoint is asked directly (no page fetched first). @default [] */
  providers?: readonly OEmbedProvider[]
  /**
   * Fetch the page itself and follow its `<link rel="alternate" type="application/json+oembed">`
   * (oEmbed discovery); its `<title>` titles a link embed when there is none. @default true
   */
  discover?: boolean
  /** The most a page read for discovery may hold (its head is where the link is). @default 524288 (512 KiB) */
  pageBytes?: number
  /** The most an oEmbed answer may hold. @default 65536 (64 KiB) */
  answerBytes?: number
}

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'", '#x27': "'" }

/** The text of HTML attribute values and titles, with the common entities decoded. */
function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|apos|#39|#x27);/g, (_, name: string) => ENTITIES[name] ?? '')
}

const escapeAttribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')

const ATTRIBUTES: Readonly<Record<'type' | 'href', RegExp>> = {
  type: /\stype\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i,
  href: /\shref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i,
}

/** The value of an attribute of one tag's text (`href="..."`, `href='...'` or bare), or undefined. */
function attribute(tag: string, name: 'type' | 'href'): string | undefined {
  const m = ATTRIBUTES[name].exec(tag)
  return m ? decodeEntities(m[1] ?? m[2] ?? m[3] ?? '') : undefined
}

/** What discovery finds in a page: its oEmbed JSON endpoint and its title. One pass over the tags (linear). */
export function discoverIn(html: string, base: string): { endpoint?: string; title?: string } {
  const found: { endpoint?: string; title?: string } = {}
  for (const m of html.matchAll(/<link\b[^>]*>/gi)) {
    const tag = m[0]
    if (attribute(tag, 'type')?.toLowerCase() !== 'application/json+oembed') continue
    const href = attribute(tag, 'href')
    if (!href) continue
    try {
      found.endpoint = new URL(href, base).href
      break
    } catch {
      // An unusable href: look further.
    }
  }
  const title = /<title\b[^>]*>([^<]{1,1000})<\/title>/i.exec(html)?.[1]
  if (title?.trim()) found.title = decodeEntities(title.trim())
  return found
}

/** The embed of an oEmbed answer (https://oembed.com/#section2.3), or undefined when it has nothing to show. */
export function embedOfOEmbed(answer: unknown, url: string, pageTitle?: string): Embed | undefined {
  if (typeof answer !== 'object' || answer === null) return undefined
  const o = answer as Record<string, unknown>
  const text = (key: string) => (typeof o[key] === 'string' && (o[key] as string).trim() ? (o[key] as string) : undefined)
  const link = linkEmbed(url)
  const title = text('title') ?? pageTitle ?? link.title
  const site = text('provider_name') ?? link.site
  const html = text('html')
  if ((o.type === 'rich' || o.type === 'video') && html) return { type: 'rich', html, title, site }
  const photo = text('url')
  if (o.type === 'photo' && photo && /^https?:\/\//i.test(photo)) {
    return { type: 'rich', html: `<img src="${escapeAttribute(photo)}" alt="${escapeAttribute(title)}">`, title, site }
  }
  return { type: 'link', title, site }
}

/**
 * An embed resolver asking oEmbed providers (`createDocsApi({ embeds: oembedResolver() })`), for
 * hosts that allow outgoing requests: every request goes through the API's outgoing-fetch guard
 * (public addresses only unless `allowPrivateNetwork`, size and time limits). A URL of a listed
 * provider asks its endpoint; any other is discovered from its page. What fails (a refused host,
 * an error status, an answer that is not JSON) falls back to the link embed (docs/behaviour/embeds.md).
 */
export function oembedResolver(options: OEmbedResolverOptions = {}): EmbedResolver {
  const providers = options.providers ?? []
  const discover = options.discover ?? true
  const pageBytes = options.pageBytes ?? 512 * 1024
  const answerBytes = options.answerBytes ?? 64 * 1024
  return async (url, { fetch }) => {
    const parsed = new URL(url)
    const provider = providers.find((p) => (typeof p.match === 'function' ? p.match(parsed) : p.match.test(url)))
    let endpoint: string | undefined
    let title: string | undefined
    if (provider) {
      const ask = new URL(provider.endpoint)
      ask.searchParams.set('url', url)
      ask.searchParams.set('format', 'json')
      endpoint = ask.href
    } else if (discover) {
      const page = await fetch(url, { maxBytes: pageBytes })
      const found = discoverIn(new TextDecoder().decode(page.bytes), page.url)
      endpoint = found.endpoint
      title = found.title
    }
    if (!endpoint) return title ? { ...linkEmbed(url), title } : linkEmbed(url)
    const got = await fetch(endpoint, { maxBytes: answerBytes })
    const embed = embedOfOEmbed(JSON.parse(new TextDecoder().decode(got.bytes)), url, title)
    return embed ?? linkEmbed(url)
  }
}
