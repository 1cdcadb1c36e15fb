import { z } from 'zod'
import { UrlOfAnySchemeSchema } from '../common/schemas.js'
import { IntegrationBlockSchema } from '../integrations/schemas.js'

/** The URL of an embed: http or https (what a page links to), at most the official 2048 characters. */
export const EmbedUrlSchema = UrlOfAnySchemeSchema.refine((url) => /^https?:\/\//i.test(url), 'must be an http or https URL')

export const EmbedQuerySchema = z.object({ url: EmbedUrlSchema.meta({ description: 'URL to resolve' }) })

const base = { title: z.string(), site: z.string(), icon: z.string().optional() }

/** The official `Embed`: a link card, an HTML snippet (`rich`), or an integration's block. */
export const EmbedSchema = z
  .discriminatedUnion('type', [
    z.object({ ...base, type: z.literal('link') }),
    z.object({ ...base, type: z.literal('rich'), html: z.string() }),
    z.object({ ...base, type: z.literal('integration'), integration: z.string(), block: IntegrationBlockSchema }),
  ])
  .meta({ id: 'Embed' })

export type Embed = z.input<typeof EmbedSchema>
