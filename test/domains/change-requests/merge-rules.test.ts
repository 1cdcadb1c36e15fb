import { describe, expect, it } from 'vitest'
import { call, expectError } from '../../helpers.js'
import { expectOfficialResponse } from '../../conformance/official.js'
import { addMember, edit, merge, openCr, setup, type CrWorld } from './helpers.js'

/** A world with two reviewers (`review` role, the lowest that merges) besides ada, the admin. */
async function world() {
  const w = await setup()
  const r1 = await addMember(w, 'Rev One', 'review')
  const r2 = await addMember(w, 'Rev Two', 'review')
  return { ...w, r1, r2 }
}

type RulesWorld = Awaited<ReturnType<typeof world>>

async function setRules(w: CrWorld, mergeRules: unknown) {
  const res = await call(w.api, w.tokens.ada, 'PATCH', w.base, { mergeRules })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
}

const rules = (...list: unknown[]) => ({ type: 'rules', rules: list })

async function review(w: CrWorld, token: string, cr: string, status: 'approved' | 'changes-requested') {
  const res = await call(w.api, token, 'POST', `${w.base}/change-requests/${cr}/reviews`, { status })
  expect(res.status).toBe(201)
}

/** A refused merge: 403 with `message`, and nothing written. */
async function refused(w: CrWorld, cr: string, message: string, token = w.tokens.ada) {
  const before = w.api.dump()
  expectError(await merge(w, cr, token), 403, message)
  expect(w.api.dump()).toEqual(before)
}

async function merged(w: CrWorld, cr: string, token = w.tokens.ada) {
  const res = await merge(w, cr, token)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  expectOfficialResponse('mergeChangeRequest', 200, res.body)
  expect(res.body.result).toBe('merge')
}

const paragraph = (text: string) => ({
  object: 'document',
  data: {},
  nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] }],
})

describe('merge rules: reviews', () => {
  it('require_specific_reviewers: every listed user approves (their latest review), admins included', async () => {
    const w = await world()
    await setRules(w, rules({ rule: 'require_specific_reviewers', users: [w.r1.user.id, w.r2.user.id] }))
    const cr = await openCr(w)
    await refused(w, cr.id, `require_specific_reviewers: it needs the approval of Rev One (${w.r1.user.id}), Rev Two (${w.r2.user.id})`)
    await review(w, w.r1.token, cr.id, 'approved')
    await refused(w, cr.id, `needs the approval of Rev Two (${w.r2.user.id})`)
    await review(w, w.r2.token, cr.id, 'changes-requested')
    await refused(w, cr.id, `needs the approval of Rev Two (${w.r2.user.id})`)
    await review(w, w.r2.token, cr.id, 'approved')
    // r1 changes their mind: their latest review counts.
    await review(w, w.r1.token, cr.id, 'changes-requested')
    await refused(w, cr.id, `needs the approval of Rev One (${w.r1.user.id})`)
    await review(w, w.r1.token, cr.id, 'approved')
    await merged(w, cr.id)
  })

  it('require_one_of_specific_reviewers: one listed user approves; an empty list never holds', async () => {
    const w = await world()
    await setRules(w, rules({ rule: 'require_one_of_specific_reviewers', users: [w.r1.user.id, w.r2.user.id] }))
    const cr = await openCr(w)
    await refused(w, cr.id, `require_one_of_specific_reviewers: it needs the approval of one of Rev One (${w.r1.user.id}), Rev Two (${w.r2.user.id})`)
    await review(w, w.r1.token, cr.id, 'changes-requested')
    await review(w, w.tokens.ada, cr.id, 'approved')
    await refused(w, cr.id, 'one of Rev One')
    await review(w, w.r2.token, cr.id, 'approved')
    await merged(w, cr.id)
    await setRules(w, rules({ rule: 'require_one_of_specific_reviewers', users: [] }))
    const other = await openCr(w)
    await refused(w, other.id, 'require_one_of_specific_reviewers: it lists no reviewer')
  })

  it('require_at_least_one_review: any current review counts, whatever its status', async () => {
    const w = await world()
    await setRules(w, rules({ rule: 'require_at_least_one_review' }))
    const cr = await openCr(w)
    await refused(w, cr.id, 'require_at_least_one_review: it needs at least one review')
    await review(w, w.r1.token, cr.id, 'changes-requested')
    await merged(w, cr.id)
  })

  it('require_at_least_one_approved_review: one approval among the current reviews', async () => {
    const w = await world()
    await setRules(w, rules({ rule: 'require_at_least_one_approved_review' }))
    const cr = await openCr(w)
    await refused(w, cr.id, 'require_at_least_one_approved_review: it needs at least one approving review')
    await review(w, w.r1.token, cr.id, 'changes-requested')
    await refused(w, cr.id, 'require_at_least_one_approved_review')
    await review(w, w.r2.token, cr.id, 'approved')
    await merged(w, cr.id)
  })

  it('require_all_reviews_approved: no current review asks for changes (holds with no review at all)', async () => {
    const w = await world()
    await setRules(w, rules({ rule: 'require_all_reviews_approved' }))
    const none = await openCr(w, 'No reviews')
    await merged(w, none.id)
    const cr = await openCr(w)
    await review(w, w.r1.token, cr.id, 'approved')
    await review(w, w.r2.token, cr.id, 'changes-requested')
    await refused(w, cr.id, `require_all_reviews_approved: every review must be an approval: Rev Two (${w.r2.user.id}) requested changes`)
    await review(w, w.r2.token, cr.id, 'approved')
    await merged(w, cr.id)
    // With require_at_least_one_approved_review beside it, a review is needed too.
    await setRules(w, rules({ rule: 'require_all_reviews_approved' }, { rule: 'require_at_least_one_approved_review' }))
    const next = await openCr(w, 'Needs one')
    await refused(w, next.id, 'require_at_least_one_approved_review')
  })
})

