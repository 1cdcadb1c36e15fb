import { z } from 'zod'
import { DefaultLevelSchema } from '../common/schemas.js'

export const CollectionTitleSchema = z.string().max(50, 'must be at most 50 characters').meta({ id: 'CollectionTitle' })
export const CollectionDescriptionSchema = z.string().max(100, 'must be at most 100 characters').meta({ id: 'CollectionDescription' })

export const COLLECTION_PERMISSION_KEYS = ['view', 'admin', 'viewInviteLinks', 'create'] as const

export const CollectionSchema = z
  .object({
    object: z.literal('collection'),
    id: z.string(),
    title: z.string(),
    description: z.string().optional(),
    organization: z.string(),
    parent: z.string().optional(),
    defaultLevel: DefaultLevelSchema,
    urls: z.object({ location: z.string(), app: z.string() }),
    permissions: z.object(
      Object.fromEntries(COLLECTION_PERMISSION_KEYS.map((k) => [k, z.boolean()])) as Record<(typeof COLLECTION_PERMISSION_KEYS)[number], z.ZodBoolean>,
    ),
  })
  .meta({ id: 'Collection' })

export const CreateCollectionSchema = z.object({
  title: CollectionTitleSchema.optional(),
  description: CollectionDescriptionSchema.optional(),
  parent: z.string().min(1).optional().meta({ description: 'ID of a parent collection' }),
})
