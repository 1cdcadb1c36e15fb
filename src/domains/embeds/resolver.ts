import { fetchOutgoing } from '../../core/outgoing.js'
import type { PrepareEnv } from '../../core/operation.js'
import { EmbedSchema, type Embed } from './schemas.js'

/**
 * How a resolver reaches the network: through the API's outgoing-fetch guard only (core/outgoing.ts:
 * http(s), public addresses unless `allowPrivateNetwork`, a size and a time limit, the shared
 * budget of outgoing fetches), so an embed URL chosen by a client cannot make the API read its
 * own network.
 */
export interface EmbedFetch {
  (url: string, options?: { maxBytes?: number; timeoutMs?: number }): Promise<{ bytes: Uint8Array; contentType?: string; url: string }>
}

/**
 * Resolves a URL to an embed (`createDocsApi({ embeds })`): at once or as a promise. It gets the
 * URL (http or https, checked) and a guarded fetch. A resolver that throws, or answers something
 * that is not an official `Embed`, gets the default link embed answered instead.
 */
export type EmbedResolver = (url: string, tools: { fetch: EmbedFetch }) => Embed | Promise<Embed>

declare module '../../core/services.js' {
  interface Services {
    /** The resolver of embeds (`createDocsApi({ embeds })`, default: `linkEmbed`, no network). */
    embeds: EmbedResolver
  }
}

/** The host of a URL without a leading `www.`. */
function siteOf(url: URL): string {
  return url.hostname.replace(/^www\./, '')
}

/**
 * The link embed of a URL, from the URL alone (no request): titled by the last segment of its
 * path (decoded, dashes and underscores as spaces), or its host for a root URL; `site` is the host.
 */
export function linkEmbed(url: string): Embed {
  const parsed = new URL(url)
  const last = parsed.pathname.split('/').filter(Boolean).pop()
  let title = siteOf(parsed)
  if (last) {
    let segment = last
    try {
      segment = decodeURIComponent(last)
    } catch {
      // A malformed escape: the segment as written.
    }
    const words = segment
      .replace(/\.[a-z0-9]{1,5}$/i, '')
      .replace(/[-_]+/g, ' ')
      .trim()
    if (words) title = words
  }
  return { type: 'link', title, site: siteOf(parsed) }
}

/** The default resolver: the link embed, no request made. */
export const defaultEmbedResolver: EmbedResolver = (url) => linkEmbed(url)

/** A guarded fetch for resolvers, bound to the API's fetch, guard switch and outgoing budget. */
export function embedFetch(env: PrepareEnv): EmbedFetch {
  return (url, options = {}) =>
    fetchOutgoing(env.fetch, url, {
      field: 'url',
      allowPrivateNetwork: env.allowPrivateNetwork,
      budget: env.outgoing.budget,
      maxBytes: options.maxBytes ?? 1024 * 1024,
      timeoutMs: options.timeoutMs ?? 5000,
    })
}

/**
 * The embed of `url` from the API's resolver; whatever goes wrong (it throws, times out, answers a
 * value that is not an official `Embed`) falls back to the link embed, so a page with an embed
 * renders a link card rather than an error.
 */
export async function resolveEmbed(env: PrepareEnv, url: string): Promise<Embed> {
  try {
    const answer = await env.services.embeds(url, { fetch: embedFetch(env) })
    const parsed = EmbedSchema.safeParse(answer)
    if (parsed.success) return parsed.data
  } catch {
    // The fallback below.
  }
  return linkEmbed(url)
}
