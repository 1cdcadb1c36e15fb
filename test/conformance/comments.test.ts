import { GitBookAPIError } from '@gitbook/api'
import { describe, expect, it } from 'vitest'
import { call, createWorld } from '../helpers.js'
import { expectOfficialResponse } from './official.js'

/**
 * Every comment operation through the official client (`@gitbook/api`, `serviceBinding` to
 * `api.fetch`), each answer checked against the official response schema of its operation.
 */
async function setup() {
  const w = await createWorld()
  const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Handbook' })
  const cr = (await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Review' })).body
  const cora = await w.api.fixtures.createUser({ displayName: 'Cora', email: 'cora@acme.test' })
  await w.api.fixtures.addMember(w.org.id, cora.id, 'comment')
  const coraToken = await w.api.fixtures.createToken(cora.id)
  return { ...w, space, cr, cora, gb: w.client(w.tokens.ada), coraGb: w.client(coraToken) }
}

const doc = {
  object: 'document' as const,
  data: {},
  nodes: [
    {
      object: 'block' as const,
      type: 'paragraph' as const,
      nodes: [{ object: 'text' as const, leaves: [{ object: 'leaf' as const, text: 'In a document', marks: [] }] }],
    },
  ],
}

describe('conformance: space comments through @gitbook/api', () => {
  it('post, get, list (every filter), update (resolve, react, edit), replies, commenters, deletes', async () => {
    const w = await setup()
    const s = w.space.id
    const posted = await w.coraGb.spaces.postCommentInSpace(s, { body: { markdown: 'Is this **right**?' } })
    expect(posted.status).toBe(200)
    expectOfficialResponse('postCommentInSpace', 200, posted.data)
    const id = posted.data.id
    const second = await w.gb.spaces.postCommentInSpace(s, { body: { document: doc } })
    expectOfficialResponse('postCommentInSpace', 200, second.data)

    const got = await w.gb.spaces.getCommentInSpace(s, id, { format: 'document' })
    expectOfficialResponse('getCommentInSpace', 200, got.data)
    expect('document' in got.data.body).toBe(true)

    const list = await w.gb.spaces.listCommentsInSpace(s, { status: 'open', order: 'asc', authors: [w.cora.id, w.users.ada.id], format: 'markdown', limit: 10 })
    expectOfficialResponse('listCommentsInSpace', 200, list.data)
    expect(list.data.items.map((c) => c.id)).toEqual([id, second.data.id])
    expect(list.data.items.every((c) => 'markdown' in c.body)).toBe(true)
    const byAuthor = await w.gb.spaces.listCommentsInSpace(s, { authors: [w.cora.id] })
    expect(byAuthor.data.items.map((c) => c.id)).toEqual([id])
    expect((await w.gb.spaces.listCommentsInSpace(s, { targetPage: 'no-such-page' })).data.count).toBe(0)

    const reacted = await w.gb.spaces.updateCommentInSpace(s, id, { addedReactions: ['👍'] })
    expectOfficialResponse('updateCommentInSpace', 200, reacted.data)
    expect(reacted.data.reactions).toMatchObject([{ emoji: '👍', count: 1 }])
    const resolved = await w.gb.spaces.updateCommentInSpace(s, id, { resolved: true })
    expectOfficialResponse('updateCommentInSpace', 200, resolved.data)
    expect(resolved.data).toMatchObject({ status: 'resolved', resolvedBy: { id: w.users.ada.id } })
    const edited = await w.coraGb.spaces.updateCommentInSpace(s, id, { body: { markdown: 'Is this right?' } })
    expectOfficialResponse('updateCommentInSpace', 200, edited.data)
    expect(edited.data.editedAt).toBeDefined()
    expect((await w.gb.spaces.getSpaceById(s)).data.comments).toBe(1)

    const reply = await w.gb.spaces.postCommentReplyInSpace(s, id, { body: { markdown: 'Yes' } })
    expectOfficialResponse('postCommentReplyInSpace', 200, reply.data)
    const gotReply = await w.gb.spaces.getCommentReplyInSpace(s, id, reply.data.id, { format: 'document' })
    expectOfficialResponse('getCommentReplyInSpace', 200, gotReply.data)
    const replies = await w.gb.spaces.listCommentRepliesInSpace(s, id, { limit: 5, format: 'markdown' })
    expectOfficialResponse('listCommentRepliesInSpace', 200, replies.data)
    expect(replies.data.items.map((r) => r.id)).toEqual([reply.data.id])
    const updatedReply = await w.coraGb.spaces.updateCommentReplyInSpace(s, id, reply.data.id, { addedReactions: ['🎉'] })
    expectOfficialResponse('updateCommentReplyInSpace', 200, updatedReply.data)
    expect((await w.gb.spaces.getCommentInSpace(s, id)).data).toMatchObject({ replies: 1, repliers: [{ count: 1, user: { id: w.users.ada.id } }] })

    const commenters = await w.gb.spaces.listCommentersInSpace(s, { limit: 10 })
    expectOfficialResponse('listCommentersInSpace', 200, commenters.data)
    expect(commenters.data.items.map((m) => m.id)).toEqual([w.cora.id, w.users.ada.id])

    // Deletes answer 204, also when there was nothing to delete (the reference).
    const deletedReply = await w.gb.spaces.deleteCommentReplyInSpace(s, id, reply.data.id)
    expect(deletedReply.status).toBe(204)
    expectOfficialResponse('deleteCommentReplyInSpace', 204, undefined)
    expect((await w.gb.spaces.deleteCommentReplyInSpace(s, id, reply.data.id)).status).toBe(204)
    const deleted = await w.coraGb.spaces.deleteCommentInSpace(s, id)
    expect(deleted.status).toBe(204)
    expectOfficialResponse('deleteCommentInSpace', 204, undefined)
    expect((await w.gb.spaces.deleteCommentInSpace(s, id)).status).toBe(204)
  })

  it('errors reach the client as GitBookAPIError with the status and the message', async () => {
    const w = await setup()
    const rita = w.client(w.tokens.rita)
    const olga = w.client(w.tokens.olga)
    const failure = (p: Promise<unknown>) =>
      p.then(
        () => undefined,
        (e: unknown) => e as GitBookAPIError,
      )
    const forbidden = await failure(rita.spaces.postCommentInSpace(w.space.id, { body: { markdown: 'x' } }))
    expect(forbidden).toBeInstanceOf(GitBookAPIError)
    expect(forbidden!.code).toBe(403)
    expect((await failure(olga.spaces.listCommentsInSpace(w.space.id)))!.code).toBe(404)
    const bad = await failure(w.gb.spaces.postCommentInSpace(w.space.id, { body: {} }))
    expect(bad!.code).toBe(400)
    expect(bad!.message).toContain('body field `body`')
    expect((await failure(w.gb.spaces.getCommentInSpace(w.space.id, 'nope')))!.code).toBe(404)
  })
})

describe('conformance: change request comments through @gitbook/api', () => {
  it('post, get, list, update, replies (post with format, get, list, update, delete), commenters, delete', async () => {
    const w = await setup()
    const s = w.space.id
    const cr = w.cr.id
    const posted = await w.coraGb.spaces.postCommentInChangeRequest(s, cr, { body: { markdown: 'Typo here' } })
    expect(posted.status).toBe(200)
    expectOfficialResponse('postCommentInChangeRequest', 200, posted.data)
    expect(posted.data.target.changeRequest).toBe(cr)
    const id = posted.data.id
    const got = await w.gb.spaces.getCommentInChangeRequest(s, cr, id, { format: 'markdown' })
    expectOfficialResponse('getCommentInChangeRequest', 200, got.data)
    const list = await w.gb.spaces.listCommentsInChangeRequest(s, cr, { status: 'all', order: 'desc', format: 'document', authors: [w.cora.id], limit: 1 })
    expectOfficialResponse('listCommentsInChangeRequest', 200, list.data)
    expect(list.data.items.map((c) => c.id)).toEqual([id])
    // The space's own list does not hold a change request's comments.
    expect((await w.gb.spaces.listCommentsInSpace(s)).data.count).toBe(0)

    const resolved = await w.gb.spaces.updateCommentInChangeRequest(s, cr, id, { resolved: true, addedReactions: ['✅'] })
    expectOfficialResponse('updateCommentInChangeRequest', 200, resolved.data)
    expect((await w.gb.spaces.getChangeRequestById(s, cr)).data.comments).toBe(0)
    const reopened = await w.coraGb.spaces.updateCommentInChangeRequest(s, cr, id, { resolved: false, removedReactions: ['✅'] })
    expect(reopened.data).toMatchObject({ status: 'open', reactions: [{ emoji: '✅', count: 1 }] })
    expect((await w.gb.spaces.getChangeRequestById(s, cr)).data.comments).toBe(1)

    const reply = await w.gb.spaces.postCommentReplyInChangeRequest(s, cr, id, { body: { document: doc } }, { format: 'markdown' })
    expectOfficialResponse('postCommentReplyInChangeRequest', 200, reply.data)
    expect(reply.data.body).toEqual({ markdown: 'In a document\n' })
    const gotReply = await w.gb.spaces.getCommentReplyInChangeRequest(s, cr, id, reply.data.id)
    expectOfficialResponse('getCommentReplyInChangeRequest', 200, gotReply.data)
    const replies = await w.gb.spaces.listCommentRepliesInChangeRequest(s, cr, id, { format: 'document' })
    expectOfficialResponse('listCommentRepliesInChangeRequest', 200, replies.data)
    const updatedReply = await w.gb.spaces.updateCommentReplyInChangeRequest(s, cr, id, reply.data.id, { body: { markdown: 'Fixed' } })
    expectOfficialResponse('updateCommentReplyInChangeRequest', 200, updatedReply.data)
    expect(updatedReply.data.editedAt).toBeDefined()

    const commenters = await w.gb.spaces.listCommentersInChangeRequest(s, cr)
    expectOfficialResponse('listCommentersInChangeRequest', 200, commenters.data)
    expect(commenters.data.items.map((m) => m.id)).toEqual([w.cora.id, w.users.ada.id])

    const deletedReply = await w.gb.spaces.deleteCommentReplyInChangeRequest(s, cr, id, reply.data.id)
    expect(deletedReply.status).toBe(204)
    expectOfficialResponse('deleteCommentReplyInChangeRequest', 204, undefined)
    const deleted = await w.gb.spaces.deleteCommentInChangeRequest(s, cr, id)
    expect(deleted.status).toBe(204)
    expectOfficialResponse('deleteCommentInChangeRequest', 204, undefined)
    expect((await w.gb.spaces.deleteCommentInChangeRequest(s, cr, id)).status).toBe(204)
    expect((await w.gb.spaces.getChangeRequestById(s, cr)).data.comments).toBe(0)
  })
})