describe('merge rules: the change request and the merger', () => {
  it('require_up_to_date_change_request: an outdated change request is updated from main first', async () => {
    const w = await world()
    const first = await openCr(w, 'First')
    const late = await openCr(w, 'Late')
    await edit(w, first.id, [{ operation: 'insert_page', title: 'A', document: {} }])
    await edit(w, late.id, [{ operation: 'insert_page', title: 'B', document: {} }])
    await setRules(w, rules({ rule: 'require_up_to_date_change_request' }))
    await merged(w, first.id)
    await refused(w, late.id, 'require_up_to_date_change_request: it is outdated: update it from main first')
    expect((await call(w.api, w.tokens.ada, 'POST', `${w.base}/change-requests/${late.id}/update`)).body.result).toBe('update')
    await merged(w, late.id)
  })

  it('require_change_request_subject and require_change_request_description: not blank', async () => {
    const w = await world()
    await setRules(w, rules({ rule: 'require_change_request_subject' }, { rule: 'require_change_request_description' }))
    const cr = await openCr(w, '  ')
    const path = `${w.base}/change-requests/${cr.id}`
    // Every failing rule is named, in the order of the configuration.
    await refused(
      w,
      cr.id,
      `change request #${cr.number} cannot be merged: require_change_request_subject: it needs a subject; require_change_request_description: it needs a description`,
    )
    await call(w.api, w.tokens.ada, 'PATCH', path, { subject: 'Fix typos', description: paragraph('   ') })
    await refused(w, cr.id, 'require_change_request_description: it needs a description')
    expect((await call(w.api, w.tokens.ada, 'PATCH', path, { description: paragraph('Why: the typos.') })).status).toBe(200)
    await merged(w, cr.id)
  })

  it('require_author_to_merge: only the creator merges, admins included', async () => {
    const w = await world()
    await setRules(w, rules({ rule: 'require_author_to_merge' }))
    const cr = await openCr(w, 'Mine', w.r1.token)
    await refused(w, cr.id, `require_author_to_merge: only its author, Rev One (${w.r1.user.id}), may merge it`)
    await refused(w, cr.id, 'require_author_to_merge', w.r2.token)
    await merged(w, cr.id, w.r1.token)
  })

  it('require_agent_review and custom cannot be evaluated here: the merge is refused, saying so', async () => {
    const w = await world()
    await setRules(w, rules({ rule: 'require_agent_review' }))
    const cr = await openCr(w)
    await refused(w, cr.id, 'require_agent_review: it needs a review by the docs agent, which this API cannot run')
    await setRules(w, rules({ rule: 'custom', expression: 'reviews.length > 2', message: 'Three reviews please' }))
    await refused(
      w,
      cr.id,
      'custom: its custom expression `reviews.length > 2` cannot be evaluated by this API (remove the rule to merge here); the rule says: Three reviews please',
    )
  })

  it('allow_bypass: listed users merge past every other rule; for anyone else the rules hold', async () => {
    const w = await world()
    await setRules(
      w,
      rules(
        { rule: 'require_agent_review' },
        { rule: 'require_specific_reviewers', users: [w.r2.user.id] },
        { rule: 'allow_bypass', users: [w.r1.user.id] },
        { rule: 'require_change_request_subject' },
      ),
    )
    const cr = await openCr(w, '')
    await refused(w, cr.id, 'require_agent_review')
    await refused(w, cr.id, `require_specific_reviewers: it needs the approval of Rev Two (${w.r2.user.id}); require_change_request_subject`, w.r2.token)
    await merged(w, cr.id, w.r1.token)
  })
})

describe('merge rules: where they come from', () => {
  it("a space that inherits follows its organization's rules; its own rules or `none` override them", async () => {
    const w = await world()
    const org = await call(w.api, w.tokens.ada, 'PATCH', `/v1/orgs/${w.org.id}`, { mergeRules: rules({ rule: 'require_at_least_one_approved_review' }) })
    expect(org.status).toBe(200)
    expectOfficialResponse('updateOrganizationById', 200, org.body)
    const space = (await call(w.api, w.tokens.ada, 'GET', w.base)).body
    expect(space.mergeRules).toEqual({ type: 'inherit' })
    const cr = await openCr(w)
    await refused(w, cr.id, 'require_at_least_one_approved_review')
    // The space's own rules replace the organization's (not added to them).
    await setRules(w, rules({ rule: 'require_change_request_description' }))
    await refused(w, cr.id, 'cannot be merged: require_change_request_description: it needs a description')
    await setRules(w, { type: 'none' })
    const before = await openCr(w, 'Free')
    await merged(w, before.id)
    // Back to inherit: the organization's rules apply again, as they change.
    await setRules(w, { type: 'inherit' })
    await refused(w, cr.id, 'require_at_least_one_approved_review')
    await call(w.api, w.tokens.ada, 'PATCH', `/v1/orgs/${w.org.id}`, { mergeRules: { type: 'none' } })
    await merged(w, cr.id)
  })

  it('merging through the official client, with the rules met', async () => {
    const w: RulesWorld = await world()
    await setRules(w, rules({ rule: 'require_specific_reviewers', users: [w.r2.user.id] }))
    const cr = await openCr(w)
    const client = w.client(w.r1.token)
    await expect(client.spaces.mergeChangeRequest(w.space.id, cr.id)).rejects.toMatchObject({ code: 403 })
    await review(w, w.r2.token, cr.id, 'approved')
    const res = await client.spaces.mergeChangeRequest(w.space.id, cr.id)
    expectOfficialResponse('mergeChangeRequest', 200, res.data)
    expect(res.data.result).toBe('merge')
  })
})
