import { lazyModule } from '../../core/lazy.js'
import type { ContentGrant } from '../../core/context.js'
import { rememberBounded } from '../../core/bounded-map.js'

/** jose (JWTs), loaded when the first site or visitor token is signed or checked. */
export const jose = lazyModule('jose', () => import('jose'))

/**
 * Site API tokens (the official `SiteAPIToken`): JWTs signed by the API (HS256, with `jose`),
 * issued when a published URL is resolved and then sent as the bearer of every call that renders
 * the site. A token grants what its claims say (core/context.ts `ContentGrant`), and only while
 * the site still opens to it (domains/access/levels.ts checks that at each use).
 *
 * Tokens are minted for a UTC day, as GitBook's API does: issued at the day's start, valid until
 * 00:05 the next day. So the same grant gives the same token all day (the renderer and caches in
 * front of it see one URL answer), and signing is done once per grant and day (`minted` below).
 */

/** A token's payload: the official claims, plus the access it was issued through. */
export interface SiteTokenPayload {
  kind: 'site'
  organization: string
  site: string
  siteSpace: string
  siteSection?: string
  space: string
  spaces: string[]
  visitorType: 'human' | 'agent'
  claims: Record<string, unknown>
  draft: false
  /** The share key the visitor opened a `share-link` site with. */
  shareKey?: string
  /** Set when a `visitor-auth` site was opened with a valid visitor token. */
  authenticated?: true
  /** The member who resolved the URL with his token, when he may read change requests of its space (a preview). */
  member?: string
  /** Set for a site preview (the `previewUrl` base): the token holds while `member` may read the site. */
  preview?: true
}

/** What an API keeps for its site tokens: the signing key, and bounded caches of what was signed and verified. */
export interface SiteTokens {
  /** The HS256 secret. */
  readonly secret: Uint8Array
  /** Tokens signed, by payload and day (`mintKey`): most recently used last. */
  readonly minted: Map<string, string>
  /** Tokens verified, by token: the grant and when it expires (seconds). */
  readonly verified: Map<string, { grant: ContentGrant; exp: number }>
}

/** How many signed and verified tokens an API keeps (each map): a bound on memory whatever callers send. */
export const SITE_TOKEN_CACHE = 2000

/** Five minutes past midnight: how long a day's token outlives its day. */
const OVERLAP_SECONDS = 5 * 60

/**
 * The API's site tokens. `secret` (the `siteTokenSecret` option) keeps tokens valid across
 * restarts and processes; without it each API makes a random one (tokens it issued stop working
 * when it stops).
 */
export function createSiteTokens(secret?: string): SiteTokens {
  const key = secret !== undefined ? new TextEncoder().encode(secret) : crypto.getRandomValues(new Uint8Array(32))
  if (key.length < 32) throw new TypeError('siteTokenSecret must be at least 32 bytes long (HS256)')
  return { secret: key, minted: new Map(), verified: new Map() }
}

/** The day a token is minted for: issued at the UTC midnight before `now`, valid until 00:05 after the next one. */
export function tokenDay(now: Date): { iat: number; exp: number } {
  const iat = Math.floor(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) / 1000)
  return { iat, exp: iat + 24 * 3600 + OVERLAP_SECONDS }
}

/** The cache key of a payload on a day. */
export function mintKey(payload: SiteTokenPayload, iat: number): string {
  return `${iat}:${JSON.stringify(payload)}`
}

/**
 * The longest key either cache keeps (a payload's JSON, a token): a visitor's unsigned claims are
 * the caller's, up to the body limit, so the count bound alone would not bound the memory. A grant
 * with larger claims is signed (and verified) each time, never kept.
 */
export const SITE_TOKEN_CACHE_KEY_CHARS = 8192

/** Keep `value` under `key`, most recent last, dropping the oldest past the bound. */
export function remember<V>(map: Map<string, V>, key: string, value: V): void {
  if (key.length <= SITE_TOKEN_CACHE_KEY_CHARS) rememberBounded(map, key, value, SITE_TOKEN_CACHE)
}

