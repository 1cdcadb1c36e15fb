import type { z } from 'zod'
import type { Context, ReadTx } from '../context.js'
import type { SitePublishingAuthRow, SiteRow } from './rows.js'
import type { SitePublishingAuthUpdateSchema } from './schemas.js'

/**
 * Visitor authentication of a site (the official `SitePublishingAuth`): the private key that
 * signs visitor tokens, the backend that signs them, and where visitors without a valid token
 * are sent. Every site has one, made with the site (and for a loaded site that lacks one), so
 * reading it never has to write.
 */

/** Bytes of a private key: 256 bits, the size of HS256's hash (RFC 7518, 3.2). */
const KEY_BYTES = 32

/** A new private key: random bytes from the platform's CSPRNG, as lower-case hex (64 characters). */
export function newPrivateKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(KEY_BYTES))
  let hex = ''
  for (const b of bytes) hex += b.toString(16).padStart(2, '0')
  return hex
}

/** The visitor authentication row of a site (undefined for a site that has none: a missing site). */
export function publishingAuthRow(tx: ReadTx, site: string): SitePublishingAuthRow | undefined {
  return tx.scan('sitePublishingAuth', 'bySite', site)[0]?.row
}

/** Give a site its visitor authentication: a fresh key, the `custom` backend, no URLs. */
export function insertPublishingAuth(ctx: Context, site: Pick<SiteRow, 'id' | 'organization'>): SitePublishingAuthRow {
  return ctx.tx.insert('sitePublishingAuth', {
    id: ctx.newId(),
    site: site.id,
    organization: site.organization,
    privateKey: newPrivateKey(),
    backend: 'custom',
  })
}

/** A site's visitor authentication, made now if it has none. */
function requirePublishingAuth(ctx: Context, site: SiteRow): SitePublishingAuthRow {
  return publishingAuthRow(ctx.tx, site.id) ?? insertPublishingAuth(ctx, site)
}

/** `updateSitePublishingAuthById`: the backend and URLs given (null removes a URL); the key stays. */
export function updatePublishingAuth(ctx: Context, site: SiteRow, patch: z.output<typeof SitePublishingAuthUpdateSchema>): SitePublishingAuthRow {
  const row = requirePublishingAuth(ctx, site)
  const next: SitePublishingAuthRow = { ...row }
  if (patch.backend !== undefined) next.backend = patch.backend
  if (patch.fallbackURL === null) delete next.fallbackURL
  else if (patch.fallbackURL !== undefined) next.fallbackURL = patch.fallbackURL
  if (patch.logoutURL === null) delete next.logoutURL
  else if (patch.logoutURL !== undefined) next.logoutURL = patch.logoutURL
  return ctx.tx.update('sitePublishingAuth', next)
}

/** `regenerateSitePublishingAuthById`: a new key; tokens signed with the old one no longer verify. */
export function regeneratePublishingAuth(ctx: Context, site: SiteRow): SitePublishingAuthRow {
  return ctx.tx.update('sitePublishingAuth', { ...requirePublishingAuth(ctx, site), privateKey: newPrivateKey() })
}

export function encodePublishingAuth(row: SitePublishingAuthRow) {
  return {
    object: 'publishing-auth' as const,
    backend: row.backend,
    privateKey: row.privateKey,
    ...(row.fallbackURL !== undefined && { fallbackURL: row.fallbackURL }),
    ...(row.logoutURL !== undefined && { logoutURL: row.logoutURL }),
  }
}

/** What verifying a visitor of a site needs (URL resolution). */
export interface VisitorAuth {
  /**
   * The HS256 secret of the site's visitor tokens: the key's text as UTF-8 bytes, as GitBook's
   * guides sign them (`jwt.sign(claims, key)` of `jsonwebtoken`, the key copied from the settings).
   */
  key: string
  backend: SitePublishingAuthRow['backend']
  /** Where a visitor without a valid token goes ("URL to redirect to when the authenticated access secret is invalid"). */
  fallbackURL?: string
  logoutURL?: string
}

/** The visitor authentication of a site, for verifying its visitors' tokens; undefined when there is no such site. */
export function visitorAuthOf(tx: ReadTx, siteId: string): VisitorAuth | undefined {
  const row = publishingAuthRow(tx, siteId)
  if (!row) return undefined
  return {
    key: row.privateKey,
    backend: row.backend,
    ...(row.fallbackURL !== undefined && { fallbackURL: row.fallbackURL }),
    ...(row.logoutURL !== undefined && { logoutURL: row.logoutURL }),
  }
}
