import { z } from 'zod'
import { DefaultLevelSchema, positionSchema, permissionsSchema } from '../common/schemas.js'

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
    permissions: permissionsSchema(COLLECTION_PERMISSION_KEYS),
  })
  .meta({ id: 'Collection' })

export const CreateCollectionSchema = z.object({
  title: CollectionTitleSchema.optional(),
  description: CollectionDescriptionSchema.optional(),
  parent: z.string().min(1).optional().meta({ description: 'ID of a parent collection' }),
})

/** The body of a collection update: every field optional. */
export const UpdateCollectionSchema = z.object({
  title: CollectionTitleSchema.optional(),
  description: CollectionDescriptionSchema.optional(),
  defaultLevel: DefaultLevelSchema.optional(),
})

/** The body of a move: a new parent (null: the organization's root) and/or a place among the siblings. */
export function moveBodySchema<const T extends 'space' | 'collection'>(type: T) {
  return z
    .object({
      parent: z
        .string()
        .min(1, 'must not be empty')
        .nullable()
        .optional()
        .meta({ description: 'ID of the parent collection; null for the root of the organization.' }),
      position: positionSchema(type).optional().meta({ description: 'Where to place it among its siblings; at the end by default.' }),
    })
    .refine((b) => b.parent !== undefined || b.position !== undefined, { message: 'give `parent` or `position` (or both)' })
}

/** The body of moveCollection: `position` points at sibling collections. */
export const MoveCollectionSchema = moveBodySchema('collection')

/** The body of transferCollection. */
export const TransferCollectionSchema = z.object({
  organization: z.string().min(1, 'must not be empty').meta({ description: 'ID of the target organization.' }),
})
