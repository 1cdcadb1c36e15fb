import { describe, expect, it } from 'vitest'
import { rootKey } from '../../../src/domains/common/rows.js'
import { addEditor, call, createWorld, type World } from '../../helpers.js'

const HOUR = 3600_000
const DAY = 24 * HOUR

const row = (w: World, id: string) => w.api.store.read((tx) => tx.get('spaces', id))
const titles = (res: { body: { items: Array<{ title: string }> } }) => res.body.items.map((s) => s.title)

/** A second organization where ada is admin and rita a reader. */
const createBeta = (w: World) =>
  w.api.fixtures.createOrganization({
    title: 'Beta',
    members: [
      { user: w.users.ada.id, role: 'admin' },
      { user: w.users.rita.id, role: 'read' },
    ],
  })

describe('spaces', () => {
  describe('POST /v1/orgs/{organizationId}/spaces', () => {
    it('creates a private space at the root with counters at 0, and an in-collection one in a collection', async () => {
      const w = await createWorld()
      const res = await call(w.api, w.tokens.ada, 'POST', `/v1/orgs/${w.org.id}/spaces`, { title: 'Handbook', emoji: '📘', language: 'fr', editMode: 'locked' })
      expect(res.status).toBe(201)
      expect(res.body).toMatchObject({
        object: 'space',
        title: 'Handbook',
        emoji: '📘',
        language: 'fr',
        editMode: 'locked',
        visibility: 'private',
        organization: w.org.id,
        mergeRules: { type: 'inherit' },
        defaultLevel: null,
        comments: 0,
        changeRequests: 0,
        changeRequestsOpen: 0,
        changeRequestsDraft: 0,
        createdAt: '2026-03-01T10:00:00.000Z',
        urls: { location: `http://localhost:4000/v1/spaces/${res.body.id}` },
        permissions: { view: true, admin: true, edit: true },
      })
      expect(res.body.parent).toBeUndefined()
      expect(res.body.revision).toEqual(expect.any(String))
      expect(row(w, res.body.id)).toMatchObject({ title: 'Handbook', comments: 0, changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0 })

      const collection = await w.api.fixtures.createCollection(w.org.id, { title: 'Docs' })
      const inside = await call(w.api, w.tokens.ada, 'POST', `/v1/orgs/${w.org.id}/spaces`, { parent: collection.id })
      expect(inside.status).toBe(201)
      expect(inside.body).toMatchObject({ title: 'Untitled', parent: collection.id, visibility: 'in-collection' })
      const list = await call(w.api, w.tokens.ada, 'GET', `/v1/collections/${collection.id}/spaces`)
      expect(list.body.items.map((s: any) => s.id)).toEqual([inside.body.id])
    })

    it.each([
      [{ title: 'x'.repeat(51) }, 'body field `title`: must be at most 50 characters'],
      [{ emoji: 'x'.repeat(51) }, 'body field `emoji`: must be at most 50 characters'],
      [{ language: 'klingon' }, 'body field `language`'],
      [{ editMode: 'open' }, 'body field `editMode`'],
      [{ visibility: 'secret' }, 'body field `visibility`'],
      [{ visibility: 'in-collection' }, 'body field `visibility`: `in-collection` is only for spaces in a collection'],
      [{ parent: 'nope' }, 'body field `parent`: no collection nope in this organization'],
    ])('rejects %j with a 400 naming the field', async (body, message) => {
      const w = await createWorld()
      const res = await call(w.api, w.tokens.ada, 'POST', `/v1/orgs/${w.org.id}/spaces`, body)
      expect(res.status).toBe(400)
      expect(res.body.error.code).toBe(400)
      expect(res.body.error.message).toContain(message)
      expect(w.api.store.read((tx) => tx.count('spaces', 'byOrganization', w.org.id))).toBe(0)
    })

    it('refuses a parent collection of another organization', async () => {
      const w = await createWorld()
      const beta = await createBeta(w)
      const foreign = await w.api.fixtures.createCollection(beta.id)
      const res = await call(w.api, w.tokens.ada, 'POST', `/v1/orgs/${w.org.id}/spaces`, { parent: foreign.id })
      expect(res.status).toBe(400)
      expect(res.body.error.message).toContain('`parent`')
    })

    it('needs createContent on the organization, or create on the parent collection', async () => {
      const w = await createWorld()
      expect((await call(w.api, undefined, 'POST', `/v1/orgs/${w.org.id}/spaces`, {})).status).toBe(401)
      const reader = await call(w.api, w.tokens.rita, 'POST', `/v1/orgs/${w.org.id}/spaces`, {})
      expect(reader.status).toBe(403)
      expect(reader.body.error.code).toBe(403)
      expect((await call(w.api, w.tokens.gina, 'POST', `/v1/orgs/${w.org.id}/spaces`, {})).status).toBe(403)
      expect((await call(w.api, w.tokens.olga, 'POST', `/v1/orgs/${w.org.id}/spaces`, {})).status).toBe(404)
      // A collection whose default level is `create` lets the reader create inside it, and only there.
      const open = await w.api.fixtures.createCollection(w.org.id, { title: 'Open' })
      await call(w.api, w.tokens.ada, 'PATCH', `/v1/collections/${open.id}`, { defaultLevel: 'create' })
      const inside = await call(w.api, w.tokens.rita, 'POST', `/v1/orgs/${w.org.id}/spaces`, { parent: open.id, title: 'Mine' })
      expect(inside.status).toBe(201)
      expect(inside.body.parent).toBe(open.id)
      // A guest cannot see collections at all: the parent answers like a missing one.
      const guest = await call(w.api, w.tokens.gina, 'POST', `/v1/orgs/${w.org.id}/spaces`, { parent: open.id })
      expect(guest.status).toBe(400)
      expect(w.api.store.read((tx) => tx.count('spaces', 'byOrganization', w.org.id))).toBe(1)
    })
  })

  describe('GET /v1/orgs/{organizationId}/spaces', () => {
    it('lists live spaces in creation order, with a cursor that survives deletions between pages', async () => {
      const w = await createWorld()
      const spaces = []
      for (let i = 0; i < 5; i++) spaces.push(await w.api.fixtures.createSpace(w.org.id, { title: `S${i}` }))
      const first = await call(w.api, w.tokens.rita, 'GET', `/v1/orgs/${w.org.id}/spaces?limit=2`)
      expect(first.status).toBe(200)
      expect(first.body.count).toBe(5)
      expect(titles(first)).toEqual(['S0', 'S1'])
      // A reader sees private spaces too: the role is a floor on every space.
      expect(first.body.items[0].permissions).toMatchObject({ view: true, edit: false, admin: false })
      await w.api.fixtures.deleteSpace(spaces[1]!.id)
      await w.api.fixtures.deleteSpace(spaces[2]!.id)
      const second = await call(w.api, w.tokens.rita, 'GET', `/v1/orgs/${w.org.id}/spaces?limit=2&page=${first.body.next.page}`)
      expect(titles(second)).toEqual(['S3', 'S4'])
      expect(second.body.count).toBe(3)
      expect(second.body.next).toBeUndefined()
    })

    it('shows a guest only the spaces the guest can see', async () => {
      const w = await createWorld()
      await w.api.fixtures.createSpace(w.org.id, { title: 'Private' })
      const shared = await w.api.fixtures.createSpace(w.org.id, { title: 'Shared' })
      await w.api.fixtures.createSpace(w.org.id, { title: 'Public', visibility: 'public' })
      await w.api.fixtures.grantSpace(shared.id, { user: w.users.gina.id }, 'edit')
      const res = await call(w.api, w.tokens.gina, 'GET', `/v1/orgs/${w.org.id}/spaces`)
      expect(res.status).toBe(200)
      expect(titles(res)).toEqual(['Shared', 'Public'])
      expect(res.body.count).toBe(2)
      expect(res.body.items[0].permissions).toMatchObject({ view: true, edit: true, admin: false })
      expect(res.body.items[1].permissions).toMatchObject({ view: true, edit: false })
    })

    it('shows an organization admin admin permissions on every item', async () => {
      const w = await createWorld()
      await w.api.fixtures.createSpace(w.org.id, { title: 'Private' })
      const docs = await w.api.fixtures.createCollection(w.org.id)
      await w.api.fixtures.createSpace(w.org.id, { title: 'Inside', parent: docs.id })
      await w.api.fixtures.createSpace(w.org.id, { title: 'Public', visibility: 'public' })
      const res = await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}/spaces`)
      expect(res.status).toBe(200)
      expect(titles(res)).toEqual(['Private', 'Inside', 'Public'])
      for (const item of res.body.items) {
        expect(item.permissions, item.title).toMatchObject({ view: true, edit: true, merge: true, admin: true, viewInviteLinks: true })
        expect(item.permissions.admin, item.title).toBe(true)
      }
      // The list agrees with getting each space.
      for (const item of res.body.items) {
        expect((await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${item.id}`)).body.permissions).toEqual(item.permissions)
      }
    })

    it('answers 404 to an outsider, 401 without a token, 400 on a bad limit', async () => {
      const w = await createWorld()
      expect((await call(w.api, w.tokens.olga, 'GET', `/v1/orgs/${w.org.id}/spaces`)).status).toBe(404)
      expect((await call(w.api, undefined, 'GET', `/v1/orgs/${w.org.id}/spaces`)).status).toBe(401)
      const bad = await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}/spaces?limit=1001`)
      expect(bad.status).toBe(400)
      expect(bad.body.error.message).toContain('query parameter `limit`: must be at most 1000')
    })
  })

  describe('GET /v1/spaces/{spaceId}', () => {
    it('gets a space (shareKey accepted), hides it from those who cannot see it, shows public ones to anyone', async () => {
      const w = await createWorld()
      const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Handbook' })
      const res = await call(w.api, w.tokens.rita, 'GET', `/v1/spaces/${space.id}?shareKey=abc`)
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ id: space.id, title: 'Handbook', permissions: { view: true, admin: false } })
      const guest = await call(w.api, w.tokens.gina, 'GET', `/v1/spaces/${space.id}`)
      expect(guest.status).toBe(404)
      expect(guest.body.error).toEqual({ code: 404, message: 'Space not found' })
      expect((await call(w.api, w.tokens.olga, 'GET', `/v1/spaces/${space.id}`)).status).toBe(404)
      expect((await call(w.api, w.tokens.ada, 'GET', '/v1/spaces/missing')).status).toBe(404)
      expect((await call(w.api, undefined, 'GET', `/v1/spaces/${space.id}`)).status).toBe(401)
      const pub = await w.api.fixtures.createSpace(w.org.id, { visibility: 'public' })
      const outsider = await call(w.api, w.tokens.olga, 'GET', `/v1/spaces/${pub.id}`)
      expect(outsider.status).toBe(200)
      expect(outsider.body.permissions).toMatchObject({ view: true, comment: false, admin: false })
    })
  })

  describe('PATCH /v1/spaces/{spaceId}', () => {
    it('updates the settings, moves updatedAt only on a change, and recomputes permissions', async () => {
      const w = await createWorld()
      const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Old', emoji: '📘' })
      w.clock.advance(HOUR)
      const res = await call(w.api, w.tokens.ada, 'PATCH', `/v1/spaces/${space.id}`, {
        title: 'New',
        editMode: 'locked',
        defaultLevel: 'edit',
        language: 'de',
        mergeRules: { type: 'rules', rules: [{ rule: 'require_at_least_one_review' }] },
      })
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({
        title: 'New',
        emoji: '📘',
        editMode: 'locked',
        defaultLevel: 'edit',
        language: 'de',
        mergeRules: { type: 'rules', rules: [{ rule: 'require_at_least_one_review' }] },
        updatedAt: '2026-03-01T11:00:00.000Z',
        createdAt: '2026-03-01T10:00:00.000Z',
      })
      // The default level reaches members with a role: the reader may now edit.
      expect((await call(w.api, w.tokens.rita, 'GET', `/v1/spaces/${space.id}`)).body.permissions).toMatchObject({ edit: true, admin: false })
      w.clock.advance(HOUR)
      const same = await call(w.api, w.tokens.ada, 'PATCH', `/v1/spaces/${space.id}`, { title: 'New' })
      expect(same.body.updatedAt).toBe('2026-03-01T11:00:00.000Z')
      expect(row(w, space.id)).toMatchObject({ title: 'New', language: 'de', editMode: 'locked' })
    })

    it('treats emoji and icon as alternatives, and removes either with null', async () => {
      const w = await createWorld()
      const space = await w.api.fixtures.createSpace(w.org.id, { emoji: '📘' })
      const icon = await call(w.api, w.tokens.ada, 'PATCH', `/v1/spaces/${space.id}`, { icon: 'https://acme.test/icon.png' })
      expect(icon.body.emoji).toBe('')
      expect(icon.body.urls.icon).toBe('https://acme.test/icon.png')
      const emoji = await call(w.api, w.tokens.ada, 'PATCH', `/v1/spaces/${space.id}`, { emoji: '🎉' })
      expect(emoji.body.emoji).toBe('🎉')
      expect(emoji.body.urls.icon).toBeUndefined()
      const cleared = await call(w.api, w.tokens.ada, 'PATCH', `/v1/spaces/${space.id}`, { emoji: null, icon: null })
      expect(cleared.body.emoji).toBe('')
      expect(row(w, space.id)!.icon).toBeUndefined()
    })

    it.each([
      [{ title: 'x'.repeat(51) }, 'body field `title`: must be at most 50 characters'],
      [{ emoji: 'x'.repeat(51) }, 'body field `emoji`: must be at most 50 characters'],
      [{ icon: 'not a url' }, 'body field `icon`: must be a URL'],
      [{ emoji: '🎉', icon: 'https://acme.test/i.png' }, 'body field `icon`: give either `emoji` or `icon`, not both'],
      [{ editMode: 'open' }, 'body field `editMode`'],
      [{ defaultLevel: 'owner' }, 'body field `defaultLevel`'],
      [{ language: 'xx' }, 'body field `language`'],
      [{ mergeRules: { type: 'sometimes' } }, 'body field `mergeRules'],
      [undefined, 'body is required'],
    ])('rejects %j and changes nothing', async (body, message) => {
      const w = await createWorld()
      const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Kept' })
      const res = await call(w.api, w.tokens.ada, 'PATCH', `/v1/spaces/${space.id}`, body)
      expect(res.status).toBe(400)
      expect(res.body.error.code).toBe(400)
      expect(res.body.error.message).toContain(message)
      expect(row(w, space.id)).toMatchObject({ title: 'Kept', updatedAt: space.updatedAt })
    })

    it('needs admin on the space: 403 for a reader, 404 when hidden, 401 without a token', async () => {
      const w = await createWorld()
      const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Kept' })
      const reader = await call(w.api, w.tokens.rita, 'PATCH', `/v1/spaces/${space.id}`, { title: 'Hacked' })
      expect(reader.status).toBe(403)
      expect(reader.body.error.code).toBe(403)
      expect((await call(w.api, w.tokens.gina, 'PATCH', `/v1/spaces/${space.id}`, { title: 'Hacked' })).status).toBe(404)
      expect((await call(w.api, w.tokens.olga, 'PATCH', `/v1/spaces/${space.id}`, { title: 'Hacked' })).status).toBe(404)
      expect((await call(w.api, undefined, 'PATCH', `/v1/spaces/${space.id}`, { title: 'Hacked' })).status).toBe(401)
      await w.api.fixtures.deleteSpace(space.id)
      expect((await call(w.api, w.tokens.ada, 'PATCH', `/v1/spaces/${space.id}`, { title: 'Hacked' })).status).toBe(404)
      expect(row(w, space.id)!.title).toBe('Kept')
    })
  })

  describe('collection access flows into in-collection spaces', () => {
    it("follows the collection's default level while in-collection, and stops once the space is private", async () => {
      const w = await createWorld()
      const docs = await w.api.fixtures.createCollection(w.org.id, { title: 'Docs' })
      const space = await w.api.fixtures.createSpace(w.org.id, { parent: docs.id, title: 'Guide' })
      expect(space.visibility).toBe('in-collection')
      // A guest without a grant sees nothing of it; a reader reads it.
      expect((await call(w.api, w.tokens.gina, 'GET', `/v1/spaces/${space.id}`)).status).toBe(404)
      expect((await call(w.api, w.tokens.rita, 'PATCH', `/v1/spaces/${space.id}`, { title: 'Rita' })).status).toBe(403)

      await call(w.api, w.tokens.ada, 'PATCH', `/v1/collections/${docs.id}`, { defaultLevel: 'admin' })
      const raised = await call(w.api, w.tokens.rita, 'GET', `/v1/spaces/${space.id}`)
      expect(raised.body.permissions).toMatchObject({ view: true, edit: true, admin: true })
      expect((await call(w.api, w.tokens.rita, 'PATCH', `/v1/spaces/${space.id}`, { title: 'Rita' })).status).toBe(200)
      // The default level applies to members with a role only: the guest still sees nothing.
      expect((await call(w.api, w.tokens.gina, 'GET', `/v1/spaces/${space.id}`)).status).toBe(404)

      // Out of the collection, the in-collection space becomes private: the collection's level stops.
      const moved = await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/move`, { parent: null })
      expect(moved.body).toMatchObject({ visibility: 'private' })
      expect(moved.body.parent).toBeUndefined()
      expect((await call(w.api, w.tokens.rita, 'GET', `/v1/spaces/${space.id}`)).body.permissions).toMatchObject({ view: true, admin: false })
      expect((await call(w.api, w.tokens.rita, 'PATCH', `/v1/spaces/${space.id}`, { title: 'Again' })).status).toBe(403)
      // Moved back in, a private space stays private: the collection does not reach it.
      await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/move`, { parent: docs.id })
      expect((await call(w.api, w.tokens.rita, 'GET', `/v1/spaces/${space.id}`)).body.permissions.admin).toBe(false)
    })
  })

  describe('DELETE /v1/spaces/{spaceId}', () => {
    it('sets deletedAt, keeps counters and grants, and hides the space from get and every list', async () => {
      const w = await createWorld()
      const docs = await w.api.fixtures.createCollection(w.org.id)
      const space = await w.api.fixtures.createSpace(w.org.id, { parent: docs.id })
      await w.api.fixtures.grantSpace(space.id, { user: w.users.gina.id }, 'read')
      w.api.system((ctx) => ctx.tx.update('spaces', { ...row(w, space.id)!, comments: 3 }))
      w.clock.advance(HOUR)
      const res = await call(w.api, w.tokens.ada, 'DELETE', `/v1/spaces/${space.id}`)
      expect(res.status).toBe(204)
      expect(res.body).toBeUndefined()
      expect(row(w, space.id)).toMatchObject({ deletedAt: '2026-03-01T11:00:00.000Z', comments: 3 })
      expect(w.api.store.read((tx) => tx.count('spaceGrants', 'bySpace', space.id))).toBe(1)
      expect((await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${space.id}`)).status).toBe(404)
      expect((await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}/spaces`)).body).toEqual({ items: [], count: 0 })
      expect((await call(w.api, w.tokens.ada, 'GET', `/v1/collections/${docs.id}/spaces`)).body).toEqual({ items: [], count: 0 })
      expect((await call(w.api, w.tokens.gina, 'GET', `/v1/orgs/${w.org.id}/spaces`)).body.count).toBe(0)
      // Deleting again, or deleting what never existed, answers 204 and keeps the first deletion time.
      w.clock.advance(HOUR)
      expect((await call(w.api, w.tokens.ada, 'DELETE', `/v1/spaces/${space.id}`)).status).toBe(204)
      expect(row(w, space.id)!.deletedAt).toBe('2026-03-01T11:00:00.000Z')
      expect((await call(w.api, w.tokens.ada, 'DELETE', '/v1/spaces/missing')).status).toBe(204)
    })

    it('needs admin: 403 for a reader; 204 without effect for a caller who cannot see it; 401', async () => {
      const w = await createWorld()
      const space = await w.api.fixtures.createSpace(w.org.id)
      const reader = await call(w.api, w.tokens.rita, 'DELETE', `/v1/spaces/${space.id}`)
      expect(reader.status).toBe(403)
      expect(reader.body.error.code).toBe(403)
      expect((await call(w.api, w.tokens.olga, 'DELETE', `/v1/spaces/${space.id}`)).status).toBe(204)
      expect((await call(w.api, w.tokens.gina, 'DELETE', `/v1/spaces/${space.id}`)).status).toBe(204)
      expect((await call(w.api, undefined, 'DELETE', `/v1/spaces/${space.id}`)).status).toBe(401)
      expect(row(w, space.id)!.deletedAt).toBeUndefined()
    })
    it('needs admin, not edit: 403 for an org editor and for a user with an edit grant, and the space stays live', async () => {
      const w = await createWorld()
      const editor = await addEditor(w)
      const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Kept' })
      await w.api.fixtures.grantSpace(space.id, { user: w.users.gina.id }, 'edit')
      const before = row(w, space.id)
      // Both can see the space and edit it: only the admin level is missing.
      expect((await call(w.api, editor, 'GET', `/v1/spaces/${space.id}`)).body.permissions).toMatchObject({ view: true, edit: true, admin: false })
      expect((await call(w.api, w.tokens.gina, 'GET', `/v1/spaces/${space.id}`)).body.permissions).toMatchObject({ view: true, edit: true, admin: false })
      w.clock.advance(HOUR)
      for (const token of [editor, w.tokens.gina]) {
        const res = await call(w.api, token, 'DELETE', `/v1/spaces/${space.id}`)
        expect(res.status).toBe(403)
        expect(res.body.error).toEqual({ code: 403, message: 'You need the admin role on this space to do this' })
        expect(row(w, space.id)).toEqual(before)
      }
      expect(row(w, space.id)!.deletedAt).toBeUndefined()
      expect((await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}/spaces`)).body.count).toBe(1)
    })
  })

  describe('POST /v1/spaces/{spaceId}/restore', () => {
    it('restores within 7 days, back to its place in the lists', async () => {
      const w = await createWorld()
      const a = await w.api.fixtures.createSpace(w.org.id, { title: 'A' })
      await w.api.fixtures.createSpace(w.org.id, { title: 'B' })
      await w.api.fixtures.deleteSpace(a.id)
      w.clock.advance(6 * DAY + 23 * HOUR)
      const res = await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${a.id}/restore`)
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ id: a.id, title: 'A', updatedAt: '2026-03-08T09:00:00.000Z' })
      expect(res.body.deletedAt).toBeUndefined()
      expect(row(w, a.id)!.deletedAt).toBeUndefined()
      expect(titles(await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}/spaces`))).toEqual(['A', 'B'])
      // Restoring a live space is idempotent: it comes back unchanged.
      w.clock.advance(HOUR)
      const again = await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${a.id}/restore`)
      expect(again.status).toBe(200)
      expect(again.body.updatedAt).toBe('2026-03-08T09:00:00.000Z')
    })

    it('restores up to exactly 7 days; past that the space is gone (404) and purged at once', async () => {
      const w = await createWorld()
      const edge = await w.api.fixtures.createSpace(w.org.id, { title: 'Edge' })
      const late = await w.api.fixtures.createSpace(w.org.id, { title: 'Late' })
      await w.api.fixtures.grantSpace(late.id, { user: w.users.gina.id }, 'read')
      await w.api.fixtures.deleteSpace(edge.id)
      await w.api.fixtures.deleteSpace(late.id)
      w.clock.advance(7 * DAY)
      expect((await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${edge.id}/restore`)).status).toBe(200)
      w.clock.advance(1)
      const res = await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${late.id}/restore`)
      expect(res.status).toBe(404)
      expect(res.body.error).toEqual({ code: 404, message: 'Space not found' })
      // The 404 keeps its one write: the expired row and its grants leave the store right away.
      expect(row(w, late.id)).toBeUndefined()
      expect((await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${late.id}`)).status).toBe(404)
      expect((await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${late.id}/restore`)).status).toBe(404)
      expect(w.api.store.read((tx) => tx.count('spaceGrants', 'bySpace', late.id))).toBe(0)
      expect(w.api.store.read((tx) => tx.count('spaces', 'deleted', w.org.id))).toBe(0)
      expect(row(w, edge.id)).toBeDefined()
    })

    it('purges expired spaces when another space of the organization is deleted', async () => {
      const w = await createWorld()
      const old = await w.api.fixtures.createSpace(w.org.id)
      const other = await w.api.fixtures.createSpace(w.org.id)
      await w.api.fixtures.deleteSpace(old.id)
      w.clock.advance(8 * DAY)
      expect((await call(w.api, w.tokens.ada, 'DELETE', `/v1/spaces/${other.id}`)).status).toBe(204)
      expect(row(w, old.id)).toBeUndefined()
      expect(row(w, other.id)!.deletedAt).toBe('2026-03-09T10:00:00.000Z')
    })

    it('restores to the root as private when its collection was deleted meanwhile', async () => {
      const w = await createWorld()
      const docs = await w.api.fixtures.createCollection(w.org.id)
      const space = await w.api.fixtures.createSpace(w.org.id, { parent: docs.id })
      await w.api.fixtures.deleteSpace(space.id)
      expect((await call(w.api, w.tokens.ada, 'DELETE', `/v1/collections/${docs.id}`)).status).toBe(204)
      const res = await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/restore`)
      expect(res.status).toBe(200)
      expect(res.body.parent).toBeUndefined()
      expect(res.body.visibility).toBe('private')
    })

    it('needs admin: a trashed space is hidden from everyone else (404, as its GET), 404 for a missing space, 401', async () => {
      const w = await createWorld()
      const space = await w.api.fixtures.createSpace(w.org.id)
      await w.api.fixtures.deleteSpace(space.id)
      expect((await call(w.api, w.tokens.rita, 'POST', `/v1/spaces/${space.id}/restore`)).body.error).toEqual({ code: 404, message: 'Space not found' })
      // Every operation on it, not only GET: its grants too.
      expect((await call(w.api, w.tokens.rita, 'GET', `/v1/spaces/${space.id}/permissions/users`)).status).toBe(404)
      expect((await call(w.api, w.tokens.rita, 'PATCH', `/v1/spaces/${space.id}/permissions/users/${w.users.rita.id}`, { role: 'read' })).status).toBe(404)
      expect((await call(w.api, w.tokens.olga, 'POST', `/v1/spaces/${space.id}/restore`)).status).toBe(404)
      expect((await call(w.api, w.tokens.ada, 'POST', '/v1/spaces/missing/restore')).status).toBe(404)
      expect((await call(w.api, undefined, 'POST', `/v1/spaces/${space.id}/restore`)).status).toBe(401)
      expect(row(w, space.id)!.deletedAt).toBeDefined()
    })
    it("needs admin, not edit: 404 for an org editor and for a user with an edit grant (the trash is the admins'), and the space stays deleted", async () => {
      const w = await createWorld()
      const editor = await addEditor(w)
      const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Trashed' })
      await w.api.fixtures.grantSpace(space.id, { user: w.users.gina.id }, 'edit')
      await w.api.fixtures.deleteSpace(space.id)
      const before = row(w, space.id)
      expect(before!.deletedAt).toBe('2026-03-01T10:00:00.000Z')
      w.clock.advance(HOUR)
      for (const token of [editor, w.tokens.gina]) {
        const res = await call(w.api, token, 'POST', `/v1/spaces/${space.id}/restore`)
        expect(res.body.error).toEqual({ code: 404, message: 'Space not found' })
        expect(row(w, space.id)).toEqual(before)
      }
      expect((await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}/spaces`)).body.count).toBe(0)
      // The admin still can.
      expect((await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/restore`)).status).toBe(200)
    })

    it('restores to the END of the root when its collection is gone, after root spaces created later', async () => {
      const w = await createWorld()
      const docs = await w.api.fixtures.createCollection(w.org.id)
      const orphan = await w.api.fixtures.createSpace(w.org.id, { parent: docs.id, title: 'Orphan' })
      // Created after the orphan: a larger position than the one the orphan had.
      const later = await w.api.fixtures.createSpace(w.org.id, { title: 'Later' })
      await w.api.fixtures.deleteSpace(orphan.id)
      expect((await call(w.api, w.tokens.ada, 'DELETE', `/v1/collections/${docs.id}`)).status).toBe(204)
      const res = await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${orphan.id}/restore`)
      expect(res.status).toBe(200)
      expect(res.body.parent).toBeUndefined()
      const rootOrder = w.api.store.read((tx) => tx.scan('spaces', 'byParent', rootKey(w.org.id)).map((e) => e.row.id))
      expect(rootOrder).toEqual([later.id, orphan.id])
      // Already last at the root: moving it to the end of the root changes nothing.
      const move = await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${orphan.id}/move`, { parent: null })
      expect(move.status).toBe(409)
      expect(move.body.error.code).toBe(409)
    })
  })

  describe('POST /v1/spaces/{spaceId}/duplicate', () => {
    it('copies settings and grants right after the original, with a new id and revision and counters at 0', async () => {
      const w = await createWorld()
      const docs = await w.api.fixtures.createCollection(w.org.id)
      const original = await w.api.fixtures.createSpace(w.org.id, { parent: docs.id, title: 'Guide', emoji: '📘', language: 'fr', editMode: 'locked' })
      const after = await w.api.fixtures.createSpace(w.org.id, { parent: docs.id, title: 'After' })
      await call(w.api, w.tokens.ada, 'PATCH', `/v1/spaces/${original.id}`, { defaultLevel: 'comment', mergeRules: { type: 'none' } })
      await w.api.fixtures.grantSpace(original.id, { user: w.users.gina.id }, 'edit')
      w.api.system((ctx) => ctx.tx.update('spaces', { ...row(w, original.id)!, comments: 4, changeRequests: 3, changeRequestsOpen: 2, changeRequestsDraft: 1 }))
      w.clock.advance(HOUR)
      const res = await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${original.id}/duplicate`)
      expect(res.status).toBe(201)
      expect(res.body).toMatchObject({
        title: 'Guide (copy)',
        emoji: '📘',
        language: 'fr',
        editMode: 'locked',
        visibility: 'in-collection',
        defaultLevel: 'comment',
        mergeRules: { type: 'none' },
        organization: w.org.id,
        parent: docs.id,
        comments: 0,
        changeRequests: 0,
        changeRequestsOpen: 0,
        changeRequestsDraft: 0,
        createdAt: '2026-03-01T11:00:00.000Z',
      })
      expect(res.body.id).not.toBe(original.id)
      expect(res.body.revision).not.toBe(original.revision)
      expect(row(w, original.id)).toMatchObject({ comments: 4, changeRequests: 3 })
      const list = await call(w.api, w.tokens.ada, 'GET', `/v1/collections/${docs.id}/spaces`)
      expect(list.body.items.map((s: any) => s.id)).toEqual([original.id, res.body.id, after.id])
      // The grant came along: the guest can edit the copy.
      expect((await call(w.api, w.tokens.gina, 'GET', `/v1/spaces/${res.body.id}`)).body.permissions.edit).toBe(true)
    })

    it('keeps the title within 50 characters', async () => {
      const w = await createWorld()
      const space = await w.api.fixtures.createSpace(w.org.id, { title: 'x'.repeat(50) })
      const res = await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/duplicate`)
      expect(res.body.title).toBe(`${'x'.repeat(43)} (copy)`)
      expect(res.body.title).toHaveLength(50)
    })

    it('needs admin on the space and the right to create beside it', async () => {
      const w = await createWorld()
      const space = await w.api.fixtures.createSpace(w.org.id)
      // Admin through a grant is not enough: the copy lands at the root, which needs createContent.
      await w.api.fixtures.grantSpace(space.id, { user: w.users.rita.id }, 'admin')
      const res = await call(w.api, w.tokens.rita, 'POST', `/v1/spaces/${space.id}/duplicate`)
      expect(res.status).toBe(403)
      expect(res.body.error.message).toContain('createContent')
      const other = await w.api.fixtures.createSpace(w.org.id)
      expect((await call(w.api, w.tokens.rita, 'POST', `/v1/spaces/${other.id}/duplicate`)).status).toBe(403)
      expect((await call(w.api, w.tokens.olga, 'POST', `/v1/spaces/${space.id}/duplicate`)).status).toBe(404)
      expect((await call(w.api, undefined, 'POST', `/v1/spaces/${space.id}/duplicate`)).status).toBe(401)
      expect(w.api.store.read((tx) => tx.count('spaces', 'byOrganization', w.org.id))).toBe(2)
    })
  })

  describe('POST /v1/spaces/{spaceId}/move', () => {
    const order = async (w: World, collection: string) => titles(await call(w.api, w.tokens.ada, 'GET', `/v1/collections/${collection}/spaces`))

    it('moves into a collection at the end, then before and after siblings', async () => {
      const w = await createWorld()
      const docs = await w.api.fixtures.createCollection(w.org.id)
      const a = await w.api.fixtures.createSpace(w.org.id, { parent: docs.id, title: 'A' })
      const b = await w.api.fixtures.createSpace(w.org.id, { parent: docs.id, title: 'B' })
      const c = await w.api.fixtures.createSpace(w.org.id, { title: 'C' })
      w.clock.advance(HOUR)
      const res = await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${c.id}/move`, { parent: docs.id })
      expect(res.status).toBe(200)
      // A private space stays private in a collection: only in-collection spaces follow one.
      expect(res.body).toMatchObject({ parent: docs.id, visibility: 'private', updatedAt: '2026-03-01T11:00:00.000Z' })
      expect(await order(w, docs.id)).toEqual(['A', 'B', 'C'])
      await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${c.id}/move`, { position: { before: { type: 'space', space: a.id } } })
      expect(await order(w, docs.id)).toEqual(['C', 'A', 'B'])
      await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${c.id}/move`, { position: { after: { type: 'space', space: a.id } } })
      expect(await order(w, docs.id)).toEqual(['A', 'C', 'B'])
      await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${a.id}/move`, { parent: docs.id, position: { after: { type: 'space', space: b.id } } })
      expect(await order(w, docs.id)).toEqual(['C', 'B', 'A'])
      const root = await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${b.id}/move`, { parent: null })
      expect(root.body.parent).toBeUndefined()
      expect(root.body.visibility).toBe('private')
      expect(await order(w, docs.id)).toEqual(['C', 'A'])
    })

    it('keeps the order right when the same gap is split again and again (renumbering)', async () => {
      const w = await createWorld()
      const docs = await w.api.fixtures.createCollection(w.org.id)
      const first = await w.api.fixtures.createSpace(w.org.id, { parent: docs.id, title: 'first' })
      await w.api.fixtures.createSpace(w.org.id, { parent: docs.id, title: 'last' })
      const expected = ['first']
      for (let i = 0; i < 40; i++) {
        const s = await w.api.fixtures.createSpace(w.org.id, { parent: docs.id, title: `s${i}` })
        // Each new space goes right after `first`, halving the gap between `first` and the previous one.
        const res = await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${s.id}/move`, { position: { after: { type: 'space', space: first.id } } })
        expect(res.status).toBe(200)
        expected.splice(1, 0, `s${i}`)
      }
      expected.push('last')
      const res = await call(w.api, w.tokens.ada, 'GET', `/v1/collections/${docs.id}/spaces?limit=1000`)
      expect(titles(res)).toEqual(expected)
      const positions = res.body.items.map((s: any) => row(w, s.id)!.position)
      expect(new Set(positions).size).toBe(positions.length)
    })

    it.each([
      [{}, 'body: give `parent` or `position` (or both)'],
      [{ parent: '' }, 'body field `parent`: must not be empty'],
      [{ parent: 'nope' }, 'body field `parent`: no collection nope in this organization'],
      [{ position: { before: { type: 'collection', collection: 'x' } } }, 'body field `position.before.type`'],
      [
        { position: { before: { type: 'space', space: 'a' }, after: { type: 'space', space: 'b' } } },
        'body field `position`: give either `before` or `after`, not both',
      ],
      [{ position: { before: { type: 'space', space: 'ghost' } } }, 'body field `position.before.space`: space ghost is not in the target parent'],
    ])('rejects %j', async (body, message) => {
      const w = await createWorld()
      const space = await w.api.fixtures.createSpace(w.org.id)
      const before = row(w, space.id)
      const res = await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/move`, body)
      expect(res.status).toBe(400)
      expect(res.body.error.code).toBe(400)
      expect(res.body.error.message).toContain(message)
      expect(row(w, space.id)).toBe(before)
    })

    it('answers 400 for a sibling outside the target parent or itself, and 409 for a move that changes nothing', async () => {
      const w = await createWorld()
      const docs = await w.api.fixtures.createCollection(w.org.id)
      const a = await w.api.fixtures.createSpace(w.org.id, { title: 'A' })
      const b = await w.api.fixtures.createSpace(w.org.id, { title: 'B' })
      const inDocs = await w.api.fixtures.createSpace(w.org.id, { parent: docs.id })
      const outside = await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${a.id}/move`, {
        parent: docs.id,
        position: { before: { type: 'space', space: b.id } },
      })
      expect(outside.status).toBe(400)
      expect(outside.body.error.message).toContain(`space ${b.id} is not in the target parent`)
      const self = await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${a.id}/move`, { position: { after: { type: 'space', space: a.id } } })
      expect(self.status).toBe(400)
      expect(self.body.error.message).toContain('relative to itself')
      const noop = await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${a.id}/move`, { position: { before: { type: 'space', space: b.id } } })
      expect(noop.status).toBe(409)
      expect(noop.body.error.code).toBe(409)
      expect((await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${inDocs.id}/move`, { parent: docs.id })).status).toBe(409)
      expect(row(w, a.id)!.parent).toBeUndefined()
    })

    it('needs admin on the space (403/404/401) and create on a new parent', async () => {
      const w = await createWorld()
      const docs = await w.api.fixtures.createCollection(w.org.id)
      const space = await w.api.fixtures.createSpace(w.org.id)
      expect((await call(w.api, w.tokens.rita, 'POST', `/v1/spaces/${space.id}/move`, { parent: docs.id })).status).toBe(403)
      expect((await call(w.api, w.tokens.olga, 'POST', `/v1/spaces/${space.id}/move`, { parent: docs.id })).status).toBe(404)
      expect((await call(w.api, undefined, 'POST', `/v1/spaces/${space.id}/move`, { parent: docs.id })).status).toBe(401)
      // Admin on the space through a grant, but only a reader of the collection.
      await w.api.fixtures.grantSpace(space.id, { user: w.users.rita.id }, 'admin')
      const res = await call(w.api, w.tokens.rita, 'POST', `/v1/spaces/${space.id}/move`, { parent: docs.id })
      expect(res.status).toBe(403)
      expect(res.body.error.message).toContain('create')
      expect(row(w, space.id)!.parent).toBeUndefined()
    })
  })

  describe('POST /v1/spaces/{spaceId}/transfer', () => {
    it('transfers to another organization: at the end of its root, grants dropped, in-collection made private', async () => {
      const w = await createWorld()
      const beta = await createBeta(w)
      const betaFirst = await w.api.fixtures.createSpace(beta.id, { title: 'Beta first' })
      const docs = await w.api.fixtures.createCollection(w.org.id)
      const space = await w.api.fixtures.createSpace(w.org.id, { parent: docs.id, title: 'Moving' })
      await w.api.fixtures.grantSpace(space.id, { user: w.users.gina.id }, 'edit')
      const res = await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/transfer`, { organization: beta.id })
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ id: space.id, organization: beta.id, visibility: 'private' })
      expect(res.body.parent).toBeUndefined()
      expect(w.api.store.read((tx) => tx.count('spaceGrants', 'bySpace', space.id))).toBe(0)
      expect((await call(w.api, w.tokens.gina, 'GET', `/v1/spaces/${space.id}`)).status).toBe(404)
      expect((await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}/spaces`)).body.count).toBe(0)
      const betaList = await call(w.api, w.tokens.rita, 'GET', `/v1/orgs/${beta.id}/spaces`)
      expect(betaList.body.items.map((s: any) => s.id)).toEqual([betaFirst.id, space.id])
    })

    it('transfers into a collection of the target, or to another collection of the same organization keeping grants', async () => {
      const w = await createWorld()
      const beta = await createBeta(w)
      const betaDocs = await w.api.fixtures.createCollection(beta.id)
      const docs = await w.api.fixtures.createCollection(w.org.id)
      const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Moving' })
      await w.api.fixtures.grantSpace(space.id, { user: w.users.gina.id }, 'edit')
      const local = await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/transfer`, { organization: w.org.id, parent: docs.id })
      expect(local.status).toBe(200)
      expect(local.body).toMatchObject({ organization: w.org.id, parent: docs.id })
      expect(w.api.store.read((tx) => tx.count('spaceGrants', 'bySpace', space.id))).toBe(1)
      const wrong = await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/transfer`, { organization: beta.id, parent: docs.id })
      expect(wrong.status).toBe(400)
      expect(wrong.body.error.message).toContain(`body field \`parent\`: no collection ${docs.id} in this organization`)
      const far = await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/transfer`, { organization: beta.id, parent: betaDocs.id })
      expect(far.body).toMatchObject({ organization: beta.id, parent: betaDocs.id })
      const inBeta = await call(w.api, w.tokens.ada, 'GET', `/v1/collections/${betaDocs.id}/spaces`)
      expect(inBeta.body.items.map((s: any) => s.id)).toEqual([space.id])
    })

    it('bumps updatedAt and lands last in a target collection that already holds a space', async () => {
      const w = await createWorld()
      const beta = await createBeta(w)
      const docs = await w.api.fixtures.createCollection(w.org.id)
      const betaDocs = await w.api.fixtures.createCollection(beta.id)
      const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Moving' })
      // Created after the moving space: positions larger than the one it has.
      await w.api.fixtures.createSpace(w.org.id, { parent: docs.id, title: 'There' })
      await w.api.fixtures.createSpace(beta.id, { parent: betaDocs.id, title: 'Beta there' })
      w.clock.advance(HOUR)
      const local = await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/transfer`, { organization: w.org.id, parent: docs.id })
      expect(local.status).toBe(200)
      expect(local.body).toMatchObject({ parent: docs.id, createdAt: '2026-03-01T10:00:00.000Z', updatedAt: '2026-03-01T11:00:00.000Z' })
      expect(row(w, space.id)!.updatedAt).toBe('2026-03-01T11:00:00.000Z')
      expect(titles(await call(w.api, w.tokens.ada, 'GET', `/v1/collections/${docs.id}/spaces`))).toEqual(['There', 'Moving'])
      w.clock.advance(HOUR)
      const far = await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/transfer`, { organization: beta.id, parent: betaDocs.id })
      expect(far.status).toBe(200)
      expect(far.body).toMatchObject({ organization: beta.id, parent: betaDocs.id, updatedAt: '2026-03-01T12:00:00.000Z' })
      expect(titles(await call(w.api, w.tokens.ada, 'GET', `/v1/collections/${betaDocs.id}/spaces`))).toEqual(['Beta there', 'Moving'])
    })

    it('answers 409 when nothing would change, 400 on a bad body', async () => {
      const w = await createWorld()
      const space = await w.api.fixtures.createSpace(w.org.id)
      const same = await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/transfer`, { organization: w.org.id })
      expect(same.status).toBe(409)
      const missing = await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/transfer`, {})
      expect(missing.status).toBe(400)
      expect(missing.body.error.message).toContain('body field `organization`: is required')
      const empty = await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/transfer`, { organization: '' })
      expect(empty.body.error.message).toContain('body field `organization`: must not be empty')
    })

    it('needs admin on the space and createContent on the target organization', async () => {
      const w = await createWorld()
      const space = await w.api.fixtures.createSpace(w.org.id)
      const readerThere = await w.api.fixtures.createOrganization({
        title: 'Gamma',
        members: [{ user: w.users.ada.id, role: 'read' }],
      })
      const stranger = await w.api.fixtures.createOrganization({ title: 'Delta', members: [{ user: w.users.olga.id, role: 'admin' }] })
      const forbidden = await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/transfer`, { organization: readerThere.id })
      expect(forbidden.status).toBe(403)
      expect((await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/transfer`, { organization: stranger.id })).status).toBe(404)
      expect((await call(w.api, w.tokens.rita, 'POST', `/v1/spaces/${space.id}/transfer`, { organization: readerThere.id })).status).toBe(403)
      expect((await call(w.api, w.tokens.olga, 'POST', `/v1/spaces/${space.id}/transfer`, { organization: stranger.id })).status).toBe(404)
      expect((await call(w.api, undefined, 'POST', `/v1/spaces/${space.id}/transfer`, { organization: stranger.id })).status).toBe(401)
      expect(row(w, space.id)!.organization).toBe(w.org.id)
    })
  })
})
