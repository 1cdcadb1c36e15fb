import { z } from 'zod'
import { listQuery } from '../../core/paging.js'
import { TimestampSchema, UserSchema } from '../common/schemas.js'
import { SLUG_PATTERN, SLUG_RULE } from '../content/slug.js'
import { GIT_NAME_RULE, gitRefusesName } from '../content/git-names.js'
import { DocumentInputSchema, FileSchema, JsonDocumentSchema } from '../content/schemas.js'

export const ChangeRequestStatusSchema = z.enum(['draft', 'open', 'archived', 'merged'], { error: 'must be one of draft, open, archived, merged' })
/**
 * A change request's subject, wherever it is set (create, patch, review requests, state documents):
 * at most 100 characters, the official `ChangeRequestSubject` every answer carrying the change
 * request is held to.
 */
export const SubjectSchema = z.string().max(100, 'must be at most 100 characters')

export const ChangeRequestSchema = z
  .looseObject({
    object: z.literal('change-request'),
    id: z.string(),
    number: z.number(),
    status: ChangeRequestStatusSchema,
    subject: z.string(),
    description: JsonDocumentSchema.optional(),
    createdBy: UserSchema,
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
    space: z.string(),
    revision: z.string(),
    revisionInitial: z.string(),
    revisionMergedAncestor: z.string().optional(),
    revisionMerged: z.string().optional(),
    comments: z.number(),
    outdated: z.boolean(),
    urls: z.object({ app: z.string(), location: z.string() }),
  })
  .meta({ id: 'ChangeRequest' })

export const CreateChangeRequestSchema = z.looseObject({ subject: SubjectSchema.optional() })

export const UpdateChangeRequestSchema = z.strictObject({
  subject: SubjectSchema.optional(),
  description: JsonDocumentSchema.optional(),
  status: z.enum(['draft', 'open', 'archived'], { error: 'must be draft, open or archived (a change request is merged by POST .../merge)' }).optional(),
})

export const ListChangeRequestsQuerySchema = listQuery.extend({
  status: ChangeRequestStatusSchema.default('open'),
  creator: z.string().min(1).optional(),
  contributor: z.string().min(1).optional(),
  requestedReviewer: z.string().min(1).optional(),
  orderBy: z.enum(['createdAt', 'updatedAt'], { error: 'must be createdAt or updatedAt' }).default('updatedAt'),
})

/** The organization's list takes several statuses (the official `status` is an array there, one value in a space's list). */
export const ListOrganizationChangeRequestsQuerySchema = ListChangeRequestsQuerySchema.extend({
  status: z
    .array(ChangeRequestStatusSchema)
    .min(1, 'must name at least one status')
    .default(['open'])
    .meta({ description: 'Only change requests in one of these statuses (repeat the parameter for several; default open).' }),
})

export const MergeResultSchema = z.object({ revision: z.string(), result: z.enum(['merge', 'update', 'conflicts']) }).passthrough()

/** Page metadata a change may set (official `RevisionPageUpdate`), from its fields or a markdown frontmatter. */
export const PageUpdateFields = {
  title: z.string().min(1, 'must not be empty').max(500, 'must be at most 500 characters').optional(),
  slug: z
    .string()
    .max(100, 'must be at most 100 characters')
    .regex(SLUG_PATTERN, SLUG_RULE)
    .refine((slug) => !gitRefusesName(slug), GIT_NAME_RULE)
    .optional(),
  emoji: z.string().max(50, 'must be at most 50 characters').optional(),
  icon: z.string().max(50, 'must be at most 50 characters').optional(),
  description: z.string().max(1000, 'must be at most 1000 characters').optional(),
  hidden: z.boolean().optional(),
  noIndex: z.boolean().optional(),
  noRobotsIndex: z.boolean().optional(),
  condition: z.string().max(1024, 'must be at most 1024 characters').optional(),
}

const FileInputSchema = z
  .strictObject({
    ref: z.string().min(1).max(200).optional(),
    name: z
      .string()
      .min(1, 'must not be empty')
      .max(256, 'must be at most 256 characters')
      .refine((name) => !gitRefusesName(name), GIT_NAME_RULE),
    contentType: z.string().min(1).max(200).optional(),
    url: z.string().max(2048, 'must be at most 2048 characters').optional(),
    base64: z.string().max(1_500_000, 'must be at most 1 MB once decoded').optional(),
  })
  .refine((f) => (f.url === undefined) !== (f.base64 === undefined), { message: 'give exactly one of `url` or `base64`' })
  .refine((f) => f.base64 === undefined || f.contentType !== undefined, { message: '`contentType` is required with `base64`', path: ['contentType'] })

