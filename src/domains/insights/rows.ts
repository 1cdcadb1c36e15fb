import { z } from 'zod'
import { collection } from '../../storage/port.js'
import { SeedIdSchema, SeedTimestampSchema } from '../../state/seed.js'

/**
 * The rows the insights area stores: a site's tracked events, as this API keeps them (what the
 * aggregations read, not the request: no cookies, IP address or visitor token; the user agent
 * kept as the browser, OS, device and bot it names), and feedback agents sent about a site. Both
 * are bounded (model.ts, feedback.ts: the oldest go first).
 */

const text = z.string()
const nullableText = text.nullable()

export const SiteInsightEventRowSchema = z.strictObject({
  id: SeedIdSchema,
  site: SeedIdSchema,
  organization: SeedIdSchema,
  /** When the event happened (its `timestamp`, or when it was tracked). */
  at: SeedTimestampSchema,
  type: text,
  visitor: text,
  session: text,
  url: text,
  displayContext: text,
  siteSection: nullableText,
  siteSpace: nullableText,
  siteShareKey: nullableText,
  space: nullableText,
  revision: nullableText,
  page: nullableText,
  referrer: nullableText,
  language: nullableText,
  browser: text,
  os: text,
  device: text,
  bot: nullableText,
  /** The visitor's claims (`visitorAuthClaims`), `{}` when none (or when they were over the size cap). */
  claims: z.record(z.string(), z.json()),
  /** The fields of the event's type (`query`, `feedback`, `link`, `operation`...), as sent. */
  data: z.record(z.string(), z.json()),
})
export type SiteInsightEventRow = z.output<typeof SiteInsightEventRowSchema>

export const SiteAgentFeedbackRowSchema = z.strictObject({
  id: SeedIdSchema,
  site: SeedIdSchema,
  organization: SeedIdSchema,
  createdAt: SeedTimestampSchema,
  /** The surface the agent ran on (`mcp`, `assistant`), or `unknown`. */
  source: z.enum(['mcp', 'assistant', 'unknown']),
  /** What the feedback is about (`AgentFeedbackSubject`), the feedback (`AgentFeedbackContent`) and its reporter. */
  subject: z.record(z.string(), z.json()),
  feedback: z.record(z.string(), z.json()),
  reportedBy: z.record(z.string(), z.json()).optional(),
  /** For feedback about a page (`submitSiteAgentFeedback`): the space and page it names. */
  space: z.string().optional(),
  page: z.string().optional(),
})
export type SiteAgentFeedbackRow = z.output<typeof SiteAgentFeedbackRowSchema>

/** The collections the insights area stores, with their indexes. */
export const insightsCollections = {
  siteInsightEvents: collection<SiteInsightEventRow>({
    /** A site's events, oldest first (the cap drops from the front). */
    bySite: { key: (r) => r.site },
    /** Every event, oldest first: the total cap. */
    all: { key: () => 'all' },
  }),
  siteAgentFeedback: collection<SiteAgentFeedbackRow>({
    bySite: { key: (r) => r.site },
    all: { key: () => 'all' },
  }),
}
