import type { InstallationGrant } from '../../core/context.js'
import { ApiError } from '../../core/errors.js'
import { createIdMaker } from '../../core/ids.js'
import type { Context } from '../context.js'
import type { ReadStore } from '../area.js'
import type { IntegrationInstallationRow, IntegrationInstallationTokenRow } from './rows.js'

/**
 * Installation tokens: a bearer the API accepts with exactly the integration's declared scopes
 * (read at each request: a publish that changes them changes what the token may do) over the
 * installation's targets (core/scopes.ts, access/levels.ts). A token lives an hour, as the
 * platform's temporary tokens do, and dies with its installation (uninstalled, or the integration
 * unpublished): its row is removed with it.
 */

/** How long an installation token works: an hour. */
export const INSTALLATION_TOKEN_TTL_MS = 60 * 60 * 1000
/** Live tokens an installation keeps at most: issuing one more drops its oldest, so an hour of calls keeps the rows (and the scans of issuing and delivering) bounded. */
export const INSTALLATION_TOKENS_KEPT = 100

/** Every installation token starts with this (an opaque token the integrations area knows). */
export const INSTALLATION_TOKEN_PREFIX = 'gb_inst_'

/** 32 symbols of nanoid's alphabet from the platform's CSPRNG (192 bits): never guessable, whatever the `ids` option. */
const newSecret = createIdMaker(32)

/**
 * The user an integration's installation tokens act as (`integration-<uid>`, named after the
 * integration's title): what they write (a change request, a merge) names it, as the platform
 * shows an integration's changes. It is no member of any organization; it is made when its
 * integration's first token is issued and stays with what names it.
 */
export const integrationUserId = (uid: string) => `integration-${uid}`

function ensureIntegrationUser(ctx: Context, integration: string): void {
  const row = ctx.tx.get('integrations', integration)
  if (!row) return
  const id = integrationUserId(row.uid)
  const user = ctx.tx.get('users', id)
  if (!user) ctx.tx.insert('users', { id, displayName: row.title, emailVerified: false })
  else if (user.displayName !== row.title) ctx.tx.update('users', { ...user, displayName: row.title })
}

/**
 * Issue a token of `installation`, valid for an hour from now: its expired tokens are dropped, and
 * its oldest live ones past INSTALLATION_TOKENS_KEPT - 1.
 */
export function issueInstallationToken(ctx: Context, installation: IntegrationInstallationRow): IntegrationInstallationTokenRow {
  const now = ctx.now()
  ensureIntegrationUser(ctx, installation.integration)
  const live: IntegrationInstallationTokenRow[] = []
  for (const { row } of ctx.tx.scan('integrationInstallationTokens', 'byInstallation', installation.id)) {
    if (Date.parse(row.expiresAt) <= now.getTime()) ctx.tx.delete('integrationInstallationTokens', row.id)
    else live.push(row)
  }
  if (live.length >= INSTALLATION_TOKENS_KEPT) {
    live.sort((a, b) => a.expiresAt.localeCompare(b.expiresAt))
    for (const row of live.slice(0, live.length - INSTALLATION_TOKENS_KEPT + 1)) ctx.tx.delete('integrationInstallationTokens', row.id)
  }
  return ctx.tx.insert('integrationInstallationTokens', {
    id: `${INSTALLATION_TOKEN_PREFIX}${newSecret()}`,
    integration: installation.integration,
    installation: installation.id,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + INSTALLATION_TOKEN_TTL_MS).toISOString(),
  })
}

/**
 * The token a delivery's environment carries: the installation's newest one while it has at least
 * half its hour left, else a new one. So deliveries (retries, an event per change) keep at most a
 * few live tokens per installation instead of one row per attempt for an hour.
 */
export function deliveryToken(ctx: Context, installation: IntegrationInstallationRow): IntegrationInstallationTokenRow {
  const now = ctx.now().getTime()
  let newest: IntegrationInstallationTokenRow | undefined
  for (const { row } of ctx.tx.scan('integrationInstallationTokens', 'byInstallation', installation.id)) {
    if (!newest || row.expiresAt > newest.expiresAt) newest = row
  }
  if (newest && Date.parse(newest.expiresAt) - now >= INSTALLATION_TOKEN_TTL_MS / 2) return newest
  return issueInstallationToken(ctx, installation)
}

/** `createIntegrationInstallationToken`: the installation of that integration (404 otherwise), a new token. */
export function createInstallationToken(ctx: Context, name: string, installationId: string): { token: string; expiresAt: string } {
  const installation = ctx.tx.get('integrationInstallations', installationId)
  if (!installation || installation.integration !== name) throw new ApiError('NOT_FOUND', 'Installation not found')
  const row = issueInstallationToken(ctx, installation)
  return { token: row.id, expiresAt: row.expiresAt }
}

/**
 * The grant of an installation token: undefined (a 401) when it is not one, has expired, or its
 * installation or integration is gone. Its targets are read now: the installing organization, the
 * spaces and sites the installation is enabled on.
 */
export function installationGrant(read: ReadStore, token: string, now: Date): InstallationGrant | undefined {
  if (!token.startsWith(INSTALLATION_TOKEN_PREFIX)) return undefined
  return read((tx) => {
    const row = tx.get('integrationInstallationTokens', token)
    if (!row || Date.parse(row.expiresAt) <= now.getTime()) return undefined
    const installation = tx.get('integrationInstallations', row.installation)
    const integration = tx.get('integrations', row.integration)
    if (!installation || !integration || installation.integration !== integration.id) return undefined
    const user = integrationUserId(integration.uid)
    return {
      kind: 'installation',
      user: tx.get('users', user) ? user : '',
      integration: integration.id,
      installation: installation.id,
      organization: installation.organization,
      scopes: integration.scopes,
      spaces: tx.scan('integrationSpaceInstallations', 'byInstallation', installation.id).map((e) => e.row.space),
      sites: tx.scan('integrationSiteInstallations', 'byInstallation', installation.id).map((e) => e.row.site),
      expiresAt: row.expiresAt,
    }
  })
}
