import { z } from 'zod'
import { defineOperation } from '../../core/operation.js'
import { redactTrackingText } from './redact.js'
import { listOf, pathParams } from '../common/schemas.js'
import {
  AgentFeedbackInputSchema,
  AgentFeedbackResultSchema,
  AggregationBodySchema,
  AggregationResultSchema,
  SiteAgentFeedbackBodySchema,
  TrackEventsBodySchema,
  VisitorSegmentSchema,
} from './schemas.js'

const siteParams = pathParams('organizationId', 'siteId')
const base = '/v1/orgs/{organizationId}/sites/{siteId}'
/** Reading a site's insights: members with a role (POLICY.site.viewInsights). */
const VIEW_INSIGHTS = { resource: 'site', action: 'viewInsights', param: 'siteId' } as const
/** Agent feedback: the site's visitors (a site token: the renderer's MCP server) and its members (POLICY.site.submitAgentFeedback). */
const SUBMIT_FEEDBACK = { resource: 'site', action: 'submitAgentFeedback', param: 'siteId' } as const

/** Site insights: tracked events, their aggregations, visitor segments, and agents' feedback (official operationIds as keys). */
export const insightsOperations = {
  trackEventsInSiteById: defineOperation({
    id: 'trackEventsInSiteById',
    method: 'POST',
    path: `${base}/insights/events`,
    tag: 'site-insights',
    summary:
      "Track events of a published site's visitors (page views...): open to anonymous callers, as the renderer sends them; at most 100 per request, the oldest dropped past 5,000 per site",
    params: siteParams,
    body: TrackEventsBodySchema,
    bodyRequired: true,
    status: 204,
    errors: ['NOT_FOUND'],
    auth: false,
    // The journal keeps no visitor's cookies, IP address or token.
    redactJournal: redactTrackingText,
  }),
  aggregateSiteEvents: defineOperation({
    id: 'aggregateSiteEvents',
    method: 'POST',
    path: `${base}/insights/events/aggregate`,
    tag: 'site-insights',
    summary: "Aggregate a site's tracked events over a time range: filtered, grouped, ordered, with counts of events, sessions and visitors",
    params: siteParams,
    body: AggregationBodySchema,
    bodyRequired: true,
    response: AggregationResultSchema,
    status: 200,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: VIEW_INSIGHTS,
    readOnly: true,
  }),
  listSiteVisitorSegments: defineOperation({
    id: 'listSiteVisitorSegments',
    method: 'GET',
    path: `${base}/insights/visitor-segments`,
    tag: 'site-insights',
    summary: "The segments of a site's visitors: its tracked events grouped by the visitor's claims, the biggest 100 first",
    params: siteParams,
    response: listOf(VisitorSegmentSchema),
    status: 200,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: VIEW_INSIGHTS,
  }),
  submitSiteAgentFeedback: defineOperation({
    id: 'submitSiteAgentFeedback',
    method: 'POST',
    path: `${base}/agent-feedback`,
    tag: 'site-insights',
    summary: "Feedback of an AI agent about a page of the site (the renderer's MCP server calls it with the site token); deprecated officially",
    params: siteParams,
    body: SiteAgentFeedbackBodySchema,
    bodyRequired: true,
    status: 204,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: SUBMIT_FEEDBACK,
  }),
  submitAgentFeedbackToSite: defineOperation({
    id: 'submitAgentFeedbackToSite',
    method: 'POST',
    path: `${base}/agents/feedback`,
    tag: 'site-agent-feedback',
    summary: 'Structured feedback of an AI agent about a tool, command, endpoint, page or the product, collected by the site',
    params: siteParams,
    body: AgentFeedbackInputSchema,
    bodyRequired: true,
    response: AgentFeedbackResultSchema,
    status: 201,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: SUBMIT_FEEDBACK,
  }),
}

export type TrackEventsBody = z.output<typeof TrackEventsBodySchema>
