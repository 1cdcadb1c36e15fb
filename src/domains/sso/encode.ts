import type { ReadContext } from '../context.js'
import type { SamlProviderRow } from './rows.js'
import { encodeTeam } from '../teams/encode.js'
import { isComplete } from './model.js'

/**
 * This service's side of a provider: where the identity provider sends its answers (ACS), where
 * a sign-in starts, and the entity ID it knows this service by. Built from the API's base URL,
 * the organization and the provider's id, so they are stable and differ from provider to
 * provider. They name the endpoints of a SAML flow, which this in-process API does not serve.
 */
export function serviceOf(ctx: ReadContext, row: SamlProviderRow) {
  const base = `${ctx.urls.base}/sso/${encodeURIComponent(row.organization)}/saml/${encodeURIComponent(row.id)}`
  return { acsURL: `${base}/acs`, startURL: `${base}/start`, entityID: `${base}/metadata` }
}

/**
 * The value of a setting not given yet. The official schema requires all three in every answer,
 * and `ssoURL` as a URI, so a pending provider answers `about:blank` there (the URI of nothing)
 * and an empty string for the entity ID and the certificate.
 */
const UNSET_URL = 'about:blank'

/** The API resource of a SAML provider. A default team deleted since is left out. */
export function encodeSamlProvider(ctx: ReadContext, row: SamlProviderRow) {
  const team = row.defaultTeam === undefined ? undefined : ctx.tx.get('teams', row.defaultTeam)
  return {
    object: 'saml-provider' as const,
    id: row.id,
    label: row.label,
    ssoURL: row.ssoURL ?? UNSET_URL,
    entityID: row.entityID ?? '',
    certificate: row.certificate ?? '',
    ...(team && { defaultTeam: encodeTeam(ctx, team) }),
    defaultRole: row.defaultRole,
    createdAt: row.createdAt,
    status: isComplete(row) ? ('active' as const) : ('pending' as const),
    service: serviceOf(ctx, row),
    urls: { location: ctx.urls.api(`/orgs/${row.organization}/saml/${row.id}`) },
  }
}
