import { describe, expect, it } from 'vitest'
import { rootKey } from '../../../src/domains/common/rows.js'
import { call, createWorld, type World } from '../../helpers.js'

const collectionRow = (w: World, id: string) => w.api.store.read((tx) => tx.get('collections', id))
const spaceRow = (w: World, id: string) => w.api.store.read((tx) => tx.get('spaces', id))
const titles = (res: { body: { items: Array<{ title: string }> } }) => res.body.items.map((c) => c.title)

describe('collections', () => {
  describe('POST /v1/orgs/{organizationId}/collections', () => {
    it('creates a collection at the root, and nested ones at the end of their parent', async () => {
      const w = await createWorld()
      const res = await call(w.api, w.tokens.ada, 'POST', `/v1/orgs/${w.org.id}/collections`, { title: 'Docs', description: 'All docs' })
      expect(res.status).toBe(201)
      expect(res.body).toMatchObject({
        object: 'collection',
        title: 'Docs',
        description: 'All docs',
        organization: w.org.id,
        defaultLevel: null,
        urls: { location: `http://localhost:4000/v1/collections/${res.body.id}`, app: expect.stringContaining(res.body.id) },
        permissions: { view: true, admin: true, create: true, viewInviteLinks: true },
      })
      expect(res.body.parent).toBeUndefined()
      const child = await call(w.api, w.tokens.ada, 'POST', `/v1/orgs/${w.org.id}/collections`, { parent: res.body.id })
      expect(child.status).toBe(201)
      expect(child.body).toMatchObject({ title: 'Untitled', parent: res.body.id })
      expect(collectionRow(w, child.body.id)).toMatchObject({ parent: res.body.id, organization: w.org.id })
    })

    it.each([
      [{ title: 'x'.repeat(51) }, 'body field `title`: must be at most 50 characters'],
      [{ description: 'x'.repeat(101) }, 'body field `description`: must be at most 100 characters'],
      [{ parent: 'nope' }, 'body field `parent`: no collection nope in this organization'],
      [{ title: 3 }, 'body field `title`'],
    ])('rejects %j', async (body, message) => {
      const w = await createWorld()
      const res = await call(w.api, w.tokens.ada, 'POST', `/v1/orgs/${w.org.id}/collections`, body)
      expect(res.status).toBe(400)
      expect(res.body.error.code).toBe(400)
      expect(res.body.error.message).toContain(message)
      expect(w.api.store.read((tx) => tx.count('collections', 'byOrganization', w.org.id))).toBe(0)
    })

    it('needs createContent on the organization, or create on the parent collection', async () => {
      const w = await createWorld()
      expect((await call(w.api, w.tokens.rita, 'POST', `/v1/orgs/${w.org.id}/collections`, {})).status).toBe(403)
      expect((await call(w.api, w.tokens.gina, 'POST', `/v1/orgs/${w.org.id}/collections`, {})).status).toBe(403)
      expect((await call(w.api, w.tokens.olga, 'POST', `/v1/orgs/${w.org.id}/collections`, {})).status).toBe(404)
      expect((await call(w.api, undefined, 'POST', `/v1/orgs/${w.org.id}/collections`, {})).status).toBe(401)
      const team = await w.api.fixtures.createCollection(w.org.id, { title: 'Team' })
      const denied = await call(w.api, w.tokens.rita, 'POST', `/v1/orgs/${w.org.id}/collections`, { parent: team.id })
      expect(denied.status).toBe(403)
      await call(w.api, w.tokens.ada, 'PATCH', `/v1/collections/${team.id}`, { defaultLevel: 'create' })
      const nested = await call(w.api, w.tokens.rita, 'POST', `/v1/orgs/${w.org.id}/collections`, { parent: team.id, title: 'Rita' })
      expect(nested.status).toBe(201)
      // The nested collection inherits nothing by itself: rita creates, but is not its admin.
      expect(nested.body.permissions).toMatchObject({ view: true, create: false, admin: false })
      expect(w.api.store.read((tx) => tx.count('collections', 'byParent', team.id))).toBe(1)
    })
  })

  describe('GET /v1/collections/{collectionId}', () => {
    it('shows a collection to members with a role, and hides it from guests and outsiders', async () => {
      const w = await createWorld()
      const docs = await w.api.fixtures.createCollection(w.org.id, { title: 'Docs' })
      const res = await call(w.api, w.tokens.rita, 'GET', `/v1/collections/${docs.id}`)
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ id: docs.id, title: 'Docs', permissions: { view: true, create: false, admin: false } })
      const guest = await call(w.api, w.tokens.gina, 'GET', `/v1/collections/${docs.id}`)
      expect(guest.status).toBe(404)
      expect(guest.body.error).toEqual({ code: 404, message: 'Collection not found' })
      expect((await call(w.api, w.tokens.olga, 'GET', `/v1/collections/${docs.id}`)).status).toBe(404)
      expect((await call(w.api, w.tokens.ada, 'GET', '/v1/collections/missing')).status).toBe(404)
      expect((await call(w.api, undefined, 'GET', `/v1/collections/${docs.id}`)).status).toBe(401)
    })
  })

  describe('PATCH /v1/collections/{collectionId}', () => {
    it('updates title, description and default level, which flows to nested collections that inherit', async () => {
      const w = await createWorld()
      const docs = await w.api.fixtures.createCollection(w.org.id, { title: 'Docs' })
      const child = await w.api.fixtures.createCollection(w.org.id, { parent: docs.id })
      const res = await call(w.api, w.tokens.ada, 'PATCH', `/v1/collections/${docs.id}`, { title: 'Manuals', description: 'How-tos', defaultLevel: 'edit' })
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ title: 'Manuals', description: 'How-tos', defaultLevel: 'edit' })
      expect(collectionRow(w, docs.id)).toMatchObject({ title: 'Manuals', description: 'How-tos', defaultLevel: 'edit' })
      await call(w.api, w.tokens.ada, 'PATCH', `/v1/collections/${child.id}`, { defaultLevel: 'inherit' })
      await call(w.api, w.tokens.ada, 'PATCH', `/v1/collections/${docs.id}`, { defaultLevel: 'admin' })
      expect((await call(w.api, w.tokens.rita, 'GET', `/v1/collections/${child.id}`)).body.permissions).toMatchObject({ admin: true, create: true })
      // The reader, admin through the default level, may lower it, and the answer shows her new permissions.
      const lowered = await call(w.api, w.tokens.rita, 'PATCH', `/v1/collections/${docs.id}`, { defaultLevel: 'read' })
      expect(lowered.status).toBe(200)
      expect(lowered.body.permissions).toMatchObject({ view: true, admin: false })
    })

    it.each([
      [{ title: 'x'.repeat(51) }, 'body field `title`: must be at most 50 characters'],
      [{ description: 'x'.repeat(101) }, 'body field `description`: must be at most 100 characters'],
      [{ defaultLevel: 'owner' }, 'body field `defaultLevel`'],
      [undefined, 'body is required'],
    ])('rejects %j', async (body, message) => {
      const w = await createWorld()
      const docs = await w.api.fixtures.createCollection(w.org.id, { title: 'Docs' })
      const res = await call(w.api, w.tokens.ada, 'PATCH', `/v1/collections/${docs.id}`, body)
      expect(res.status).toBe(400)
      expect(res.body.error.message).toContain(message)
      expect(collectionRow(w, docs.id)).toMatchObject({ title: 'Docs', defaultLevel: null })
    })

    it('needs admin: 403 for a reader, 404 for a guest or outsider, 401', async () => {
      const w = await createWorld()
      const docs = await w.api.fixtures.createCollection(w.org.id, { title: 'Docs' })
      const reader = await call(w.api, w.tokens.rita, 'PATCH', `/v1/collections/${docs.id}`, { title: 'Hacked' })
      expect(reader.status).toBe(403)
      expect(reader.body.error.code).toBe(403)
      expect((await call(w.api, w.tokens.gina, 'PATCH', `/v1/collections/${docs.id}`, { title: 'Hacked' })).status).toBe(404)
      expect((await call(w.api, w.tokens.olga, 'PATCH', `/v1/collections/${docs.id}`, { title: 'Hacked' })).status).toBe(404)
      expect((await call(w.api, undefined, 'PATCH', `/v1/collections/${docs.id}`, { title: 'Hacked' })).status).toBe(401)
      expect(collectionRow(w, docs.id)!.title).toBe('Docs')
    })
  })

  describe('DELETE /v1/collections/{collectionId}', () => {
    it('deletes an empty collection, answers 204 when missing, and 409 while it holds content', async () => {
      const w = await createWorld()
      const docs = await w.api.fixtures.createCollection(w.org.id)
      const child = await w.api.fixtures.createCollection(w.org.id, { parent: docs.id })
      const space = await w.api.fixtures.createSpace(w.org.id, { parent: child.id })
      const busy = await call(w.api, w.tokens.ada, 'DELETE', `/v1/collections/${child.id}`)
      expect(busy.status).toBe(409)
      expect(busy.body.error).toEqual({ code: 409, message: expect.stringContaining('1 space(s)') })
      expect((await call(w.api, w.tokens.ada, 'DELETE', `/v1/collections/${docs.id}`)).body.error.message).toContain('1 collection(s)')
      // A space in the trash does not hold the collection.
      await w.api.fixtures.deleteSpace(space.id)
      const res = await call(w.api, w.tokens.ada, 'DELETE', `/v1/collections/${child.id}`)
      expect(res.status).toBe(204)
      expect(res.body).toBeUndefined()
      expect(collectionRow(w, child.id)).toBeUndefined()
      expect((await call(w.api, w.tokens.ada, 'DELETE', `/v1/collections/${child.id}`)).status).toBe(204)
      expect((await call(w.api, w.tokens.ada, 'DELETE', `/v1/collections/${docs.id}`)).status).toBe(204)
      expect(w.api.store.read((tx) => tx.count('collections', 'byOrganization', w.org.id))).toBe(0)
    })

    it('needs admin: 403 for a reader; 204 without effect for those who cannot see it; 401', async () => {
      const w = await createWorld()
      const docs = await w.api.fixtures.createCollection(w.org.id)
      expect((await call(w.api, w.tokens.rita, 'DELETE', `/v1/collections/${docs.id}`)).status).toBe(403)
      expect((await call(w.api, w.tokens.gina, 'DELETE', `/v1/collections/${docs.id}`)).status).toBe(204)
      expect((await call(w.api, w.tokens.olga, 'DELETE', `/v1/collections/${docs.id}`)).status).toBe(204)
      expect((await call(w.api, undefined, 'DELETE', `/v1/collections/${docs.id}`)).status).toBe(401)
      expect(collectionRow(w, docs.id)).toBeDefined()
    })
  })

  describe('GET /v1/collections/{collectionId}/spaces', () => {
    it('lists the live spaces directly inside, by position, in pages', async () => {
      const w = await createWorld()
      const docs = await w.api.fixtures.createCollection(w.org.id)
      const nested = await w.api.fixtures.createCollection(w.org.id, { parent: docs.id })
      const a = await w.api.fixtures.createSpace(w.org.id, { parent: docs.id, title: 'A' })
      await w.api.fixtures.createSpace(w.org.id, { parent: docs.id, title: 'B' })
      const c = await w.api.fixtures.createSpace(w.org.id, { parent: docs.id, title: 'C' })
      await w.api.fixtures.createSpace(w.org.id, { parent: nested.id, title: 'Nested' })
      await w.api.fixtures.createSpace(w.org.id, { title: 'Root' })
      await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${c.id}/move`, { position: { before: { type: 'space', space: a.id } } })
      const first = await call(w.api, w.tokens.rita, 'GET', `/v1/collections/${docs.id}/spaces?limit=2`)
      expect(first.status).toBe(200)
      expect(titles(first)).toEqual(['C', 'A'])
      expect(first.body.count).toBe(3)
      // Deleting an item already served does not shift the next page.
      await w.api.fixtures.deleteSpace(a.id)
      const second = await call(w.api, w.tokens.rita, 'GET', `/v1/collections/${docs.id}/spaces?limit=2&page=${first.body.next.page}`)
      expect(titles(second)).toEqual(['B'])
      expect(second.body.next).toBeUndefined()
    })

    it('answers 404 to a guest or an outsider, 401 without a token, 400 on a bad cursor', async () => {
      const w = await createWorld()
      const docs = await w.api.fixtures.createCollection(w.org.id)
      expect((await call(w.api, w.tokens.gina, 'GET', `/v1/collections/${docs.id}/spaces`)).status).toBe(404)
      expect((await call(w.api, w.tokens.olga, 'GET', `/v1/collections/${docs.id}/spaces`)).status).toBe(404)
      expect((await call(w.api, undefined, 'GET', `/v1/collections/${docs.id}/spaces`)).status).toBe(401)
      const bad = await call(w.api, w.tokens.ada, 'GET', `/v1/collections/${docs.id}/spaces?page=%25%25`)
      expect(bad.status).toBe(400)
      expect(bad.body.error.message).toContain('`page`')
    })
  })

  describe('GET /v1/orgs/{organizationId}/collections', () => {
    it('lists every collection in creation order, or only the root ones by position with nested=false', async () => {
      const w = await createWorld()
      const a = await w.api.fixtures.createCollection(w.org.id, { title: 'A' })
      await w.api.fixtures.createCollection(w.org.id, { title: 'A1', parent: a.id })
      const b = await w.api.fixtures.createCollection(w.org.id, { title: 'B' })
      await call(w.api, w.tokens.ada, 'POST', `/v1/collections/${b.id}/move`, { position: { before: { type: 'collection', collection: a.id } } })
      const all = await call(w.api, w.tokens.rita, 'GET', `/v1/orgs/${w.org.id}/collections`)
      expect(all.status).toBe(200)
      expect(titles(all)).toEqual(['A', 'A1', 'B'])
      expect(all.body.count).toBe(3)
      const roots = await call(w.api, w.tokens.rita, 'GET', `/v1/orgs/${w.org.id}/collections?nested=false`)
      expect(titles(roots)).toEqual(['B', 'A'])
      expect(roots.body.count).toBe(2)
      const page1 = await call(w.api, w.tokens.rita, 'GET', `/v1/orgs/${w.org.id}/collections?limit=2`)
      expect(titles(page1)).toEqual(['A', 'A1'])
      const page2 = await call(w.api, w.tokens.rita, 'GET', `/v1/orgs/${w.org.id}/collections?limit=2&page=${page1.body.next.page}`)
      expect(titles(page2)).toEqual(['B'])
    })

    it('shows a guest no collection, hides the organization from outsiders, validates nested', async () => {
      const w = await createWorld()
      await w.api.fixtures.createCollection(w.org.id)
      expect((await call(w.api, w.tokens.gina, 'GET', `/v1/orgs/${w.org.id}/collections`)).body).toEqual({ items: [], count: 0 })
      expect((await call(w.api, w.tokens.olga, 'GET', `/v1/orgs/${w.org.id}/collections`)).status).toBe(404)
      expect((await call(w.api, undefined, 'GET', `/v1/orgs/${w.org.id}/collections`)).status).toBe(401)
      const bad = await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}/collections?nested=maybe`)
      expect(bad.status).toBe(400)
      expect(bad.body.error.message).toContain('query parameter `nested`: must be true or false')
    })
  })

  describe('POST /v1/collections/{collectionId}/move', () => {
    const roots = async (w: World) => titles(await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}/collections?nested=false`))

    it('moves under another collection, back to the root, and between siblings', async () => {
      const w = await createWorld()
      const a = await w.api.fixtures.createCollection(w.org.id, { title: 'A' })
      const b = await w.api.fixtures.createCollection(w.org.id, { title: 'B' })
      const c = await w.api.fixtures.createCollection(w.org.id, { title: 'C' })
      const res = await call(w.api, w.tokens.ada, 'POST', `/v1/collections/${c.id}/move`, { parent: a.id })
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ id: c.id, parent: a.id })
      expect(await roots(w)).toEqual(['A', 'B'])
      expect(w.api.store.read((tx) => tx.scan('collections', 'byParent', a.id).map((e) => e.row.id))).toEqual([c.id])
      const back = await call(w.api, w.tokens.ada, 'POST', `/v1/collections/${c.id}/move`, {
        parent: null,
        position: { before: { type: 'collection', collection: a.id } },
      })
      expect(back.body.parent).toBeUndefined()
      expect(await roots(w)).toEqual(['C', 'A', 'B'])
      await call(w.api, w.tokens.ada, 'POST', `/v1/collections/${c.id}/move`, { position: { after: { type: 'collection', collection: a.id } } })
      expect(await roots(w)).toEqual(['A', 'C', 'B'])
      await call(w.api, w.tokens.ada, 'POST', `/v1/collections/${a.id}/move`, { parent: null })
      expect(await roots(w)).toEqual(['C', 'B', 'A'])
      expect(collectionRow(w, b.id)!.parent).toBeUndefined()
    })

    it('refuses cycles, foreign siblings and foreign parents with a 400, and no-op moves with a 409', async () => {
      const w = await createWorld()
      const a = await w.api.fixtures.createCollection(w.org.id, { title: 'A' })
      const child = await w.api.fixtures.createCollection(w.org.id, { title: 'A1', parent: a.id })
      const grandchild = await w.api.fixtures.createCollection(w.org.id, { title: 'A11', parent: child.id })
      const b = await w.api.fixtures.createCollection(w.org.id, { title: 'B' })
      const beta = await w.api.fixtures.createOrganization({ title: 'Beta', members: [{ user: w.users.ada.id, role: 'admin' }] })
      const foreign = await w.api.fixtures.createCollection(beta.id)
      const cases: Array<[string, unknown, string]> = [
        [a.id, { parent: a.id }, 'cannot move a collection into itself or one of its descendants'],
        [a.id, { parent: grandchild.id }, 'cannot move a collection into itself or one of its descendants'],
        [b.id, { parent: foreign.id }, `body field \`parent\`: no collection ${foreign.id} in this organization`],
        [b.id, { parent: a.id, position: { before: { type: 'collection', collection: b.id } } }, 'relative to itself'],
        [b.id, { parent: a.id, position: { after: { type: 'collection', collection: a.id } } }, `collection ${a.id} is not in the target parent`],
        [b.id, {}, 'body: give `parent` or `position` (or both)'],
        [b.id, { position: { before: { type: 'space', space: a.id } } }, 'body field `position.before.type`'],
      ]
      for (const [id, body, message] of cases) {
        const res = await call(w.api, w.tokens.ada, 'POST', `/v1/collections/${id}/move`, body)
        expect(res.status, JSON.stringify(body)).toBe(400)
        expect(res.body.error.message).toContain(message)
      }
      expect(collectionRow(w, a.id)!.parent).toBeUndefined()
      expect(collectionRow(w, b.id)!.parent).toBeUndefined()
      const noop = await call(w.api, w.tokens.ada, 'POST', `/v1/collections/${a.id}/move`, { position: { before: { type: 'collection', collection: b.id } } })
      expect(noop.status).toBe(409)
      expect((await call(w.api, w.tokens.ada, 'POST', `/v1/collections/${child.id}/move`, { parent: a.id })).status).toBe(409)
    })

    it('needs admin on the collection and create on a new parent', async () => {
      const w = await createWorld()
      const a = await w.api.fixtures.createCollection(w.org.id, { title: 'A' })
      const b = await w.api.fixtures.createCollection(w.org.id, { title: 'B' })
      expect((await call(w.api, w.tokens.rita, 'POST', `/v1/collections/${a.id}/move`, { parent: b.id })).status).toBe(403)
      expect((await call(w.api, w.tokens.gina, 'POST', `/v1/collections/${a.id}/move`, { parent: b.id })).status).toBe(404)
      expect((await call(w.api, w.tokens.olga, 'POST', `/v1/collections/${a.id}/move`, { parent: b.id })).status).toBe(404)
      expect((await call(w.api, undefined, 'POST', `/v1/collections/${a.id}/move`, { parent: b.id })).status).toBe(401)
      // Admin of A through its default level, reader of B: may reorder A, may not put it in B.
      await call(w.api, w.tokens.ada, 'PATCH', `/v1/collections/${a.id}`, { defaultLevel: 'admin' })
      const into = await call(w.api, w.tokens.rita, 'POST', `/v1/collections/${a.id}/move`, { parent: b.id })
      expect(into.status).toBe(403)
      expect(into.body.error.message).toContain('create')
      const reorder = await call(w.api, w.tokens.rita, 'POST', `/v1/collections/${a.id}/move`, {
        position: { after: { type: 'collection', collection: b.id } },
      })
      expect(reorder.status).toBe(200)
      expect(collectionRow(w, a.id)!.parent).toBeUndefined()
    })
  })

  describe('POST /v1/collections/{collectionId}/transfer', () => {
    it('moves the collection and everything under it to the target root, dropping grants', async () => {
      const w = await createWorld()
      const beta = await w.api.fixtures.createOrganization({
        title: 'Beta',
        members: [
          { user: w.users.ada.id, role: 'admin' },
          { user: w.users.rita.id, role: 'read' },
        ],
      })
      const betaFirst = await w.api.fixtures.createCollection(beta.id, { title: 'Beta first' })
      const parent = await w.api.fixtures.createCollection(w.org.id, { title: 'Parent' })
      const moving = await w.api.fixtures.createCollection(w.org.id, { title: 'Moving', parent: parent.id })
      const nested = await w.api.fixtures.createCollection(w.org.id, { title: 'Nested', parent: moving.id })
      const s1 = await w.api.fixtures.createSpace(w.org.id, { parent: moving.id, title: 'S1' })
      const s2 = await w.api.fixtures.createSpace(w.org.id, { parent: nested.id, title: 'S2' })
      const trashed = await w.api.fixtures.createSpace(w.org.id, { parent: nested.id, title: 'Trashed' })
      const stays = await w.api.fixtures.createSpace(w.org.id, { parent: parent.id, title: 'Stays' })
      await w.api.fixtures.grantSpace(s2.id, { user: w.users.gina.id }, 'edit')
      await w.api.fixtures.deleteSpace(trashed.id)

      const res = await call(w.api, w.tokens.ada, 'POST', `/v1/collections/${moving.id}/transfer`, { organization: beta.id })
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ id: moving.id, organization: beta.id })
      expect(res.body.parent).toBeUndefined()
      expect(collectionRow(w, nested.id)).toMatchObject({ organization: beta.id, parent: moving.id })
      expect(spaceRow(w, s1.id)).toMatchObject({ organization: beta.id, parent: moving.id, visibility: 'in-collection' })
      expect(spaceRow(w, s2.id)).toMatchObject({ organization: beta.id, parent: nested.id })
      expect(spaceRow(w, trashed.id)).toMatchObject({ organization: beta.id, deletedAt: expect.any(String) })
      expect(spaceRow(w, stays.id)!.organization).toBe(w.org.id)
      expect(w.api.store.read((tx) => tx.count('spaceGrants', 'bySpace', s2.id))).toBe(0)
      expect((await call(w.api, w.tokens.gina, 'GET', `/v1/spaces/${s2.id}`)).status).toBe(404)

      const betaRoots = await call(w.api, w.tokens.rita, 'GET', `/v1/orgs/${beta.id}/collections?nested=false`)
      expect(betaRoots.body.items.map((c: any) => c.id)).toEqual([betaFirst.id, moving.id])
      expect((await call(w.api, w.tokens.rita, 'GET', `/v1/orgs/${beta.id}/collections`)).body.count).toBe(3)
      expect(titles(await call(w.api, w.tokens.rita, 'GET', `/v1/orgs/${beta.id}/spaces`))).toEqual(['S1', 'S2'])
      expect(titles(await call(w.api, w.tokens.rita, 'GET', `/v1/orgs/${w.org.id}/spaces`))).toEqual(['Stays'])
      expect((await call(w.api, w.tokens.rita, 'GET', `/v1/orgs/${w.org.id}/collections`)).body.count).toBe(1)
      // The trashed space went along: it is restored in the new organization.
      const restored = await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${trashed.id}/restore`)
      expect(restored.body).toMatchObject({ organization: beta.id, parent: nested.id })
    })

    it('lands last at the target root even before root collections created later, and stamps the carried spaces', async () => {
      const w = await createWorld()
      const beta = await w.api.fixtures.createOrganization({ title: 'Beta', members: [{ user: w.users.ada.id, role: 'admin' }] })
      const moving = await w.api.fixtures.createCollection(w.org.id, { title: 'Moving' })
      const nested = await w.api.fixtures.createCollection(w.org.id, { title: 'Nested', parent: moving.id })
      const live = await w.api.fixtures.createSpace(w.org.id, { parent: moving.id, title: 'Live' })
      const deep = await w.api.fixtures.createSpace(w.org.id, { parent: nested.id, title: 'Deep' })
      const trashed = await w.api.fixtures.createSpace(w.org.id, { parent: nested.id, title: 'Trashed' })
      const stays = await w.api.fixtures.createSpace(w.org.id, { title: 'Stays' })
      await w.api.fixtures.deleteSpace(trashed.id)
      // Created after `Moving`: a larger position than the one it has in its organization.
      const betaLater = await w.api.fixtures.createCollection(beta.id, { title: 'Beta later' })
      w.clock.advance(3600_000)
      const res = await call(w.api, w.tokens.ada, 'POST', `/v1/collections/${moving.id}/transfer`, { organization: beta.id })
      expect(res.status).toBe(200)
      const roots = await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${beta.id}/collections?nested=false`)
      expect(roots.body.items.map((c: any) => c.id)).toEqual([betaLater.id, moving.id])
      expect(w.api.store.read((tx) => tx.scan('collections', 'byParent', rootKey(beta.id)).map((e) => e.row.id))).toEqual([betaLater.id, moving.id])
      for (const space of [live, deep, trashed]) {
        expect(spaceRow(w, space.id), space.title).toMatchObject({ organization: beta.id, updatedAt: '2026-03-01T11:00:00.000Z' })
      }
      expect(spaceRow(w, trashed.id)!.deletedAt).toBe('2026-03-01T10:00:00.000Z')
      expect(spaceRow(w, stays.id)!.updatedAt).toBe('2026-03-01T10:00:00.000Z')
      const listed = await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${beta.id}/spaces`)
      expect(listed.body.items.map((s: any) => [s.title, s.updatedAt])).toEqual([
        ['Live', '2026-03-01T11:00:00.000Z'],
        ['Deep', '2026-03-01T11:00:00.000Z'],
      ])
    })

    it('answers 409 for the same organization, 400 on a bad body', async () => {
      const w = await createWorld()
      const docs = await w.api.fixtures.createCollection(w.org.id)
      expect((await call(w.api, w.tokens.ada, 'POST', `/v1/collections/${docs.id}/transfer`, { organization: w.org.id })).status).toBe(409)
      const missing = await call(w.api, w.tokens.ada, 'POST', `/v1/collections/${docs.id}/transfer`, {})
      expect(missing.status).toBe(400)
      expect(missing.body.error.message).toContain('body field `organization`: is required')
    })

    it('needs admin on the collection and createContent on the target', async () => {
      const w = await createWorld()
      const docs = await w.api.fixtures.createCollection(w.org.id)
      const readerThere = await w.api.fixtures.createOrganization({
        title: 'Gamma',
        members: [
          { user: w.users.ada.id, role: 'read' },
          { user: w.users.rita.id, role: 'admin' },
        ],
      })
      const stranger = await w.api.fixtures.createOrganization({ title: 'Delta', members: [{ user: w.users.olga.id, role: 'admin' }] })
      expect((await call(w.api, w.tokens.ada, 'POST', `/v1/collections/${docs.id}/transfer`, { organization: readerThere.id })).status).toBe(403)
      expect((await call(w.api, w.tokens.ada, 'POST', `/v1/collections/${docs.id}/transfer`, { organization: stranger.id })).status).toBe(404)
      expect((await call(w.api, w.tokens.rita, 'POST', `/v1/collections/${docs.id}/transfer`, { organization: readerThere.id })).status).toBe(403)
      expect((await call(w.api, w.tokens.olga, 'POST', `/v1/collections/${docs.id}/transfer`, { organization: stranger.id })).status).toBe(404)
      expect((await call(w.api, undefined, 'POST', `/v1/collections/${docs.id}/transfer`, { organization: stranger.id })).status).toBe(401)
      expect(collectionRow(w, docs.id)!.organization).toBe(w.org.id)
    })
  })
})