/** A reusable content's title (GitBook's editor limit). */
const ReusableTitleSchema = z.string().min(1, 'must not be empty').max(100, 'must be at most 100 characters')

export const ContentChangeSchema = z.discriminatedUnion(
  'operation',
  [
    z.strictObject({
      operation: z.literal('insert_page'),
      ...PageUpdateFields,
      document: DocumentInputSchema,
      into: z.string().min(1).optional(),
      at: z.number().int('must be an integer').min(0, 'must be at least 0').optional(),
      ref: z.string().min(1).max(200).optional(),
    }),
    z.strictObject({
      operation: z.literal('update_page'),
      ...PageUpdateFields,
      page: z.string().min(1, 'must not be empty'),
      document: DocumentInputSchema.optional(),
      into: z.string().min(1).nullable().optional(),
      at: z.number().int('must be an integer').min(0, 'must be at least 0').optional(),
    }),
    z.strictObject({ operation: z.literal('delete_page'), page: z.string().min(1, 'must not be empty') }),
    z.strictObject({
      operation: z.literal('revert_page'),
      page: z.string().min(1, 'must not be empty'),
      revision: z.string().min(1).optional(),
      block: z.array(z.string()).optional(),
    }),
    z.strictObject({
      operation: z.literal('insert_files'),
      files: z.array(FileInputSchema).min(1, 'must hold at least 1 file').max(20, 'must hold at most 20 files'),
    }),
    // Beyond the official operations (which have none for them): reusable contents, as GitBook's editor changes them.
    z.strictObject({
      operation: z.literal('insert_reusable_content'),
      title: ReusableTitleSchema,
      document: DocumentInputSchema.optional(),
      ref: z.string().min(1).max(200).optional(),
    }),
    z.strictObject({
      operation: z.literal('update_reusable_content'),
      reusableContent: z.string().min(1, 'must not be empty'),
      title: ReusableTitleSchema.optional(),
      document: DocumentInputSchema.optional(),
    }),
    z.strictObject({ operation: z.literal('delete_reusable_content'), reusableContent: z.string().min(1, 'must not be empty') }),
  ],
  {
    error:
      'must have an `operation` of insert_page, update_page, delete_page, revert_page, insert_files, insert_reusable_content, update_reusable_content or delete_reusable_content',
  },
)
export type ContentChange = z.output<typeof ContentChangeSchema>

export const ContentUpdateSchema = z.strictObject({
  changes: z.array(ContentChangeSchema).min(1, 'must hold at least 1 change').max(50, 'must hold at most 50 changes'),
})

export const ContentUpdateQuerySchema = z.object({
  compat: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .default('true')
    .transform((v) => v === 'true'),
})

const PageRefSchema = z.object({ object: z.literal('page'), id: z.string(), urls: z.object({ location: z.string() }) })
export const ContentUpdateResultSchema = z.union([
  ChangeRequestSchema,
  z.object({
    changeRequest: ChangeRequestSchema,
    changes: z.array(
      z.union([
        z.object({ object: z.literal('created_page'), ref: z.string().optional(), page: PageRefSchema }),
        z.object({ object: z.literal('updated_page'), page: PageRefSchema }),
        z.object({ object: z.literal('deleted_page'), page: z.string() }),
      ]),
    ),
    insertedFiles: z.array(FileSchema).optional(),
  }),
])

export const ReviewSchema = z
  .looseObject({
    object: z.literal('change-request-review'),
    id: z.string(),
    revision: z.string(),
    reviewer: UserSchema,
    status: z.enum(['approved', 'changes-requested']),
    outdated: z.boolean(),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
    urls: z.object({ location: z.string() }),
  })
  .meta({ id: 'ChangeRequestReview' })

export const SubmitReviewSchema = z.strictObject({
  status: z.enum(['approved', 'changes-requested'], { error: 'must be approved or changes-requested' }),
  comment: DocumentInputSchema.optional(),
})

export const RequestedReviewerSchema = z
  .looseObject({
    object: z.literal('change-request-requested-reviewer'),
    kind: z.literal('user'),
    user: UserSchema,
    revision: z.string(),
    requestedBy: UserSchema,
    createdAt: TimestampSchema,
  })
  .meta({ id: 'ChangeRequestRequestedReviewer' })

export const RequestReviewersSchema = z.strictObject({
  users: z.array(z.string().min(1, 'must not be empty')).min(1, 'must hold at least 1 user').max(50, 'must hold at most 50 users'),
  subject: SubjectSchema.optional(),
  description: JsonDocumentSchema.optional(),
})

export const ContributorSchema = z.object({ user: UserSchema, count: z.number(), updatedAt: TimestampSchema, actionType: z.enum(['edit', 'comment']) })
