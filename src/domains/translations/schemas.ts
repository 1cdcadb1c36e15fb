import { z } from 'zod'
import { TimestampSchema, permissionsSchema } from '../common/schemas.js'
import { JsonDocumentSchema } from '../content/schemas.js'
import { LanguageSchema } from '../spaces/schemas.js'

/** The `permissions` of a translation (official keys): `view` is POLICY.organization.viewTranslations, `edit` manageTranslations. */
export const TRANSLATION_PERMISSION_KEYS = ['view', 'edit'] as const

export const TranslationStatusSchema = z.enum(['pending', 'running', 'completed']).meta({ id: 'TranslationStatus' })

const count = z.number().int()

export const TranslationSchema = z
  .object({
    object: z.literal('translation'),
    id: z.string(),
    status: TranslationStatusSchema,
    source: z.object({ space: z.string(), language: LanguageSchema }),
    language: LanguageSchema,
    instructions: JsonDocumentSchema,
    result: z
      .object({ space: z.string(), revision: z.string(), language: LanguageSchema })
      .optional()
      .meta({ description: 'The space holding the translated content and its revision written by the latest completed run; absent until a run completes.' }),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
    stats: z.object({
      runs: count.meta({ description: 'Runs completed.' }),
      totalWords: count.meta({ description: 'Words sent to the translator, over all runs.' }),
      totalPages: count.meta({ description: 'Distinct source pages translated, over all runs.' }),
      totalDuration: count.meta({ description: "Seconds of all runs (the sum of each run's `latestRunDuration`)." }),
      latestRunDuration: count.meta({ description: 'Seconds of the latest run, on the API clock.' }),
      latestPages: count.meta({ description: 'Pages the latest run translated (new or changed since the run before).' }),
      latestWords: count.meta({ description: 'Words the latest run sent to the translator.' }),
    }),
    lastRunError: z
      .object({ message: z.string(), at: TimestampSchema })
      .optional()
      .meta({ description: 'Why the latest run failed (beyond the official shape); cleared by the next run that completes.' }),
    permissions: permissionsSchema(TRANSLATION_PERMISSION_KEYS),
    urls: z.object({ location: z.string() }),
  })
  .meta({ id: 'Translation', description: 'A translation of a space into another language; each run writes the translated content into its result space.' })

export const CreateTranslationSchema = z.object({
  language: LanguageSchema.meta({ description: 'The language to translate into.' }),
  source: z.object({
    space: z.string().min(1, 'must not be empty').meta({ description: 'ID of a space of this organization.' }),
    language: LanguageSchema.meta({ description: 'The language the source space is written in.' }),
  }),
  instructions: JsonDocumentSchema.optional().meta({ description: 'Instructions for the translator (default: an empty document).' }),
})

export const UpdateTranslationSchema = z.object({ instructions: JsonDocumentSchema })
