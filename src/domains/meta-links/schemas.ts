import { z } from 'zod'

/** A meta link's target: a URL (the official `ContentRefURL`, one of `RevisionPageMetaLinkTarget`). */
const MetaLinkTargetSchema = z.object({ kind: z.literal('url'), url: z.string() }).meta({ id: 'RevisionPageMetaLinkTarget' })

/** The official `RevisionPageMetaLinks`. */
export const MetaLinksSchema = z
  .object({ canonical: MetaLinkTargetSchema.optional(), alternates: z.array(MetaLinkTargetSchema) })
  .meta({ id: 'RevisionPageMetaLinks' })
