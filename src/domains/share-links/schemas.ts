import { z } from 'zod'
import { listQuery } from '../../core/paging.js'
import { TimestampSchema } from '../common/schemas.js'

/** The official `ShareLinkName` allows an empty name (minLength 0): only the length is capped. */
export const ShareLinkNameSchema = z.string().max(50, 'must be at most 50 characters').meta({ id: 'ShareLinkName', description: 'Name of the share link' })

export const ShareLinkSchema = z
  .object({
    object: z.literal('share-link'),
    id: z.string(),
    createdAt: TimestampSchema,
    name: z.string(),
    active: z.boolean(),
    urls: z.object({
      published: z
        .string()
        .meta({ description: "The site's published URL carrying the link's key (a path segment after the site's base: `<site URL>/<key>`)." }),
    }),
  })
  .meta({ id: 'ShareLink' })

export const ListShareLinksQuerySchema = listQuery.extend({
  search: z.string().optional().meta({ description: 'Only links whose name contains this text (case-insensitive), or whose key is exactly this text.' }),
})

export const CreateShareLinkSchema = z.object({ name: ShareLinkNameSchema })

/** The body of a share link update: at least one of the two fields (official `minProperties: 1`). */
export const UpdateShareLinkSchema = z
  .object({
    active: z.boolean().optional().meta({ description: 'False turns the link off: its key no longer opens the site.' }),
    name: ShareLinkNameSchema.optional(),
  })
  .refine((b) => b.active !== undefined || b.name !== undefined, { message: 'give `active` or `name`' })
  .meta({ minProperties: 1 })
