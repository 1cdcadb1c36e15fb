import { z } from 'zod'
import { queryBoolean } from '../../core/paging.js'
import { RoleOrGuestSchema, StandaloneMergeRulesSchema, TimestampSchema, UrlSchema, permissionsSchema } from '../common/schemas.js'

export const OrganizationTitleSchema = z
  .string()
  .min(2, 'must be at least 2 characters')
  .max(255, 'must be at most 255 characters')
  .regex(/^\S(.*\S)?$/s, 'must not start or end with white space')
export const OrganizationHostnameSchema = z
  .string()
  .min(3, 'must be at least 3 characters')
  .max(32, 'must be at most 32 characters')
  .regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/, 'must be lower-case letters, digits and hyphens, starting and ending with a letter or digit')
export const EmailDomainSchema = z
  .string()
  .max(253, 'must be at most 253 characters')
  .regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i, 'must be a domain name such as example.com')
export const SitePointerSchema = z.object({ type: z.literal('site'), site: z.string().min(1) }).meta({ id: 'SitePointer' })

export const ORGANIZATION_PERMISSION_KEYS = [
  'view',
  'access',
  'admin',
  'createContent',
  'createOpenAPISpec',
  'ingestConversations',
  'viewBilling',
  'listMembers',
  'listTeams',
  'listIntegrations',
  'listInstallations',
  'installIntegration',
] as const

export const OrganizationSchema = z
  .object({
    object: z.literal('organization'),
    id: z.string(),
    title: z.string(),
    createdAt: TimestampSchema,
    emailDomains: z.array(z.string()),
    hostname: z.string().optional(),
    type: z.enum(['business', 'community']),
    useCase: z.string().optional(),
    communityType: z.string().optional(),
    defaultRole: RoleOrGuestSchema,
    defaultContent: SitePointerSchema.optional(),
    sso: z.boolean(),
    ai: z.boolean(),
    inviteLinks: z.boolean(),
    plan: z.string(),
    mergeRules: StandaloneMergeRulesSchema,
    urls: z.object({ location: z.string(), app: z.string(), logo: z.string().optional() }),
    trial: z.object({ status: z.string(), count: z.number() }),
    permissions: permissionsSchema([...ORGANIZATION_PERMISSION_KEYS, 'ownTeam']),
  })
  .meta({ id: 'Organization' })

export const UpdateOrganizationSchema = z.object({
  title: OrganizationTitleSchema.optional(),
  emailDomains: z.array(EmailDomainSchema).max(100, 'must have at most 100 domains').optional(),
  hostname: OrganizationHostnameSchema.optional(),
  defaultRole: RoleOrGuestSchema.optional(),
  defaultContent: SitePointerSchema.nullable().optional(),
  logo: UrlSchema.nullable().optional(),
  sso: z.boolean().optional(),
  ai: z.boolean().optional(),
  inviteLinks: z.boolean().optional(),
  mergeRules: StandaloneMergeRulesSchema.optional(),
})

/** What creating an organization takes (fixtures; the API has no create operation). */
export const CreateOrganizationSchema = z.object({
  title: OrganizationTitleSchema,
  emailDomains: z.array(EmailDomainSchema).default([]),
  hostname: OrganizationHostnameSchema.optional(),
  type: z.enum(['business', 'community']).default('business'),
  useCase: z.string().optional(),
  defaultRole: RoleOrGuestSchema.default('read'),
  plan: z.string().default('free_2024'),
  sso: z.boolean().default(false),
  ai: z.boolean().default(false),
  inviteLinks: z.boolean().default(true),
})

export const InviteLinkSchema = z
  .object({
    object: z.literal('invite'),
    id: z.string(),
    role: RoleOrGuestSchema,
    redundant: z.boolean().meta({ description: 'Whether the caller already is a member with the role (or more).' }),
  })
  .meta({ id: 'InviteLinkToOrganization' })

export const CreateInviteLinkSchema = z.object({
  role: RoleOrGuestSchema.meta({ description: 'The role the invite link gives (null: guest).' }),
})

export const UpdateInviteLinkSchema = z.object({
  role: RoleOrGuestSchema.meta({ description: 'The new role the invite link gives (null: guest).' }),
})

const InviteEmailSchema = z.email({ error: 'must be an email address' }).max(320, 'must be at most 320 characters')

export const InviteUsersSchema = z.object({
  emails: z
    .array(
      z.union([InviteEmailSchema, z.object({ email: InviteEmailSchema, role: RoleOrGuestSchema })], {
        error:
          'must be an email address, or { email, role } with an email address and a role (admin, create, review, edit, comment, read, or null for a guest)',
      }),
    )
    .max(100, 'must hold at most 100 emails'),
  role: RoleOrGuestSchema.optional().meta({ description: "Role of the invited users given as bare addresses (default: the organization's defaultRole)." }),
  sso: z.boolean().optional(),
})

export const InviteUsersResponseSchema = z.object({
  users: z.array(z.string()),
  invited: z.number(),
  failedSSOEmails: z.array(z.string()).optional(),
})

const onboardingEnum = <T extends [string, ...string[]]>(values: T) => z.enum(values, { error: `must be one of ${values.join(', ')}` })

/** createOrganization's body (official `CreateOrganization`). */
export const CreateOrganizationBodySchema = z.object({
  title: OrganizationTitleSchema,
  emailDomains: z
    .array(EmailDomainSchema)
    .max(100, 'must have at most 100 domains')
    .optional()
    .meta({ description: 'Email domains whose verified users may join.' }),
  onboardingPreferences: z
    .object({
      source: onboardingEnum(['markdown-in-git', 'import', 'template']).nullable(),
      audience: onboardingEnum(['public', 'mixed', 'protected', 'internal']).nullable(),
      interests: z.array(onboardingEnum(['adaptive-content', 'api-docs', 'proactive-agent'])).max(3, 'must have at most 3 interests'),
    })
    .optional()
    .meta({ description: 'Onboarding answers (validated; this implementation tailors nothing with them and does not store them).' }),
})

export const CreateOrganizationQuerySchema = z.object({
  withDefaultSite: queryBoolean.optional().meta({ description: "Also create a site, the organization's default content." }),
  openapiUrl: z.string().optional().meta({ description: 'Not supported: importing a spec at creation is refused (400).' }),
})

export const OrganizationsForEmailDomainSchema = z.object({ organizations: z.array(OrganizationSchema) })
