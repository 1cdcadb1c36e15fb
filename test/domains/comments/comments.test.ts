import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import { call, createWorld, expectError, type World } from '../../helpers.js'
import { expectOfficialResponse } from '../../conformance/official.js'
import { TEST_STORE } from '../../test-storage.js'

/**
 * Comments and replies through `api.fetch`: a space's own thread and a change request's. Cora
 * comments (role `comment`), Eddie edits (role `edit`), Ada is admin, Rita reads, Gina is a
 * guest, Olga an outsider.
 */
async function setup() {
  const w = await createWorld()
  const member = async (name: string, role: 'comment' | 'edit') => {
    const user = await w.api.fixtures.createUser({ displayName: name, email: `${name.toLowerCase()}@acme.test` })
    await w.api.fixtures.addMember(w.org.id, user.id, role)
    return { user, token: await w.api.fixtures.createToken(user.id) }
  }
  const cora = await member('Cora', 'comment')
  const eddie = await member('Eddie', 'edit')
  const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Handbook' })
  const base = `/v1/spaces/${space.id}`
  return { ...w, cora, eddie, space, base, t: { ...w.tokens, cora: cora.token, eddie: eddie.token } }
}
type Setup = Awaited<ReturnType<typeof setup>>

/** Main content with a page holding a paragraph and a table (merged from a change request), and an open change request on it. */
async function withContent(w: Setup) {
  const crs = `${w.base}/change-requests`
  const first = (await call(w.api, w.t.ada, 'POST', crs, { subject: 'Pages' })).body
  const edit = await call(w.api, w.t.ada, 'POST', `${crs}/${first.id}/content?compat=false`, {
    changes: [{ operation: 'insert_page', title: 'Guide', document: { markdown: 'Intro text.\n\n| Name | Role |\n| --- | --- |\n| Ada | admin |\n' } }],
  })
  const pageId: string = edit.body.changes[0].page.id
  await call(w.api, w.t.ada, 'POST', `${crs}/${first.id}/merge`)
  const page = (await call(w.api, w.t.ada, 'GET', `${w.base}/content/page/${pageId}`)).body
  const [paragraph, table] = page.document.nodes
  const cr = (await call(w.api, w.t.ada, 'POST', crs, { subject: 'Review' })).body
  return { pageId, paragraph, table, cr, crBase: `${crs}/${cr.id}` }
}

const post = (w: Setup, token: string, path: string, body: unknown = { body: { markdown: 'A comment' } }) =>
  call(w.api, token, 'POST', `${path}/comments`, body)
const rows = (w: World) =>
  w.api.store.read((tx) => ({
    comments: tx.all('comments'),
    replies: tx.all('commentReplies'),
    spaces: tx.all('spaces'),
    changeRequests: tx.all('changeRequests'),
  }))
const paragraph = (text: string) => ({
  object: 'document',
  nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] }],
})

