import { z } from 'zod'
import { UrlSchema } from '../common/schemas.js'

/** updateUserById's body: at least one of the fields. */
export const UpdateUserSchema = z
  .object({
    displayName: z
      .string()
      .min(1, 'must be at least 1 character')
      .max(64, 'must be at most 64 characters')
      .optional()
      .meta({ description: 'Full name of the user.' }),
    photoURL: UrlSchema.optional().meta({ description: "URL of the user's profile picture." }),
  })
  .refine((b) => b.displayName !== undefined || b.photoURL !== undefined, { message: 'must set at least one of displayName, photoURL' })

export const ApiInformationSchema = z
  .object({
    version: z.string().meta({ description: 'The version of the official API this implementation follows.' }),
    build: z.string().meta({ description: 'When this API instance was made (ISO 8601).' }),
  })
  .meta({ id: 'ApiInformation' })

export const TemporaryTokenSchema = z.object({ token: z.string() }).meta({ id: 'APITemporaryToken' })
