import { z } from 'zod'
import { UrlOfAnySchemeSchema } from '../common/schemas.js'
import { ContentRefSchema, DateTimeSchema } from '../content/document-schema/common.js'

/**
 * The official request and answer schemas of site insights (`SiteInsightsEvent`,
 * `SiteInsightsQueryEventsAggregation`...), with the official limits; what this API adds is
 * documented in docs/behaviour/insights.md (the caps of `events`).
 */

/** At most this many events in one `trackEventsInSiteById` request (the official document sets none). */
export const MAX_EVENTS_PER_REQUEST = 100

const nullableString = z.string().nullable()
/** Claims of a visitor: an object (its values of any JSON type). */
const ClaimsSchema = z.record(z.string(), z.json())

export const SiteInsightsEventTypeSchema = z.enum([
  'page_view',
  'page_markdown_request',
  'search_open',
  'search_type_query',
  'search_open_result',
  'page_post_feedback',
  'page_post_feedback_comment',
  'agent_feedback',
  'ask_question',
  'ask_view',
  'ask_rate_response',
  'link_click',
  'api_client_open',
  'api_client_request',
  'ad_click',
  'ad_display',
  'trademark_click',
  'llms_request',
  'mcp_request',
  'rss_request',
])
export type SiteInsightsEventType = z.output<typeof SiteInsightsEventTypeSchema>
export const DisplayContextSchema = z.enum(['site', 'server', 'embed', 'mcp'])
export const PageFeedbackRatingSchema = z.enum(['bad', 'ok', 'good'])
export const LinkPositionSchema = z.enum(['announcement', 'header', 'footer', 'sidebar', 'content'])
export const LLMSVariantSchema = z.enum(['standard', 'full'])
export const MarkdownSourceSchema = z.enum(['page-action'])
export const AdPlacementSchema = z.enum(['aside'])
export const TrademarkPlacementSchema = z.enum(['sidebar', 'ad', 'footer', 'pdf', 'embed'])
const UrlTextSchema = UrlOfAnySchemeSchema

const SessionSchema = z.object({
  visitorId: z.string(),
  sessionId: z.string(),
  cookies: z.record(z.string(), z.string()),
  ip: z.string().optional(),
  userAgent: z.string(),
  language: nullableString,
  referrer: z.union([z.null(), z.literal(''), UrlTextSchema]),
  visitorAuthToken: nullableString.optional(),
  visitorAuthClaims: ClaimsSchema.optional(),
})

const LocationSchema = z.object({
  url: UrlTextSchema,
  displayContext: DisplayContextSchema.optional(),
  siteSection: nullableString,
  siteSpace: nullableString,
  siteShareKey: nullableString,
  space: nullableString,
  revision: nullableString,
  page: nullableString,
})

const base = { session: SessionSchema, location: LocationSchema, timestamp: DateTimeSchema.optional() }
const event = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) => z.object({ ...base, type: z.literal(type), ...shape })
const AdSchema = z.object({ domain: z.string(), zoneId: z.string(), placement: AdPlacementSchema })
const OperationPointerSchema = z.object({ path: z.string(), method: z.string() })

