import { z } from 'zod'
import { DefaultLevelSchema, MergeRulesSchema, ShareKeySchema, TimestampSchema, UrlSchema, permissionsSchema } from '../common/schemas.js'
import { moveBodySchema } from '../collections/schemas.js'

export const SPACE_VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth', 'in-collection', 'private'] as const
export const SpaceVisibilitySchema = z.enum(SPACE_VISIBILITIES).meta({ id: 'ContentVisibility' })
export const SpaceEditModeSchema = z.enum(['live', 'locked']).meta({ id: 'SpaceEditMode' })
export const SpaceTitleSchema = z.string().max(50, 'must be at most 50 characters').meta({ id: 'SpaceTitle' })
export const EmojiSchema = z.string().max(50, 'must be at most 50 characters').meta({ id: 'Emoji' })
export const LANGUAGES = [
  'en',
  'fr',
  'de',
  'es',
  'it',
  'pt',
  'pt-br',
  'ru',
  'ja',
  'zh',
  'zh-tw',
  'yue',
  'ko',
  'ar',
  'hi',
  'nl',
  'pl',
  'tr',
  'sv',
  'no',
  'da',
  'fi',
  'el',
  'cs',
  'hu',
  'ro',
  'th',
  'vi',
  'id',
  'ms',
  'he',
  'uk',
  'sk',
  'bg',
  'hr',
  'lt',
  'lv',
  'et',
  'sl',
] as const
export const LanguageSchema = z.enum(LANGUAGES).meta({ id: 'TranslationLanguage' })

export const SPACE_PERMISSION_KEYS = [
  'view',
  'access',
  'admin',
  'viewInviteLinks',
  'edit',
  'triggerGitSync',
  'comment',
  'merge',
  'review',
  'installIntegration',
] as const

/** A space's Git Sync (the official GitSyncState): its `gitSync` field, and what git info answers (git-sync/operations.ts). */
export const GitSyncStateSchema = z
  .object({
    installationId: z.string(),
    installationProvider: z.enum(['github', 'gitlab', 'github-legacy']),
    installationStatus: z.enum(['unauthenticated', 'active', 'pending']),
    repoName: z.string().optional(),
    url: z.string().optional(),
    operationTimeout: z.number().int().optional(),
    updatedAt: TimestampSchema.optional(),
    operation: z
      .object({
        state: z.enum(['running', 'failure', 'success', 'timeout']),
        direction: z.enum(['import', 'export']),
        startedAt: TimestampSchema,
        endedAt: TimestampSchema.optional(),
        error: z.string().optional(),
        revision: z.string().optional(),
        commit: z.string().optional(),
      })
      .optional(),
  })
  .meta({ id: 'GitSyncState', description: "A space's Git Sync: the repository and the state of the last import or export." })

export const SpaceSchema = z
  .object({
    object: z.literal('space'),
    id: z.string(),
    title: z.string(),
    emoji: z.string(),
    visibility: SpaceVisibilitySchema,
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
    deletedAt: TimestampSchema.optional(),
    editMode: SpaceEditModeSchema.optional(),
    mergeRules: MergeRulesSchema,
    urls: z.object({
      location: z.string(),
      app: z.string(),
      published: z.string().optional(),
      public: z.string().optional(),
      icon: z.string().optional(),
    }),
    organization: z.string(),
    parent: z.string().optional(),
    language: LanguageSchema.optional(),
    revision: z.string(),
    defaultLevel: DefaultLevelSchema,
    comments: z.number(),
    changeRequests: z.number(),
    changeRequestsOpen: z.number(),
    changeRequestsDraft: z.number(),
    gitSync: GitSyncStateSchema.optional(),
    permissions: permissionsSchema(SPACE_PERMISSION_KEYS),
  })
  .meta({ id: 'Space' })

export const CreateSpaceSchema = z.object({
  title: SpaceTitleSchema.optional(),
  emoji: EmojiSchema.optional(),
  parent: z.string().min(1).optional().meta({ description: 'ID of a parent collection' }),
  language: LanguageSchema.optional(),
  editMode: SpaceEditModeSchema.optional(),
  visibility: SpaceVisibilitySchema.optional().meta({ description: 'Defaults to `in-collection` in a collection, `private` otherwise.' }),
  empty: z.literal(true).optional().meta({ description: 'Create a space with no page in it.' }),
})

/**
 * The body of a space update. `emoji` and `icon` are alternatives (as in the official body):
 * setting one removes the other, `null` removes it, and setting both at once is a 400.
 */
export const UpdateSpaceSchema = z
  .object({
    editMode: SpaceEditModeSchema.optional(),
    title: SpaceTitleSchema.optional(),
    defaultLevel: DefaultLevelSchema.optional(),
    language: LanguageSchema.optional(),
    mergeRules: MergeRulesSchema.optional(),
    emoji: EmojiSchema.nullable().optional().meta({ description: 'An emoji; null removes it.' }),
    icon: UrlSchema.nullable().optional().meta({ description: 'URL of an icon; null removes it.' }),
  })
  .refine((b) => !(typeof b.emoji === 'string' && typeof b.icon === 'string'), {
    message: 'give either `emoji` or `icon`, not both',
    path: ['icon'],
  })

/** The body of moveSpace: `position` points at sibling spaces. */
export const MoveSpaceSchema = moveBodySchema('space')

/** The body of transferSpace (the reference's own operation). */
export const TransferSpaceSchema = z.object({
  organization: z.string().min(1, 'must not be empty').meta({ description: 'ID of the target organization (may be the current one).' }),
  parent: z.string().min(1, 'must not be empty').optional().meta({ description: 'ID of a collection of the target organization; its root when omitted.' }),
})

/** The query of getSpaceById. */
export const GetSpaceQuerySchema = z.object({
  shareKey: ShareKeySchema,
})
