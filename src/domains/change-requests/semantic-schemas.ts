import { z } from 'zod'
import { limitParam } from '../../core/paging.js'
import { ChangeRequestSchema } from './schemas.js'

/** Schemas of semantic changes (ids name the official components they mirror). */

const ChangedRevisionPageSchema = z
  .object({ id: z.string(), type: z.enum(['document', 'group', 'link', 'computed']), title: z.string(), path: z.string().optional() })
  .meta({ id: 'ChangedRevisionPage' })

const ChangedRevisionFileSchema = z
  .object({ id: z.string(), name: z.string(), contentType: z.string(), downloadURL: z.string() })
  .meta({ id: 'ChangedRevisionFile' })

const ChangeAttributeStringSchema = z.object({ before: z.string().optional(), after: z.string().optional() })

const ChangedRevisionReusableContentSchema = z
  .object({ id: z.string(), title: z.string(), document: z.string().optional() })
  .meta({ id: 'ChangedRevisionReusableContent' })

export const RevisionSemanticChangeSchema = z
  .union([
    z.object({ type: z.enum(['page_created', 'page_deleted']), page: ChangedRevisionPageSchema }),
    z.object({ type: z.literal('page_edited'), page: ChangedRevisionPageSchema, attributes: z.record(z.string(), ChangeAttributeStringSchema) }),
    z.object({
      type: z.literal('page_moved'),
      page: ChangedRevisionPageSchema,
      parent: z.object({ before: ChangedRevisionPageSchema.optional(), after: ChangedRevisionPageSchema.optional() }),
    }),
    z.object({ type: z.enum(['file_created', 'file_deleted']), file: ChangedRevisionFileSchema }),
    z.object({ type: z.literal('file_edited'), file: ChangedRevisionFileSchema, attributes: z.record(z.string(), z.unknown()) }),
    z.object({ type: z.enum(['reusable_content_created', 'reusable_content_deleted']), reusableContent: ChangedRevisionReusableContentSchema }),
    z.object({
      type: z.literal('reusable_content_edited'),
      reusableContent: ChangedRevisionReusableContentSchema,
      attributes: z.object({ title: ChangeAttributeStringSchema.optional(), document: ChangeAttributeStringSchema.optional() }),
    }),
    z.object({
      type: z.literal('variables_edited'),
      variables: z.record(z.string(), z.object({ before: z.string().optional(), after: z.string().optional() })),
    }),
  ])
  .meta({ id: 'RevisionSemanticChange' })

export const RevisionSemanticChangesSchema = z
  .object({
    mergedFrom: ChangeRequestSchema.optional().meta({ description: 'The change request a merge revision merged.' }),
    changes: z.array(RevisionSemanticChangeSchema),
    more: z.number().optional().meta({ description: 'How many changes were left out past `limit`.' }),
  })
  .meta({ id: 'RevisionSemanticChanges' })

/** `limit`: how many changes to answer (official default 10). Decimal digits only, as the paging `limit`. */
export const SemanticChangesQuerySchema = z.object({
  limit: limitParam(1000, 10).meta({ description: 'How many changes to answer (default 10, at most 1000); `more` counts the others.' }),
})