export const SiteInsightsEventSchema = z.discriminatedUnion('type', [
  event('page_view', {}),
  event('page_markdown_request', { markdownSource: MarkdownSourceSchema.optional() }),
  event('search_open', {}),
  event('search_type_query', { query: z.string() }),
  event('search_open_result', {
    query: z.string(),
    result: z.union([z.object({ spaceId: z.string(), pageId: z.string() }), z.object({ recordId: z.string() })]),
  }),
  event('page_post_feedback', { feedback: z.object({ rating: PageFeedbackRatingSchema }) }),
  event('page_post_feedback_comment', {
    feedback: z.object({
      rating: PageFeedbackRatingSchema,
      comment: z.string().min(1, 'must be at least 1 character').max(512, 'must be at most 512 characters'),
    }),
  }),
  event('agent_feedback', {}),
  event('ask_question', { query: z.string(), goal: z.string().optional() }),
  event('ask_view', {}),
  event('ask_rate_response', { query: z.string(), rating: z.union([z.literal(1), z.literal(-1)]), responseId: z.string() }),
  event('link_click', { link: z.object({ target: ContentRefSchema, position: LinkPositionSchema }) }),
  event('api_client_open', { operation: OperationPointerSchema }),
  event('api_client_request', { operation: OperationPointerSchema }),
  event('trademark_click', { placement: TrademarkPlacementSchema }),
  event('ad_click', { ad: AdSchema }),
  event('ad_display', { ad: AdSchema }),
  event('llms_request', { llmsVariant: LLMSVariantSchema }),
  event('mcp_request', {}),
  event('rss_request', {}),
])
export type SiteInsightsEvent = z.output<typeof SiteInsightsEventSchema>

export const TrackEventsBodySchema = z.object({
  events: z.array(SiteInsightsEventSchema).max(MAX_EVENTS_PER_REQUEST, `must hold at most ${MAX_EVENTS_PER_REQUEST} events`),
})

// --- Aggregation ---

/** The columns of a query that name a dimension or a metric, without parameters. */
export const PLAIN_COLUMNS = [
  'dayOfWeek',
  'hourOfDay',
  'url',
  'urlPath',
  'eventType',
  'eventsCount',
  'sessionsCount',
  'visitorsCount',
  'siteSection',
  'siteSpace',
  'siteShareKey',
  'displayContext',
  'page',
  'visitorGeoCountry',
  'visitorDevice',
  'visitorBrowser',
  'visitorOS',
  'visitorBot',
  'visitorLanguage',
  'eventLinkTargetValue',
  'eventLinkTargetKind',
  'eventLinkTargetDomain',
  'eventLinkPosition',
  'eventAPIOperationPath',
  'eventAPIOperationMethod',
  'eventLLMSVariant',
  'eventPageNotFoundType',
  'eventMarkdownSource',
  'eventSearchQuery',
  'eventSearchResultRecordId',
  'eventPageFeedbackRating',
  'eventPageFeedbackComment',
  'eventAskResponseRating',
  'pageFeedbackRating',
  'askResponseRating',
  'referrer',
  'referrerDomain',
  'utmSource',
  'utmMedium',
  'utmCampaign',
  'utmTerm',
  'utmContent',
  'visitorAuthenticated',
  'visitorClaimProperty',
  'eventAdDomain',
  'eventAdPlacement',
  'eventTrademarkPlacement',
] as const

export const ColumnSchema = z.discriminatedUnion('column', [
  z.object({ column: z.literal('datetime'), interval: z.enum(['hour', 'day', 'week', 'month']).optional() }),
  z.object({ column: z.literal('visitorGeoPoint'), precision: z.number().int().min(0).max(15).optional() }),
  z.object({ column: z.literal('visitorClaim'), claim: z.string() }),
  ...PLAIN_COLUMNS.map((name) => z.object({ column: z.literal(name) })),
])
export type Column = z.output<typeof ColumnSchema>

const OperatorSchema = z.enum(['in', 'notIn', 'greaterThan', 'greaterThanOrEqual', 'lessThan', 'lessThanOrEqual'])
const VisitorBotSchema = z.enum([
  'unknown',
  'googlebot',
  'bingbot',
  'duckduckbot',
  'facebookbot',
  'applebot',
  'chatgpt',
  'openai',
  'claude',
  'anthropic',
  'gemini',
  'perplexity',
  'cohere',
  'mistral',
  'deepseek',
  'meta',
  'bytespider',
  'ccbot',
  'amazonbot',
  'youbot',
  'cursor',
  'vscode',
  'claude-code',
  'codex',
  'opencode',
  'gptbot',
  'claudebot',
  'meta-fetcher',
  'grok',
  'github-copilot',
  'meta-webindexer',
  'meta-ads',
  'duckassist',
  'amzn-searchbot',
  'amzn-user',
])
export const VisitorBrowserSchema = z.enum(['chrome', 'firefox', 'safari', 'edge', 'ie', 'opera', 'unknown'])
export const VisitorOSSchema = z.enum(['windows', 'macos', 'linux', 'android', 'ios', 'unknown'])
export const VisitorDeviceSchema = z.enum(['desktop', 'tablet', 'mobile', 'unknown'])

