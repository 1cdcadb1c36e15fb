import { ApiError } from '../../core/errors.js'
import type { Context } from '../context.js'
import type { SiteRow } from '../sites/rows.js'
import type { SiteAgentFeedbackRow } from './rows.js'
import type { AgentFeedbackInput } from './schemas.js'
import { keepNewest } from './model.js'

/** The feedback kept per site, and in all: past it the oldest go first (docs/behaviour/insights.md). */
export const MAX_FEEDBACK_PER_SITE = 1000
export const MAX_FEEDBACK_TOTAL = 10_000

/** What `submitAgentFeedbackToSite` relays to the agent. */
export const FEEDBACK_RESULT = "Thank you: the feedback was recorded for the site's maintainers."

type Json = SiteAgentFeedbackRow['subject']

function store(ctx: Context, row: SiteAgentFeedbackRow): SiteAgentFeedbackRow {
  ctx.tx.insert('siteAgentFeedback', row)
  keepNewest(ctx, 'siteAgentFeedback', row.site, MAX_FEEDBACK_PER_SITE, MAX_FEEDBACK_TOTAL)
  return row
}

/** Structured feedback (`AgentFeedbackInput`) about anything the site exposes to agents. */
export function submitFeedback(ctx: Context, site: SiteRow, input: AgentFeedbackInput): SiteAgentFeedbackRow {
  return store(ctx, {
    id: ctx.newId(),
    site: site.id,
    organization: site.organization,
    createdAt: ctx.nowIso(),
    source: 'unknown',
    subject: input.subject as Json,
    feedback: input.feedback as Json,
    ...(input.reportedBy && { reportedBy: input.reportedBy as Json }),
  })
}

/**
 * Feedback about a page of the site (the renderer's MCP `feedback` tool): stored as a
 * `documentation` subject of category `documentation`, its text the detail (and, cut at 256
 * characters, the summary). The space must be one the site publishes (a 400 naming `spaceId`).
 */
export function submitPageFeedback(
  ctx: Context,
  site: SiteRow,
  body: { feedback: string; goal?: string | undefined; url: string; spaceId: string; pageId: string; source?: 'mcp' | 'assistant' | undefined },
): SiteAgentFeedbackRow {
  if (!ctx.tx.scan('siteSpaces', 'bySpace', body.spaceId).some((e) => e.row.site === site.id)) {
    throw new ApiError('BAD_REQUEST', 'Invalid request: body field `spaceId`: must be a space the site publishes')
  }
  return store(ctx, {
    id: ctx.newId(),
    site: site.id,
    organization: site.organization,
    createdAt: ctx.nowIso(),
    source: body.source ?? 'unknown',
    subject: { kind: 'documentation', url: body.url },
    feedback: {
      category: 'documentation',
      summary: body.feedback.slice(0, 256),
      detail: body.feedback,
      ...(body.goal !== undefined && { goal: body.goal }),
    },
    space: body.spaceId,
    page: body.pageId,
  })
}