describe('comments: post, get, list', () => {
  it('posts a comment on main content and reads it back in the official shape, its body in the posted form or converted', async () => {
    const w = await setup()
    const res = await post(w, w.t.cora, w.base, { body: { markdown: 'Hello **world**' } })
    expect(res.status).toBe(200)
    expectOfficialResponse('postCommentInSpace', 200, res.body)
    expect(res.body).toMatchObject({
      object: 'comment',
      postedBy: { id: w.cora.user.id },
      postedAt: '2026-03-01T10:00:00.000Z',
      body: { markdown: 'Hello **world**' },
      status: 'open',
      replies: 0,
      repliers: [],
      reactions: [],
      target: { space: w.space.id, revision: w.space.revision },
      urls: { location: `http://localhost:4000${w.base}/comments/${res.body.id}` },
    })
    expect(res.body.editedAt).toBeUndefined()
    expect(res.body.target.changeRequest).toBeUndefined()
    const got = await call(w.api, w.t.rita, 'GET', `${w.base}/comments/${res.body.id}`)
    expectOfficialResponse('getCommentInSpace', 200, got.body)
    expect(got.body.body).toEqual({ markdown: 'Hello **world**' })
    const asDoc = await call(w.api, w.t.rita, 'GET', `${w.base}/comments/${res.body.id}?format=document`)
    expectOfficialResponse('getCommentInSpace', 200, asDoc.body)
    expect(asDoc.body.body.document.nodes[0]).toMatchObject({ object: 'block', type: 'paragraph' })
    expect(JSON.stringify(asDoc.body.body)).toContain('"bold"')
    // A document body answers as posted, or as markdown.
    const doc = await post(w, w.t.cora, w.base, { body: { document: paragraph('Plain words') } })
    expect(doc.body.body.document.nodes[0].type).toBe('paragraph')
    const asMd = await call(w.api, w.t.cora, 'GET', `${w.base}/comments/${doc.body.id}?format=markdown`)
    expect(asMd.body.body).toEqual({ markdown: 'Plain words\n' })
    // A comment has no frontmatter and no title: `---` and `# Heading` stay in the body.
    const odd = await post(w, w.t.cora, w.base, { body: { markdown: '---\nnot: [yaml\n---\n# Heading\n' } })
    const oddDoc = (await call(w.api, w.t.cora, 'GET', `${w.base}/comments/${odd.body.id}?format=document`)).body.body.document
    expect(oddDoc.nodes.map((n: any) => n.type)).toContain('heading-1')
    expect((await call(w.api, w.t.cora, 'GET', `${w.base}/comments?format=markdown`)).body.items.map((c: any) => Object.keys(c.body))).toEqual([
      ['markdown'],
      ['markdown'],
      ['markdown'],
    ])
  })

  it('targets a page, a node of it and a cell of a table node, checked against the content', async () => {
    const w = await setup()
    const c = await withContent(w)
    const record = Object.keys(c.table.data.records)[0]!
    const definition = Object.keys(c.table.data.definition)[1]!
    const res = await post(w, w.t.cora, w.base, { body: { markdown: 'This cell' }, page: c.pageId, node: c.table.key, tableCell: { record, definition } })
    expect(res.status).toBe(200)
    expectOfficialResponse('postCommentInSpace', 200, res.body)
    const main = (await call(w.api, w.t.ada, 'GET', w.base)).body.revision
    expect(res.body.target).toEqual({ space: w.space.id, revision: main, page: { id: c.pageId }, node: { id: c.table.key }, tableCell: { record, definition } })
    // In a change request: the change request's content and revision.
    const inCr = await post(w, w.t.cora, c.crBase, { body: { markdown: 'Here' }, page: c.pageId, node: c.paragraph.key })
    expectOfficialResponse('postCommentInChangeRequest', 200, inCr.body)
    expect(inCr.body.target).toEqual({
      space: w.space.id,
      revision: c.cr.revision,
      changeRequest: c.cr.id,
      page: { id: c.pageId },
      node: { id: c.paragraph.key },
    })
    expect(inCr.body.urls.location).toBe(`http://localhost:4000${w.base}/change-requests/${c.cr.id}/comments/${inCr.body.id}`)
    const before = rows(w)
    for (const [body, message] of [
      [{ body: { markdown: 'x' }, page: 'nope' }, 'body field `page`: no page "nope" in the space\'s content'],
      [{ body: { markdown: 'x' }, node: c.paragraph.key }, 'body field `node`: needs `page`'],
      [{ body: { markdown: 'x' }, page: c.pageId, node: 'nope' }, `body field \`node\`: no node with key "nope" in page "${c.pageId}"`],
      [{ body: { markdown: 'x' }, page: c.pageId, tableCell: { record, definition } }, 'body field `tableCell`: needs `node`'],
      [
        { body: { markdown: 'x' }, page: c.pageId, node: c.paragraph.key, tableCell: { record, definition } },
        `body field \`tableCell\`: node "${c.paragraph.key}" is not a table`,
      ],
      [
        { body: { markdown: 'x' }, page: c.pageId, node: c.table.key, tableCell: { record: 'r9', definition } },
        'body field `tableCell.record`: no record "r9"',
      ],
      [
        { body: { markdown: 'x' }, page: c.pageId, node: c.table.key, tableCell: { record, definition: 'c9' } },
        'body field `tableCell.definition`: no column "c9"',
      ],
      [{ body: { markdown: 'x' }, page: c.pageId, node: c.table.key, tableCell: { record } }, 'body field `tableCell.definition`: is required'],
      [{ body: { markdown: 'x' }, page: '' }, 'body field `page`: must not be empty'],
    ] as const) {
      expectError(await post(w, w.t.cora, w.base, body), 400, message)
    }
    expectError(await post(w, w.t.cora, c.crBase, { body: { markdown: 'x' }, page: 'nope' }), 400, 'no page "nope" in the change request\'s content')
    expect(rows(w)).toEqual(before)
  })

  it('refuses a body that is not exactly one non-empty {markdown} or {document} (400 naming the field), and writes nothing', async () => {
    const w = await setup()
    const before = rows(w)
    for (const [body, message] of [
      [undefined, 'body is required'],
      [{}, 'body field `body`: is required'],
      [{ body: {} }, 'body field `body`: must be {"markdown": "..."} or {"document": {...}}'],
      [{ body: { markdown: ' \n ' } }, 'body field `body`: must not be empty'],
      [{ body: { markdown: 'x', document: paragraph('y') } }, 'body field `body`: must be {"markdown": "..."} or {"document": {...}}, exactly one of the two'],
      [{ body: { document: { object: 'document', nodes: [] } } }, 'body field `body`: must not be empty'],
      [{ body: { document: { object: 'document', nodes: [{ object: 'block', type: 'nope' }] } } }, 'body field `body.document.nodes[0].type`'],
      [{ body: { markdown: 42 } }, 'body field `body.markdown`'],
      // A document the markdown conversion cannot read (a text without leaves) would break `format=markdown` reads.
      [{ body: { document: { object: 'document', nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text' }] }] } } }, 'body field `body'],
      [{ body: { markdown: 'x'.repeat(1_000_001) } }, 'must be at most 1000000 characters'],
      // Markdown past the document limits would fail every later `format=document` read (and a state load).
      [{ body: { markdown: `${'>'.repeat(5000)} deep` } }, 'body field `body.markdown`: is markdown that cannot be kept: it nests more than 64'],
    ] as const) {
      expectError(await call(w.api, w.t.cora, 'POST', `${w.base}/comments`, body), 400, message)
    }
    expect(rows(w)).toEqual(before)
  })

  it('lists a thread with status, order, targetPage, authors (repeated) and paging; a change request lists only its own', async () => {
    const w = await setup()
    const c = await withContent(w)
    const ids: string[] = []
    for (const [token, page] of [
      [w.t.cora, c.pageId],
      [w.t.eddie, undefined],
      [w.t.ada, c.pageId],
      [w.t.cora, undefined],
    ] as const) {
      w.clock.advance(60_000)
      ids.push((await post(w, token, w.base, { body: { markdown: `by ${token}` }, ...(page && { page }) })).body.id)
    }
    const crComment = (await post(w, w.t.cora, c.crBase)).body.id
    await call(w.api, w.t.ada, 'PUT', `${w.base}/comments/${ids[1]}`, { resolved: true })
    const list = async (query: string, path = w.base) => {
      const res = await call(w.api, w.t.rita, 'GET', `${path}/comments${query}`)
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      expectOfficialResponse(path === w.base ? 'listCommentsInSpace' : 'listCommentsInChangeRequest', 200, res.body)
      return res.body
    }
    expect((await list('')).items.map((x: any) => x.id)).toEqual([...ids].reverse())
    expect((await list('?order=asc')).items.map((x: any) => x.id)).toEqual(ids)
    expect((await list('?status=open&order=asc')).items.map((x: any) => x.id)).toEqual([ids[0], ids[2], ids[3]])
    expect((await list('?status=resolved')).items.map((x: any) => x.id)).toEqual([ids[1]])
    expect((await list(`?targetPage=${c.pageId}&order=asc`)).items.map((x: any) => x.id)).toEqual([ids[0], ids[2]])
    expect((await list(`?authors=${w.cora.user.id}&order=asc`)).items.map((x: any) => x.id)).toEqual([ids[0], ids[3]])
    expect((await list(`?authors=${w.cora.user.id}&authors=${w.eddie.user.id}&order=asc`)).items.map((x: any) => x.id)).toEqual([ids[0], ids[1], ids[3]])
    expect((await list(`?authors=${w.users.olga.id}`)).count).toBe(0)
    // Paging: the cursor holds the sort key, so a comment posted meanwhile does not shift pages.
    const first = await list('?limit=3')
    expect(first.count).toBe(4)
    await post(w, w.t.cora, w.base)
    const second = await list(`?limit=3&page=${first.next.page}`)
    expect(second.items.map((x: any) => x.id)).toEqual([ids[0]])
    expect(second.next).toBeUndefined()
    // The change request's thread holds its own comment only, the space's none of it.
    expect((await list('', c.crBase)).items.map((x: any) => x.id)).toEqual([crComment])
    expect((await list('?limit=100')).items.map((x: any) => x.id)).not.toContain(crComment)
    for (const [query, message] of [
      ['?status=closed', 'query parameter `status`: must be all, open or resolved'],
      ['?order=up', 'query parameter `order`'],
      ['?format=html', 'query parameter `format`: must be "document" or "markdown"'],
      ['?limit=x', 'query parameter `limit`'],
      ['?targetPage=', 'query parameter `targetPage`: must not be empty'],
    ]) {
      expectError(await call(w.api, w.t.rita, 'GET', `${w.base}/comments${query}`), 400, message!)
    }
  })
})

describe('comments in a seed, markdown loaded on first use', () => {
  it('a seed with comments, in a process that has not loaded the markdown libraries, asks for `await preload()`; after it the seed loads', async () => {
    const w = await setup()
    await post(w, w.t.cora, w.base, { body: { markdown: 'Hello **world**' } })
    const doc = w.api.dump()
    // A fresh copy of the package: its markdown conversion has loaded nothing yet.
    vi.resetModules()
    const fresh = await import('../../../src/index.js')
    expect(() => fresh.createDocsApi({ seed: doc })).toThrow('`await preload()`')
    await fresh.preload()
    expect(fresh.createDocsApi({ seed: doc }).dump().comments).toEqual(doc.comments)
  })
})

describe('comments: access', () => {
  it('members with a role read; commenters post; readers get 403; guests and outsiders 404; no token 401', async () => {
    const w = await setup()
    const comment = (await post(w, w.t.cora, w.base)).body
    const reply = (await call(w.api, w.t.cora, 'POST', `${w.base}/comments/${comment.id}/replies`, { body: { markdown: 'R' } })).body
    const before = rows(w)
    expect((await call(w.api, w.t.rita, 'GET', `${w.base}/comments`)).status).toBe(200)
    expect((await call(w.api, w.t.rita, 'GET', `${w.base}/comments/${comment.id}/replies/${reply.id}`)).status).toBe(200)
    expectError(await post(w, w.t.rita, w.base), 403, 'You need the comment role on this space')
    expectError(await call(w.api, w.t.rita, 'PUT', `${w.base}/comments/${comment.id}`, { addedReactions: ['👍'] }), 403, 'comment role')
    expectError(await call(w.api, w.t.rita, 'POST', `${w.base}/comments/${comment.id}/replies`, { body: { markdown: 'x' } }), 403, 'comment role')
    expectError(await call(w.api, w.t.rita, 'DELETE', `${w.base}/comments/${comment.id}`), 403, 'comment role')
    for (const token of [w.t.gina, w.t.olga]) {
      for (const [method, path] of [
        ['GET', `${w.base}/comments`],
        ['GET', `${w.base}/comments/${comment.id}`],
        ['POST', `${w.base}/comments`],
        ['DELETE', `${w.base}/comments/${comment.id}`],
        ['DELETE', `${w.base}/comments/${comment.id}/replies/${reply.id}`],
        ['GET', `${w.base}/commenters`],
      ] as const) {
        expectError(await call(w.api, token, method, path, method === 'POST' ? { body: { markdown: 'x' } } : undefined), 404, 'Space not found')
      }
    }
    expectError(await call(w.api, undefined, 'GET', `${w.base}/comments`), 401, '')
    expectError(await call(w.api, undefined, 'POST', `${w.base}/comments`, { body: {} }), 401, '')
    expect(rows(w)).toEqual(before)
  })

  it('a public space shows its comments to members only: visitors get 403', async () => {
    const w = await setup()
    await w.api.system((ctx) => ctx.tx.update('spaces', { ...ctx.tx.get('spaces', w.space.id)!, visibility: 'public' }))
    const comment = (await post(w, w.t.cora, w.base)).body
    expect((await call(w.api, w.t.olga, 'GET', w.base)).status).toBe(200)
    expectError(await call(w.api, w.t.olga, 'GET', `${w.base}/comments`), 403, 'You need the read role on this space')
    expectError(await call(w.api, w.t.olga, 'GET', `${w.base}/comments/${comment.id}`), 403, 'read role')
    expectError(await post(w, w.t.olga, w.base), 403, 'comment role')
  })

  it('finds a comment only in its own thread; an unknown comment, reply or change request is a 404', async () => {
    const w = await setup()
    const c = await withContent(w)
    const mainComment = (await post(w, w.t.cora, w.base)).body.id
    const crComment = (await post(w, w.t.cora, c.crBase)).body.id
    const reply = (await call(w.api, w.t.cora, 'POST', `${w.base}/comments/${mainComment}/replies`, { body: { markdown: 'R' } })).body.id
    expectError(await call(w.api, w.t.cora, 'GET', `${c.crBase}/comments/${mainComment}`), 404, 'Comment not found')
    expectError(await call(w.api, w.t.cora, 'GET', `${w.base}/comments/${crComment}`), 404, 'Comment not found')
    expectError(await call(w.api, w.t.cora, 'GET', `${w.base}/comments/nope`), 404, 'Comment not found')
    expectError(await call(w.api, w.t.cora, 'GET', `${c.crBase}/comments/${crComment}/replies/${reply}`), 404, 'Comment reply not found')
    expectError(await call(w.api, w.t.cora, 'GET', `${w.base}/change-requests/99/comments`), 404, 'Change request not found')
    // A change request is addressed by id or by number.
    expect((await call(w.api, w.t.cora, 'GET', `${w.base}/change-requests/${c.cr.number}/comments/${crComment}`)).status).toBe(200)
    // Deleting under a missing parent is a 404 (the 204 is for the addressed comment or reply only).
    expectError(await call(w.api, w.t.cora, 'DELETE', `${w.base}/change-requests/99/comments/${crComment}`), 404, 'Change request not found')
    expectError(await call(w.api, w.t.cora, 'DELETE', `${w.base}/comments/nope/replies/${reply}`), 404, 'Comment not found')
    // An archived change request still takes comments and replies; a resolved comment still takes replies.
    await call(w.api, w.t.ada, 'PATCH', c.crBase, { status: 'archived' })
    const late = await post(w, w.t.cora, c.crBase)
    expect(late.status).toBe(200)
    await call(w.api, w.t.ada, 'PUT', `${c.crBase}/comments/${late.body.id}`, { resolved: true })
    const replyToResolved = await call(w.api, w.t.eddie, 'POST', `${c.crBase}/comments/${late.body.id}/replies`, { body: { markdown: 'Still here' } })
    expect(replyToResolved.status).toBe(200)
    expect((await call(w.api, w.t.eddie, 'GET', `${c.crBase}/comments/${late.body.id}`)).body.status).toBe('resolved')
    // A trashed space's comments are gone with it.
    await call(w.api, w.t.ada, 'DELETE', w.base)
    expectError(await call(w.api, w.t.ada, 'GET', `${w.base}/comments`), 404, 'Space not found')
  })

  it('says in `permissions` what each caller may do, as the API then lets them', async () => {
    const w = await setup()
    const comment = (await post(w, w.t.cora, w.base)).body
    const reply = (await call(w.api, w.t.cora, 'POST', `${w.base}/comments/${comment.id}/replies`, { body: { markdown: 'R' } })).body
    const seen = async (token: string) => ({
      comment: (await call(w.api, token, 'GET', `${w.base}/comments/${comment.id}`)).body.permissions,
      reply: (await call(w.api, token, 'GET', `${w.base}/comments/${comment.id}/replies/${reply.id}`)).body.permissions,
    })
    const all = (view: boolean, edit: boolean, reply: boolean, del: boolean) => ({ view, edit, reply, delete: del })
    expect(await seen(w.t.cora)).toEqual({ comment: all(true, true, true, true), reply: all(true, true, true, true) })
    expect(await seen(w.t.eddie)).toEqual({ comment: all(true, false, true, false), reply: all(true, false, true, false) })
    expect(await seen(w.t.ada)).toEqual({ comment: all(true, false, true, true), reply: all(true, false, true, true) })
    expect(await seen(w.t.rita)).toEqual({ comment: all(true, false, false, false), reply: all(true, false, false, false) })
    // What they say is what the API does.
    expectError(
      await call(w.api, w.t.eddie, 'PUT', `${w.base}/comments/${comment.id}`, { body: { markdown: 'mine now' } }),
      403,
      'Only the author of a comment can edit its body',
    )
    expectError(
      await call(w.api, w.t.ada, 'PUT', `${w.base}/comments/${comment.id}/replies/${reply.id}`, { body: { markdown: 'mine now' } }),
      403,
      'Only the author of a reply can edit its body',
    )
    expectError(
      await call(w.api, w.t.eddie, 'DELETE', `${w.base}/comments/${comment.id}/replies/${reply.id}`),
      403,
      'Only the author of a reply or an admin of the space can delete it',
    )
    // An author demoted to reader keeps their comment but may no longer change it.
    expect((await call(w.api, w.t.ada, 'PATCH', `/v1/orgs/${w.org.id}/members/${w.cora.user.id}`, { role: 'read' })).status).toBe(200)
    expect(await seen(w.t.cora)).toEqual({ comment: all(true, false, false, false), reply: all(true, false, false, false) })
  })
})

describe('comments: resolve, edit, react', () => {
  it('resolves (resolvedAt from the clock, resolvedBy) and reopens; the author and admins may, other commenters not', async () => {
    const w = await setup()
    const id = (await post(w, w.t.cora, w.base)).body.id
    const path = `${w.base}/comments/${id}`
    const counter = async () => (await call(w.api, w.t.ada, 'GET', w.base)).body.comments
    expect(await counter()).toBe(1)
    expectError(
      await call(w.api, w.t.eddie, 'PUT', path, { resolved: true, addedReactions: ['👍'] }),
      403,
      'Only the author of a comment or an admin of the space can resolve or reopen it',
    )
    expect((await call(w.api, w.t.eddie, 'GET', path)).body.reactions).toEqual([])
    w.clock.advance(90_000)
    const resolved = await call(w.api, w.t.cora, 'PUT', path, { resolved: true })
    expectOfficialResponse('updateCommentInSpace', 200, resolved.body)
    expect(resolved.body).toMatchObject({ status: 'resolved', resolvedAt: '2026-03-01T10:01:30.000Z', resolvedBy: { id: w.cora.user.id } })
    expect(resolved.body.editedAt).toBeUndefined()
    expect(await counter()).toBe(0)
    // Resolving again changes nothing (the first resolution stays).
    w.clock.advance(60_000)
    expect((await call(w.api, w.t.ada, 'PUT', path, { resolved: true })).body.resolvedAt).toBe('2026-03-01T10:01:30.000Z')
    const reopened = await call(w.api, w.t.ada, 'PUT', path, { resolved: false })
    expectOfficialResponse('updateCommentInSpace', 200, reopened.body)
    expect(reopened.body.status).toBe('open')
    expect(reopened.body.resolvedAt).toBeUndefined()
    expect(reopened.body.resolvedBy).toBeUndefined()
    expect(await counter()).toBe(1)
    // An empty update changes nothing.
    const stored = w.api.store.read((tx) => tx.get('comments', id))
    expect((await call(w.api, w.t.eddie, 'PUT', path, {})).status).toBe(200)
    expect(w.api.store.read((tx) => tx.get('comments', id))).toBe(stored)
    expectError(await call(w.api, w.t.cora, 'PUT', path), 400, 'body is required')
    expectError(await call(w.api, w.t.cora, 'PUT', path, { resolved: 'yes' }), 400, 'body field `resolved`')
  })

  it('lets only the author edit a body (editedAt set); reacting and resolving are not editing', async () => {
    const w = await setup()
    const id = (await post(w, w.t.cora, w.base)).body.id
    const path = `${w.base}/comments/${id}`
    expectError(await call(w.api, w.t.ada, 'PUT', path, { body: { markdown: 'Admin words' } }), 403, 'Only the author')
    await call(w.api, w.t.eddie, 'PUT', path, { addedReactions: ['🎉'] })
    expect((await call(w.api, w.t.cora, 'GET', path)).body.editedAt).toBeUndefined()
    w.clock.advance(5_000)
    const edited = await call(w.api, w.t.cora, 'PUT', path, { body: { document: paragraph('Better') } })
    expect(edited.body).toMatchObject({ editedAt: '2026-03-01T10:00:05.000Z', body: { document: { nodes: [{ type: 'paragraph' }] } } })
    expectError(await call(w.api, w.t.cora, 'PUT', path, { body: { markdown: '' } }), 400, 'body field `body`: must not be empty')
    // The reply: the same rules.
    const reply = (await call(w.api, w.t.eddie, 'POST', `${path}/replies`, { body: { markdown: 'R' } })).body
    const replyPath = `${path}/replies/${reply.id}`
    expectError(await call(w.api, w.t.cora, 'PUT', replyPath, { body: { markdown: 'not mine' } }), 403, 'Only the author of a reply')
    w.clock.advance(5_000)
    const editedReply = await call(w.api, w.t.eddie, 'PUT', replyPath, { body: { markdown: 'Fixed' }, resolved: true })
    expectOfficialResponse('updateCommentReplyInSpace', 200, editedReply.body)
    expect(editedReply.body).toMatchObject({ editedAt: '2026-03-01T10:00:10.000Z', body: { markdown: 'Fixed' } })
    // `resolved` on a reply is ignored: a reply has no status, and its comment stays open.
    expect((await call(w.api, w.t.cora, 'GET', path)).body.status).toBe('open')
  })

  it('reactions touch only the caller’s own: one user counts once per emoji, an emoji nobody keeps disappears', async () => {
    const w = await setup()
    const id = (await post(w, w.t.cora, w.base)).body.id
    const path = `${w.base}/comments/${id}`
    const react = (token: string, body: object) => call(w.api, token, 'PUT', path, body)
    await react(w.t.cora, { addedReactions: ['👍', '🎉'] })
    w.clock.advance(1_000)
    const both = await react(w.t.eddie, { addedReactions: ['👍', '👍'] })
    expectOfficialResponse('updateCommentInSpace', 200, both.body)
    const summary = (body: any) => body.reactions.map((r: any) => [r.emoji, r.count, r.users.map((u: any) => [u.user.id, u.reactedAt])])
    const t0 = '2026-03-01T10:00:00.000Z'
    const t1 = '2026-03-01T10:00:01.000Z'
    expect(summary(both.body)).toEqual([
      [
        '👍',
        2,
        [
          [w.cora.user.id, t0],
          [w.eddie.user.id, t1],
        ],
      ],
      ['🎉', 1, [[w.cora.user.id, t0]]],
    ])
    // Again: nothing changes, the first reaction time stays.
    w.clock.advance(1_000)
    expect(summary((await react(w.t.cora, { addedReactions: ['👍'] })).body)).toEqual(summary(both.body))
    // Eddie cannot take Cora's 🎉 away; removing what he never added changes nothing.
    expect(summary((await react(w.t.eddie, { removedReactions: ['🎉', '🚀'] })).body)).toEqual(summary(both.body))
    expect(summary((await react(w.t.eddie, { removedReactions: ['👍'] })).body)).toEqual([
      ['👍', 1, [[w.cora.user.id, t0]]],
      ['🎉', 1, [[w.cora.user.id, t0]]],
    ])
    expect(summary((await react(w.t.cora, { removedReactions: ['🎉'] })).body)).toEqual([['👍', 1, [[w.cora.user.id, t0]]]])
    const before = rows(w)
    expectError(
      await react(w.t.cora, { addedReactions: ['👍'], removedReactions: ['🎉', '👍'] }),
      400,
      'body field `removedReactions.1`: "👍" is also in `addedReactions`',
    )
    expectError(await react(w.t.cora, { addedReactions: ['thumbs'] }), 400, 'body field `addedReactions[0]`: must be an emoji')
    expectError(await react(w.t.cora, { addedReactions: [''] }), 400, 'body field `addedReactions[0]`: must not be empty')
    expectError(await react(w.t.cora, { removedReactions: 'x' }), 400, 'body field `removedReactions`')
    expect(rows(w)).toEqual(before)
    // Flags, keycaps, skin tones and joined sequences are emojis.
    const many = await react(w.t.cora, { addedReactions: ['🇫🇷', '1️⃣', '👍🏽', '👩‍💻'] })
    expect(many.body.reactions.map((r: any) => r.emoji)).toEqual(['👍', '🇫🇷', '1️⃣', '👍🏽', '👩‍💻'])
    expect(many.body.editedAt).toBeUndefined()
    // Replies take reactions the same way.
    const reply = (await call(w.api, w.t.cora, 'POST', `${path}/replies`, { body: { markdown: 'R' } })).body
    const reacted = await call(w.api, w.t.eddie, 'PUT', `${path}/replies/${reply.id}`, { addedReactions: ['👀'] })
    expect(summary(reacted.body)).toEqual([['👀', 1, [[w.eddie.user.id, reacted.body.reactions[0].users[0].reactedAt]]]])
    expect(reacted.body.editedAt).toBeUndefined()
  })
})

describe('comments: replies and deletes', () => {
  it('posts, gets, lists and deletes replies; `replies` and `repliers` follow the live ones', async () => {
    const w = await setup()
    const id = (await post(w, w.t.ada, w.base)).body.id
    const path = `${w.base}/comments/${id}`
    const replyIds: string[] = []
    for (const token of [w.t.cora, w.t.eddie, w.t.cora]) {
      w.clock.advance(60_000)
      const res = await call(w.api, token, 'POST', `${path}/replies`, { body: { markdown: 'Reply' } })
      expect(res.status).toBe(200)
      expectOfficialResponse('postCommentReplyInSpace', 200, res.body)
      replyIds.push(res.body.id)
    }
    const comment = (await call(w.api, w.t.rita, 'GET', path)).body
    expect(comment.replies).toBe(3)
    expect(comment.repliers.map((r: any) => [r.user.id, r.count, r.updatedAt])).toEqual([
      [w.cora.user.id, 2, '2026-03-01T10:03:00.000Z'],
      [w.eddie.user.id, 1, '2026-03-01T10:02:00.000Z'],
    ])
    const page1 = (await call(w.api, w.t.rita, 'GET', `${path}/replies?limit=2`)).body
    expectOfficialResponse('listCommentRepliesInSpace', 200, page1)
    expect(page1.items.map((r: any) => r.id)).toEqual(replyIds.slice(0, 2))
    expect(page1.count).toBe(3)
    const page2 = (await call(w.api, w.t.rita, 'GET', `${path}/replies?limit=2&page=${page1.next.page}&format=document`)).body
    expect(page2.items.map((r: any) => [r.id, Object.keys(r.body)])).toEqual([[replyIds[2], ['document']]])
    const got = await call(w.api, w.t.rita, 'GET', `${path}/replies/${replyIds[1]}?format=markdown`)
    expectOfficialResponse('getCommentReplyInSpace', 200, got.body)
    expect(got.body).toMatchObject({ object: 'comment-reply', postedBy: { id: w.eddie.user.id }, body: { markdown: 'Reply' } })
    // Deletes: the author, or an admin; 204 also when the reply is gone.
    expect((await call(w.api, w.t.eddie, 'DELETE', `${path}/replies/${replyIds[1]}`)).status).toBe(204)
    expect((await call(w.api, w.t.ada, 'DELETE', `${path}/replies/${replyIds[0]}`)).status).toBe(204)
    expect((await call(w.api, w.t.ada, 'DELETE', `${path}/replies/${replyIds[0]}`)).status).toBe(204)
    const after = (await call(w.api, w.t.rita, 'GET', path)).body
    expect(after.replies).toBe(1)
    expect(after.repliers.map((r: any) => [r.user.id, r.count])).toEqual([[w.cora.user.id, 1]])
    expectError(await call(w.api, w.t.rita, 'GET', `${path}/replies/${replyIds[0]}`), 404, 'Comment reply not found')
  })

  it('deletes a comment with its replies (the author or an admin), 204 also when it is gone, and keeps the counters', async () => {
    const w = await setup()
    const c = await withContent(w)
    const mine = (await post(w, w.t.cora, w.base)).body.id
    const crComment = (await post(w, w.t.cora, c.crBase)).body.id
    for (const [path, id] of [
      [w.base, mine],
      [c.crBase, crComment],
    ] as const) {
      await call(w.api, w.t.eddie, 'POST', `${path}/comments/${id}/replies`, { body: { markdown: 'R1' } })
      await call(w.api, w.t.ada, 'POST', `${path}/comments/${id}/replies`, { body: { markdown: 'R2' } })
    }
    expect((await call(w.api, w.t.ada, 'GET', c.crBase)).body.comments).toBe(1)
    const before = rows(w)
    expectError(
      await call(w.api, w.t.eddie, 'DELETE', `${w.base}/comments/${mine}`),
      403,
      'Only the author of a comment or an admin of the space can delete it',
    )
    expect(rows(w)).toEqual(before)
    expect((await call(w.api, w.t.cora, 'DELETE', `${w.base}/comments/${mine}`)).status).toBe(204)
    expect((await call(w.api, w.t.ada, 'DELETE', `${c.crBase}/comments/${crComment}`)).status).toBe(204)
    expect((await call(w.api, w.t.ada, 'DELETE', `${c.crBase}/comments/${crComment}`)).status).toBe(204)
    expect((await call(w.api, w.t.eddie, 'DELETE', `${w.base}/comments/never-there`)).status).toBe(204)
    expect(rows(w).comments).toEqual([])
    expect(rows(w).replies).toEqual([])
    expect((await call(w.api, w.t.ada, 'GET', w.base)).body.comments).toBe(0)
    expect((await call(w.api, w.t.ada, 'GET', c.crBase)).body.comments).toBe(0)
  })

  it('a space purged after its restore window takes its comments and replies with it', async () => {
    const w = await setup()
    const id = (await post(w, w.t.cora, w.base)).body.id
    await call(w.api, w.t.cora, 'POST', `${w.base}/comments/${id}/replies`, { body: { markdown: 'R' } })
    await call(w.api, w.t.ada, 'DELETE', w.base)
    w.clock.advance(8 * 24 * 3600_000)
    expectError(await call(w.api, w.t.ada, 'POST', `${w.base}/restore`), 404, 'Space not found')
    expect(rows(w).comments).toEqual([])
    expect(rows(w).replies).toEqual([])
  })
})

describe('commenters', () => {
  it('lists the members who posted a comment or a reply, in the order of their first post, as organization members', async () => {
    const w = await setup()
    const c = await withContent(w)
    const first = (await post(w, w.t.eddie, w.base)).body.id
    w.clock.advance(1_000)
    await call(w.api, w.t.cora, 'POST', `${w.base}/comments/${first}/replies`, { body: { markdown: 'R' } })
    w.clock.advance(1_000)
    await post(w, w.t.ada, w.base)
    await post(w, w.t.eddie, w.base)
    await post(w, w.t.ada, c.crBase)
    const list = await call(w.api, w.t.rita, 'GET', `${w.base}/commenters`)
    expectOfficialResponse('listCommentersInSpace', 200, list.body)
    expect(list.body.items.map((m: any) => [m.object, m.id, m.role])).toEqual([
      ['member', w.eddie.user.id, 'edit'],
      ['member', w.cora.user.id, 'comment'],
      ['member', w.users.ada.id, 'admin'],
    ])
    const paged = (await call(w.api, w.t.rita, 'GET', `${w.base}/commenters?limit=2`)).body
    expect(paged.count).toBe(3)
    expect((await call(w.api, w.t.rita, 'GET', `${w.base}/commenters?limit=2&page=${paged.next.page}`)).body.items.map((m: any) => m.id)).toEqual([
      w.users.ada.id,
    ])
    const inCr = await call(w.api, w.t.rita, 'GET', `${c.crBase}/commenters`)
    expectOfficialResponse('listCommentersInChangeRequest', 200, inCr.body)
    expect(inCr.body.items.map((m: any) => m.id)).toEqual([w.users.ada.id])
    // Someone who left the organization is no longer listed; their comments stay.
    await call(w.api, w.t.ada, 'DELETE', `/v1/orgs/${w.org.id}/members/${w.cora.user.id}`)
    expect((await call(w.api, w.t.rita, 'GET', `${w.base}/commenters`)).body.items.map((m: any) => m.id)).toEqual([w.eddie.user.id, w.users.ada.id])
    expect((await call(w.api, w.t.rita, 'GET', `${w.base}/comments/${first}`)).body.repliers[0].user.id).toBe(w.cora.user.id)
  })
})

describe('comments: counters', () => {
  type Step =
    | { kind: 'post'; thread: number; who: number }
    | { kind: 'resolve' | 'reopen' | 'delete' | 'reply'; thread: number; who: number; pick: number }
    | { kind: 'deleteReply'; thread: number; who: number; pick: number }
  const step: fc.Arbitrary<Step> = fc.oneof(
    fc.record({ kind: fc.constant('post' as const), thread: fc.nat(1), who: fc.nat(2) }),
    fc.record({
      kind: fc.constantFrom('resolve' as const, 'reopen' as const, 'delete' as const, 'reply' as const),
      thread: fc.nat(1),
      who: fc.nat(2),
      pick: fc.nat(20),
    }),
    fc.record({ kind: fc.constant('deleteReply' as const), thread: fc.nat(1), who: fc.nat(2), pick: fc.nat(20) }),
  )

  it.skipIf(TEST_STORE === 'postgres')(
    'space.comments and changeRequest.comments equal a recount of open comments after every step of any sequence',
    async () => {
      const w = await setup()
      const c = await withContent(w)
      const start = w.api.snapshot()
      const threads = [w.base, c.crBase]
      const tokens = [w.t.ada, w.t.cora, w.t.eddie]
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), async (steps) => {
          w.api.restore(start)
          for (const s of steps) {
            const path = threads[s.thread]!
            const token = tokens[s.who]!
            const ids = rows(w)
              .comments.filter((x) => (s.thread === 1) === (x.changeRequest !== undefined))
              .map((x) => x.id)
            const id = ids.length ? ids[('pick' in s ? s.pick : 0) % ids.length] : 'none'
            let res
            if (s.kind === 'post') res = await post(w, token, path)
            else if (s.kind === 'resolve' || s.kind === 'reopen')
              res = await call(w.api, token, 'PUT', `${path}/comments/${id}`, { resolved: s.kind === 'resolve' })
            else if (s.kind === 'delete') res = await call(w.api, token, 'DELETE', `${path}/comments/${id}`)
            else if (s.kind === 'reply') res = await call(w.api, token, 'POST', `${path}/comments/${id}/replies`, { body: { markdown: 'R' } })
            else {
              const replies = rows(w).replies.filter((r) => r.comment === id)
              res = await call(w.api, token, 'DELETE', `${path}/comments/${id}/replies/${replies.length ? replies[s.pick % replies.length]!.id : 'none'}`)
            }
            expect([200, 204, 403, 404], JSON.stringify(res.body)).toContain(res.status)
            const now = rows(w)
            const open = (cr?: string) => now.comments.filter((x) => x.changeRequest === cr && x.status === 'open').length
            expect(now.spaces.find((x) => x.id === w.space.id)!.comments).toBe(open(undefined))
            expect(now.changeRequests.find((x) => x.id === c.cr.id)!.comments).toBe(open(c.cr.id))
            // Replies never outlive their comment.
            expect(now.replies.every((r) => now.comments.some((x) => x.id === r.comment))).toBe(true)
          }
          expect((await call(w.api, w.t.ada, 'GET', w.base)).body.comments).toBe(
            (await call(w.api, w.t.ada, 'GET', `${w.base}/comments?status=open&limit=0`)).body.count,
          )
          expect((await call(w.api, w.t.ada, 'GET', c.crBase)).body.comments).toBe(
            (await call(w.api, w.t.ada, 'GET', `${c.crBase}/comments?status=open&limit=0`)).body.count,
          )
        }),
        { numRuns: 30, seed: 20260301 },
      )
    },
  )
})