const str = z.string()
/** The type of the values of each column (`SiteInsightsQueryEventsValues`): what a filter compares with. */
const VALUES: Record<string, z.ZodType> = {
  datetime: DateTimeSchema,
  dayOfWeek: z.number().int().min(1).max(7),
  hourOfDay: z.number().int().min(0).max(23),
  url: UrlTextSchema,
  urlPath: str,
  eventsCount: z.number(),
  sessionsCount: z.number(),
  visitorsCount: z.number(),
  eventType: SiteInsightsEventTypeSchema,
  visitorClaim: str,
  visitorAuthenticated: z.boolean().nullable(),
  visitorClaimProperty: str,
  visitorBrowser: VisitorBrowserSchema,
  visitorDevice: VisitorDeviceSchema,
  visitorOS: VisitorOSSchema,
  visitorBot: z.union([VisitorBotSchema, z.literal('')]).nullable(),
  eventLinkTargetValue: ContentRefSchema,
  eventLinkTargetKind: z.enum(['url', 'page', 'file', 'anchor', 'space', 'collection', 'user', 'reusable-content']),
  eventLinkPosition: LinkPositionSchema,
  siteSection: nullableString,
  eventLLMSVariant: LLMSVariantSchema.nullable(),
  eventPageNotFoundType: z.enum(['conditional']).nullable(),
  eventMarkdownSource: MarkdownSourceSchema.nullable(),
  siteSpace: nullableString,
  siteShareKey: nullableString,
  displayContext: DisplayContextSchema,
  page: z.object({ page: nullableString, space: str }).nullable(),
  visitorGeoCountry: nullableString,
  visitorGeoPoint: z.object({ latitude: z.number(), longitude: z.number(), h3: str }).nullable(),
  visitorLanguage: nullableString,
  eventLinkTargetDomain: nullableString,
  eventAPIOperationPath: nullableString,
  eventAPIOperationMethod: nullableString,
  eventSearchQuery: str,
  eventSearchResultRecordId: nullableString,
  pageFeedbackRating: z.object({ ok: z.number(), good: z.number(), bad: z.number() }),
  askResponseRating: z.object({ positive: z.number(), negative: z.number() }),
  eventPageFeedbackRating: PageFeedbackRatingSchema,
  eventAskResponseRating: z.number().int(),
  eventPageFeedbackComment: str,
  referrer: str,
  referrerDomain: str,
  utmSource: str,
  utmMedium: str,
  utmCampaign: str,
  utmTerm: str,
  utmContent: str,
  eventAdDomain: str,
  eventAdPlacement: AdPlacementSchema,
  eventTrademarkPlacement: TrademarkPlacementSchema,
}

/** At most this many values in one filter (the official document sets none): each event is compared with each. */
export const MAX_FILTER_VALUES = 1000

const filter = (column: string) =>
  z.object({
    column: z.literal(column),
    ...(column === 'visitorClaim' && { claim: str }),
    values: z.array(VALUES[column]!).max(MAX_FILTER_VALUES, `must hold at most ${MAX_FILTER_VALUES} values`),
    operator: OperatorSchema.optional(),
  })

export const FilterSchema = z.discriminatedUnion('column', Object.keys(VALUES).map(filter) as unknown as [z.ZodObject, ...z.ZodObject[]])
export type Filter = { column: string; claim?: string; values: unknown[]; operator?: z.output<typeof OperatorSchema> }

