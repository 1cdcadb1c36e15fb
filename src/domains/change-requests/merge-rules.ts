import type { z } from 'zod'
import type { Context } from '../context.js'
import { ApiError } from '../../core/errors.js'
import type { ChangeRequestRow, ReviewRow } from './rows.js'
import type { MergeRules } from '../common/rows.js'
import type { SpaceRow } from '../spaces/rows.js'
import type { MergeRuleSchema } from '../common/schemas.js'
import type { DocNode, JsonDocument } from '../content/document.js'
import { isOutdated } from './model.js'

type MergeRule = z.output<typeof MergeRuleSchema>

/** The merge rules in force on a space: its own (`none` included), or its organization's when it inherits. */
export function effectiveMergeRules(ctx: Context, space: SpaceRow): MergeRules {
  if (space.mergeRules.type !== 'inherit') return space.mergeRules
  return ctx.tx.get('organizations', space.organization)?.mergeRules ?? { type: 'none' }
}

/**
 * The reviews that count: each reviewer's latest review that is not outdated. A reviewer whose
 * latest review was superseded by a newer review request has none until they review again.
 */
export function currentReviews(ctx: Context, cr: ChangeRequestRow): Map<string, ReviewRow> {
  const out = new Map<string, ReviewRow>()
  for (const { row } of ctx.tx.scan('reviews', 'byChangeRequest', cr.id)) {
    if (row.outdated) out.delete(row.reviewer)
    else out.set(row.reviewer, row)
  }
  return out
}

interface Facts {
  ctx: Context
  space: SpaceRow
  cr: ChangeRequestRow
  reviews: Map<string, ReviewRow>
}

const userName = (ctx: Context, id: string) => `${ctx.tx.get('users', id)?.displayName ?? 'unknown user'} (${id})`
const names = (ctx: Context, ids: readonly string[]) => ids.map((id) => userName(ctx, id)).join(', ')

/** Whether a description holds anything: some text that is not blank, or a void node (an image, a file, an embed...). */
function hasContent(doc: JsonDocument | undefined): boolean {
  const visit = (node: DocNode): boolean => {
    if (node.object === 'text') return node.leaves.some((leaf) => leaf.text.trim() !== '')
    if (node.isVoid) return true
    if (node.nodes?.some(visit)) return true
    return node.object === 'block' && (node.fragments ?? []).some((f) => f.nodes.some(visit))
  }
  return doc !== undefined && doc.nodes.some(visit)
}

/**
 * What one rule misses on the change request, said for the 403; undefined when it holds.
 * `require_agent_review` and `custom` (an expression) cannot be evaluated here: they never hold,
 * so the merge is refused rather than let past a rule silently.
 */
function unmet(rule: MergeRule, { ctx, space, cr, reviews }: Facts): string | undefined {
  const approved = (user: string) => reviews.get(user)?.status === 'approved'
  const approvals = [...reviews.values()].filter((r) => r.status === 'approved')
  switch (rule.rule) {
    case 'require_specific_reviewers': {
      const missing = rule.users.filter((u) => !approved(u))
      return missing.length === 0 ? undefined : `it needs the approval of ${names(ctx, missing)}`
    }
    case 'require_one_of_specific_reviewers':
      if (rule.users.length === 0) return 'it lists no reviewer, so none can approve'
      return rule.users.some(approved) ? undefined : `it needs the approval of one of ${names(ctx, rule.users)}`
    case 'allow_bypass':
      // Bypass lets its users past every other rule (see requireMergeRules); for anyone else it asks nothing.
      return undefined
    case 'require_at_least_one_review':
      return reviews.size > 0 ? undefined : 'it needs at least one review (none that is not outdated)'
    case 'require_at_least_one_approved_review':
      return approvals.length > 0 ? undefined : 'it needs at least one approving review'
    case 'require_all_reviews_approved': {
      const against = [...reviews.values()].filter((r) => r.status !== 'approved').map((r) => r.reviewer)
      return against.length === 0 ? undefined : `every review must be an approval: ${names(ctx, against)} requested changes`
    }
    case 'require_up_to_date_change_request':
      return isOutdated(ctx, cr, space) ? 'it is outdated: update it from main first' : undefined
    case 'require_change_request_subject':
      return (cr.subject ?? '').trim() !== '' ? undefined : 'it needs a subject'
    case 'require_change_request_description':
      return hasContent(cr.description) ? undefined : 'it needs a description'
    case 'require_author_to_merge':
      return ctx.actor.user === cr.createdBy ? undefined : `only its author, ${userName(ctx, cr.createdBy)}, may merge it`
    case 'require_agent_review':
      return 'it needs a review by the docs agent, which this API cannot run (remove the rule to merge here)'
    case 'custom':
      return `its custom expression \`${rule.expression}\` cannot be evaluated by this API (remove the rule to merge here)${rule.message ? `; the rule says: ${rule.message}` : ''}`
  }
}

/**
 * Check the merge rules in force (the space's, or its organization's when it inherits; `none`
 * asks nothing) before a merge. Every rule must hold (admins are not exempt), unless the caller
 * is listed in an `allow_bypass` rule, which lets them past all the others. A 403 names each
 * rule that fails and what it misses.
 */
export function requireMergeRules(ctx: Context, space: SpaceRow, cr: ChangeRequestRow): void {
  const config = effectiveMergeRules(ctx, space)
  if (config.type !== 'rules') return
  if (config.rules.some((r) => r.rule === 'allow_bypass' && r.users.includes(ctx.actor.user))) return
  const facts: Facts = { ctx, space, cr, reviews: currentReviews(ctx, cr) }
  const failures: string[] = []
  for (const rule of config.rules) {
    const why = unmet(rule, facts)
    if (why !== undefined) failures.push(`${rule.rule}: ${why}`)
  }
  if (failures.length > 0) throw new ApiError('FORBIDDEN', `Merge rules: change request #${cr.number} cannot be merged: ${failures.join('; ')}`)
}
