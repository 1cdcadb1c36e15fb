import { z } from 'zod'
import { TimestampSchema } from '../common/schemas.js'

export const TeamTitleSchema = z
  .string()
  .min(1, 'must be at least 1 character')
  .max(64, 'must be at most 64 characters')
  .meta({ id: 'OrganizationTeamTitle' })

export const TEAM_PERMISSION_KEYS = ['admin', 'view'] as const

export const TeamSchema = z
  .object({
    object: z.literal('team'),
    id: z.string(),
    title: z.string(),
    members: z.number().int(),
    spaces: z.number(),
    createdAt: TimestampSchema,
    permissions: z.object({ admin: z.boolean(), view: z.boolean() }),
  })
  .meta({ id: 'OrganizationTeam' })