/** At most this many columns in `select`, `groupBy` and filters in `where` (the official document sets none). */
export const MAX_QUERY_COLUMNS = 20

export const AggregationBodySchema = z.object({
  select: z.array(ColumnSchema).max(MAX_QUERY_COLUMNS, `must hold at most ${MAX_QUERY_COLUMNS} columns`).optional(),
  where: z.array(FilterSchema).max(MAX_QUERY_COLUMNS, `must hold at most ${MAX_QUERY_COLUMNS} filters`).optional(),
  groupBy: z.array(ColumnSchema).max(MAX_QUERY_COLUMNS, `must hold at most ${MAX_QUERY_COLUMNS} columns`).optional(),
  order: z.object({ by: ColumnSchema, direction: z.enum(['asc', 'desc']) }).optional(),
  range: z.union([z.enum(['lastYear', 'last3Months', 'last30Days', 'last7Days', 'last24Hours']), z.object({ from: DateTimeSchema, to: DateTimeSchema })]),
  limit: z.number().int().min(1).max(1000).optional(),
})
export type AggregationBody = z.output<typeof AggregationBodySchema>

export const AggregationResultSchema = z
  .object({ columns: z.array(z.object({ column: z.string(), claim: z.string().optional(), values: z.array(z.unknown()) })) })
  .meta({ id: 'SiteInsightsQueryEventsAggregationResult' })

export const VisitorSegmentSchema = z
  .object({ title: z.string(), claims: ClaimsSchema, events: z.number(), visitors: z.number(), sessions: z.number() })
  .meta({ id: 'SiteInsightsVisitorSegment' })

// --- Agent feedback ---

const AgentGoalSchema = z.string().max(1024, 'must be at most 1024 characters')
export const AgentFeedbackSourceSchema = z.enum(['mcp', 'assistant'])

export const SiteAgentFeedbackBodySchema = z.object({
  feedback: z.string().min(1, 'must be at least 1 character').max(2048, 'must be at most 2048 characters'),
  goal: AgentGoalSchema.optional(),
  url: UrlTextSchema,
  spaceId: z.string().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
  pageId: z.string().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
  source: AgentFeedbackSourceSchema.optional(),
})

const max = (n: number) => z.string().max(n, `must be at most ${n} characters`)
export const AgentFeedbackSubjectSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('mcp-tool'), toolName: max(200), target: max(200).optional() }),
  z.strictObject({ kind: z.literal('cli-command'), command: max(200), flags: z.array(max(100)).max(50, 'must hold at most 50 flags').optional() }),
  z.strictObject({ kind: z.literal('api-endpoint'), method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']), path: max(500) }),
  z.strictObject({ kind: z.literal('documentation'), url: UrlTextSchema }),
  z.strictObject({ kind: z.literal('generic') }),
])

const count = z.number().int().min(0)
export const AgentFeedbackInputSchema = z.strictObject({
  reportedBy: z
    .strictObject({ model: max(100).optional(), userAgent: max(512).optional(), correlationId: max(100).optional(), onDemand: z.boolean().optional() })
    .optional(),
  subject: AgentFeedbackSubjectSchema,
  feedback: z.strictObject({
    category: z.enum(['usability', 'reliability', 'documentation', 'efficiency', 'interoperability', 'could-not-accomplish']),
    severity: z.enum(['low', 'medium', 'high']).optional(),
    goal: AgentGoalSchema.optional(),
    summary: z.string().min(1, 'must be at least 1 character').max(256, 'must be at most 256 characters'),
    detail: max(4096).optional(),
    workaround: max(2048).optional(),
    metrics: z.strictObject({ callCount: count.optional(), successCount: count.optional(), retryCount: count.optional() }).optional(),
  }),
})
export type AgentFeedbackInput = z.output<typeof AgentFeedbackInputSchema>

export const AgentFeedbackResultSchema = z.strictObject({ id: z.string(), result: z.string() })
