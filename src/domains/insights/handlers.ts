import { implement } from '../context.js'
import { getSite } from '../sites/model.js'
import { aggregateEvents } from './aggregate.js'
import { FEEDBACK_RESULT, submitFeedback, submitPageFeedback } from './feedback.js'
import { trackEvents, trackedSite } from './model.js'
import { insightsOperations } from './operations.js'
import { visitorSegments } from './segments.js'

/** The insights operations bound to their handlers. */
export const insightsHandlers = implement(insightsOperations, {
  trackEventsInSiteById: (ctx, { params, body }) => {
    const site = ctx.tx.get('sites', params.siteId)
    trackEvents(ctx, trackedSite(ctx, site?.organization === params.organizationId ? site : undefined), body.events)
  },

  aggregateSiteEvents: (ctx, { params, body }) => aggregateEvents(ctx, getSite(ctx, params.organizationId, params.siteId), body),

  listSiteVisitorSegments: (ctx, { params }) => visitorSegments(ctx, getSite(ctx, params.organizationId, params.siteId)),

  submitSiteAgentFeedback: (ctx, { params, body }) => {
    submitPageFeedback(ctx, getSite(ctx, params.organizationId, params.siteId), body)
  },

  submitAgentFeedbackToSite: (ctx, { params, body }) => {
    const row = submitFeedback(ctx, getSite(ctx, params.organizationId, params.siteId), body)
    return { id: row.id, result: FEEDBACK_RESULT }
  },
})
