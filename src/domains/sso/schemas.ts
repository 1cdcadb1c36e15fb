import { z } from 'zod'
import { RoleOrGuestSchema, TimestampSchema, UrlOfAnySchemeSchema } from '../common/schemas.js'
import { TeamSchema } from '../teams/schemas.js'
import { certificateProblem } from './certificate.js'

export const SamlLabelSchema = z
  .string()
  .min(1, 'must be at least 1 character')
  .max(30, 'must be at most 30 characters')
  .meta({ id: 'SAMLProviderLabel', description: 'Name of the provider shown on the sign-in page.' })

/** The official schema allows an empty entity ID; an empty one names no identity provider, so it is refused. */
export const SamlEntityIdSchema = z.string().min(1, 'must not be empty').max(1024, 'must be at most 1024 characters').meta({ id: 'SAMLProviderEntityID' })

export const SamlCertificateSchema = z
  .string()
  .max(10_000, 'must be at most 10000 characters')
  .superRefine((text, ctx) => {
    const problem = certificateProblem(text)
    if (problem) ctx.addIssue({ code: 'custom', message: problem })
  })
  .meta({ id: 'SAMLProviderCertificate', description: "The identity provider's signing certificate: one X.509 certificate in PEM form." })

/** The scheme of a URL zod accepted (`javascript:`), or undefined when it does not parse (the URL check says so). */
function schemeOf(url: string): string | undefined {
  try {
    return new URL(url).protocol
  } catch {
    return undefined
  }
}

/**
 * Where the identity provider signs users in: a browser is sent there, so only an http or https
 * URL will do (zod's `url()` takes any scheme: `javascript:`, `data:`, `ftp:` would be stored and
 * handed to every user starting a sign-in).
 */
export const SamlSsoUrlSchema = UrlOfAnySchemeSchema.refine(
  (url) => {
    const scheme = schemeOf(url)
    return scheme === undefined || scheme === 'http:' || scheme === 'https:'
  },
  { error: (issue) => `must be an http or https URL (not ${schemeOf(String(issue.input))})` },
)

const fields = {
  entityID: SamlEntityIdSchema.optional().meta({ description: "The identity provider's entity ID (its issuer)." }),
  certificate: SamlCertificateSchema.optional(),
  ssoURL: SamlSsoUrlSchema.optional().meta({ description: "The identity provider's single sign-on URL." }),
  defaultTeam: z
    .string()
    .min(1, 'must not be empty')
    .optional()
    .meta({ description: 'Id of a team of the organization that users signing in through the provider join.' }),
  defaultRole: RoleOrGuestSchema.optional().meta({ description: 'Role given to users joining through the provider (null: guest; default null).' }),
}

export const CreateSamlProviderSchema = z.object({ label: SamlLabelSchema, ...fields })

/** Every field optional; `defaultTeam: null` removes the default team (an addition to the official body). */
export const UpdateSamlProviderSchema = z.object({
  label: SamlLabelSchema.optional(),
  ...fields,
  defaultTeam: z.string().min(1, 'must not be empty').nullable().optional().meta({ description: 'Id of a team of the organization, or null to remove it.' }),
})

export const SamlProviderSchema = z
  .object({
    object: z.literal('saml-provider'),
    id: z.string(),
    label: z.string(),
    ssoURL: z.string(),
    entityID: z.string(),
    certificate: z.string(),
    defaultTeam: TeamSchema.optional(),
    defaultRole: RoleOrGuestSchema,
    createdAt: TimestampSchema,
    status: z.enum(['active', 'pending']).meta({ description: '`active` once `entityID`, `ssoURL` and `certificate` are all set; `pending` before.' }),
    service: z.object({
      acsURL: z.string().meta({ description: 'Assertion Consumer Service URL to give the identity provider.' }),
      startURL: z.string().meta({ description: 'URL that starts a sign-in through this provider.' }),
      entityID: z.string().meta({ description: "This service's entity ID, to give the identity provider." }),
    }),
    urls: z.object({ location: z.string() }),
  })
  .meta({ id: 'OrganizationSAMLProvider' })

export const SsoLoginSchema = z.object({ id: z.string(), label: z.string(), startURL: z.string() }).meta({ id: 'OrganizationSSOProviderLogin' })

export const SsoLoginsSchema = z.object({ items: z.array(SsoLoginSchema) })