/** A token already signed for this payload and day, if any. */
export function mintedToken(tokens: SiteTokens, key: string): string | undefined {
  const token = tokens.minted.get(key)
  if (token !== undefined) remember(tokens.minted, key, token)
  return token
}

/** Sign a payload (HS256) for a day. */
export async function signSiteToken(secret: Uint8Array, payload: SiteTokenPayload, day: { iat: number; exp: number }): Promise<string> {
  const { SignJWT } = await jose.load()
  return new SignJWT({ ...payload }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuedAt(day.iat).setExpirationTime(day.exp).sign(secret)
}

/** A visitor token to check before a site token is given for it: the token and the site's key (UTF-8 text, as GitBook's guides sign with it). */
export interface VisitorCheck {
  token: string
  key: string
}

/**
 * Check a visitor token (HS256 with the site's key, not expired at `at`), then sign the site token:
 * `{ token }`, or `{ failed }` saying why the visitor token was refused.
 */
export async function issueSiteToken(input: {
  secret: Uint8Array
  payload: SiteTokenPayload
  day: { iat: number; exp: number }
  visitor?: VisitorCheck | undefined
  at: number
}): Promise<{ token: string } | { failed: string }> {
  if (input.visitor) {
    const { decodeProtectedHeader, jwtVerify } = await jose.load()
    try {
      if (decodeProtectedHeader(input.visitor.token).alg !== 'HS256') return { failed: 'the visitor token is not signed with HS256' }
      await jwtVerify(input.visitor.token, new TextEncoder().encode(input.visitor.key), { algorithms: ['HS256'], currentDate: new Date(input.at) })
    } catch (error) {
      return { failed: `the visitor token is not valid for this site (${(error as Error).message})` }
    }
  }
  return { token: await signSiteToken(input.secret, input.payload, input.day) }
}

/** Whether a bearer is shaped like a JWT (three base64url parts, a JSON header): other bearers are the API's opaque tokens. */
export function looksLikeJwt(token: string): boolean {
  return token.startsWith('eyJ') && /^[\w-]+\.[\w-]+\.[\w-]*$/.test(token)
}

/**
 * The grant of a site token signed by this API and not expired at `now`; undefined for anything
 * else (another key, a tampered payload, `alg: none` or any algorithm but HS256, a payload that
 * is not a site token).
 */
export async function verifySiteToken(tokens: SiteTokens, token: string, now: Date): Promise<ContentGrant | undefined> {
  const seconds = now.getTime() / 1000
  const known = tokens.verified.get(token)
  if (known) return known.exp > seconds ? known.grant : undefined
  const { decodeProtectedHeader, jwtVerify } = await jose.load()
  try {
    if (decodeProtectedHeader(token).alg !== 'HS256') return undefined
    const { payload } = await jwtVerify(token, tokens.secret, { algorithms: ['HS256'], currentDate: now })
    const grant = grantOf(payload)
    if (!grant || typeof payload.exp !== 'number') return undefined
    remember(tokens.verified, token, { grant, exp: payload.exp })
    return grant
  } catch {
    return undefined
  }
}

const isString = (v: unknown): v is string => typeof v === 'string' && v.length > 0

/** A verified payload as a grant: undefined when it is not a site token's. */
function grantOf(p: Record<string, unknown>): ContentGrant | undefined {
  if (p.kind !== 'site' || !isString(p.organization) || !isString(p.site) || !isString(p.siteSpace) || !isString(p.space)) return undefined
  if (!Array.isArray(p.spaces) || !p.spaces.every(isString)) return undefined
  const claims = typeof p.claims === 'object' && p.claims !== null && !Array.isArray(p.claims) ? (p.claims as Record<string, unknown>) : {}
  return {
    kind: 'site',
    organization: p.organization,
    site: p.site,
    siteSpace: p.siteSpace,
    siteSection: isString(p.siteSection) ? p.siteSection : undefined,
    space: p.space,
    spaces: p.spaces,
    claims,
    visitorType: p.visitorType === 'agent' ? 'agent' : 'human',
    shareKey: isString(p.shareKey) ? p.shareKey : undefined,
    authenticated: p.authenticated === true,
    member: isString(p.member) ? p.member : undefined,
    preview: p.preview === true,
  }
}
