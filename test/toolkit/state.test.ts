import { createMemoryBlobs } from '../../src/storage/blobs.js'
import { describe, expect, it } from 'vitest'
import { seedRules } from '../../src/domains/index.js'
import { createDocsApi, schema, STATE_FORMAT, type DocsApi } from '../../src/index.js'
import { createClock, sequentialIds } from '../../src/testing.js'
import { BASE, call, createWorld } from '../helpers.js'
import { richWorld } from './rich-world.js'

/** Answers an API gives to a set of reads: a loaded copy must give the same. */
async function reads(api: DocsApi, token: string, w: Awaited<ReturnType<typeof richWorld>>) {
  const base = `/v1/orgs/${w.org.id}/sites/${w.site.id}`
  const paths = [
    `/v1/orgs/${w.org.id}`,
    `/v1/orgs/${w.org.id}/members`,
    `/v1/orgs/${w.org.id}/teams`,
    `/v1/orgs/${w.org.id}/collections`,
    `/v1/orgs/${w.org.id}/spaces`,
    `/v1/collections/${w.collections.guides.id}/spaces`,
    `/v1/spaces/${w.spaces.b.id}/permissions/users`,
    `/v1/spaces/${w.spaces.b.id}/permissions/teams`,
    `/v1/collections/${w.collections.guides.id}/permissions/users`,
    `/v1/collections/${w.collections.guides.id}/permissions/teams`,
    `/v1/orgs/${w.org.id}/sites`,
    `${base}/sections`,
    `${base}/section-groups`,
    `${base}/site-spaces`,
    `${base}/permissions/users`,
    `${base}/permissions/teams`,
    `${base}/share-links`,
    `${base}/redirects`,
    `${base}/redirects?draft=true`,
    `${base}/redirect?source=/old/page`,
    `${base}/published`,
    `${base}/structure`,
    `/v1/spaces/${w.spaces.a.id}/content`,
    `${base}/customization`,
    `${base}/publishing/auth`,
    ...w.siteSpaceIds.map((id) => `${base}/site-spaces/${id}/customization`),
    `${base}/adaptive-schema/template-conditions`,
    `${base}/insights/visitor-segments`,
    `/v1/spaces/${w.spaces.a.id}/content`,
    `/v1/spaces/${w.spaces.a.id}/links`,
    `/v1/spaces/${w.spaces.a.id}/change-requests?status=merged`,
    `/v1/spaces/${w.spaces.a.id}/change-requests/1/reviews`,
    `/v1/spaces/${w.spaces.a.id}/change-requests/1/requested-reviewers`,
    `/v1/spaces/${w.spaces.a.id}/comments`,
    `/v1/spaces/${w.spaces.a.id}/comments?format=document`,
    `/v1/spaces/${w.spaces.a.id}/change-requests/2/comments?format=markdown`,
    `/v1/spaces/${w.spaces.a.id}/change-requests/2`,
    `/v1/spaces/${w.spaces.a.id}/commenters`,
    `/v1/spaces/${w.spaces.a.id}`,
    `/v1/orgs/${w.org.id}/saml`,
    `/v1/orgs/${w.org.id}/sso`,
    `/v1/orgs/${w.org.id}/openapi`,
    `/v1/orgs/${w.org.id}/openapi/petstore/versions`,
    `/v1/orgs/${w.org.id}/openapi/petstore/versions/latest/content`,
    '/v1/integrations/acme-app',
    '/v1/integrations/acme-app/installations',
    '/v1/integrations/acme-app/spaces?extended=true',
    '/v1/integrations/acme-app/sites',
    '/v1/integrations/acme-app/events',
    `/v1/orgs/${w.org.id}/translations`,
    `/v1/orgs/${w.org.id}/conversations`,
    `/v1/orgs/${w.org.id}/conversations/c1`,
    `/v1/orgs/${w.org.id}/conversations-clusters`,
    `/v1/orgs/${w.org.id}/conversations-issues`,
    `/v1/spaces/${w.spaces.a.id}/git/info`,
  ]
  const out: Record<string, unknown> = {}
  for (const path of paths) out[path] = (await call(api, token, 'GET', path)).body
  return out
}

describe('toolkit: api.dump() and loading a state document', () => {
  it('every collection of the storage schema has exactly one seed rule', () => {
    expect(seedRules.map((r) => r.collection).sort()).toEqual(Object.keys(schema).sort())
  })

  it('round-trips: a loaded dump dumps the same, and answers every read the same', async () => {
    const w = await richWorld()
    const doc = w.api.dump()
    expect(doc.format).toBe(STATE_FORMAT)
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc)
    for (const name of Object.keys(schema)) expect((doc as any)[name].length, name).toBeGreaterThan(0)
    const copy = createDocsApi({
      baseUrl: BASE,
      seed: JSON.parse(JSON.stringify(doc)),
      now: createClock('2026-03-01T10:01:00.000Z').now,
      ids: sequentialIds('new'),
    })
    expect(copy.dump()).toEqual(doc)
    // File bytes travel in `blobs`: the copy serves the same file at the same URL.
    expect(doc.blobs).toEqual([{ key: doc.files![0]!.blob, contentType: 'image/png', base64: expect.any(String) }])
    const file = (await call(copy, w.tokens.ada, 'GET', `/v1/spaces/${w.spaces.a.id}/content/files`)).body.items[0]
    const [original, loaded] = await Promise.all([w.api, copy].map(async (api) => new Uint8Array(await (await api.fetch(file.downloadURL)).arrayBuffer())))
    expect(loaded!.byteLength).toBe(70)
    expect(loaded).toEqual(original)
    expect(await reads(copy, w.tokens.ada, w)).toEqual(await reads(w.api, w.tokens.ada, w))
    expect(await reads(copy, w.tokens.rita, w)).toEqual(await reads(w.api, w.tokens.rita, w))
    // The copy goes on from there: a new space lands after the others (the position sequence followed).
    const created = await call(copy, w.tokens.ada, 'POST', `/v1/orgs/${w.org.id}/spaces`, { title: 'Delta' })
    expect(created.status).toBe(201)
    const root = (await call(copy, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}/spaces`)).body.items.map((s: any) => s.title)
    expect(root.at(-1)).toBe('Delta')
  })

  it('dump() hands out copies: editing the document changes nothing stored', async () => {
    const w = await createWorld()
    const doc = w.api.dump()
    doc.organizations![0]!.title = 'Changed'
    expect(w.api.store.read((tx) => tx.get('organizations', w.org.id))!.title).toBe('Acme')
  })

  it('a hand-written document gets the defaults the domain would write', async () => {
    const api = createDocsApi({
      baseUrl: BASE,
      now: createClock('2026-05-01T00:00:00.000Z').now,
      ids: sequentialIds('gen'),
      seed: {
        users: [{ id: 'ada', displayName: 'Ada', email: 'ada@acme.test' }],
        tokens: [{ id: 'gb_api_ada_token', user: 'ada' }],
        organizations: [{ id: 'acme', title: 'Acme' }],
        members: [{ organization: 'acme', user: 'ada', role: 'admin' }],
        collections: [{ id: 'guides', organization: 'acme', title: 'Guides' }],
        spaces: [
          { id: 'intro', organization: 'acme', parent: 'guides', title: 'Intro' },
          { id: 'handbook', organization: 'acme' },
        ],
        sites: [{ id: 'docs', organization: 'acme' }],
        siteSpaces: [{ id: 'ss1', site: 'docs', space: 'intro', path: 'intro', default: true }],
      },
    })
    const res = await call(api, 'gb_api_ada_token', 'GET', '/v1/orgs/acme/spaces')
    expect(res.body.items.map((s: any) => [s.id, s.title, s.visibility, s.createdAt])).toEqual([
      ['intro', 'Intro', 'in-collection', '2026-05-01T00:00:00.000Z'],
      ['handbook', 'Untitled', 'private', '2026-05-01T00:00:00.000Z'],
    ])
    expect(api.store.read((tx) => tx.get('members', 'acme/ada'))).toMatchObject({ role: 'admin', disabled: false })
    const site = await call(api, 'gb_api_ada_token', 'GET', '/v1/orgs/acme/sites/docs')
    expect(site.body).toMatchObject({ title: 'Untitled site', type: 'basic', visibility: 'public', published: false, siteSpaces: 1 })
    // New rows go after the loaded ones.
    const more = await call(api, 'gb_api_ada_token', 'POST', '/v1/orgs/acme/spaces', { title: 'More' })
    expect(more.body.id).toMatch(/^gen/)
  })

  it('recounts the comment counters from the loaded comments, whatever the document said', async () => {
    const api = createDocsApi({
      baseUrl: BASE,
      seed: {
        users: [{ id: 'ada', displayName: 'Ada' }],
        tokens: [{ id: 'gb_api_ada_token', user: 'ada' }],
        organizations: [{ id: 'acme', title: 'Acme' }],
        members: [{ organization: 'acme', user: 'ada', role: 'admin' }],
        spaces: [
          { id: 'handbook', organization: 'acme', comments: 7, revision: 'r0' },
          { id: 'empty', organization: 'acme', comments: 3 },
        ],
        changeRequests: [{ id: 'cr1', space: 'handbook', number: 1, createdBy: 'ada', revision: 'r0', revisionInitial: 'r0', comments: 5 }],
        comments: [
          { id: 'c1', space: 'handbook', postedBy: 'ada', body: { markdown: 'Open' } },
          { id: 'c2', space: 'handbook', postedBy: 'ada', body: { markdown: 'Done' }, status: 'resolved', resolvedBy: 'ada' },
          { id: 'c3', space: 'handbook', changeRequest: 'cr1', postedBy: 'ada', body: { markdown: 'In the change request' } },
        ],
        commentReplies: [{ id: 'r1', comment: 'c3', postedBy: 'ada', body: { markdown: 'Reply' } }],
      },
    })
    const get = (path: string) => call(api, 'gb_api_ada_token', 'GET', path).then((r) => r.body)
    expect((await get('/v1/spaces/handbook')).comments).toBe(1)
    expect((await get('/v1/spaces/empty')).comments).toBe(0)
    expect((await get('/v1/spaces/handbook/change-requests/cr1')).comments).toBe(1)
    // Defaults: the thread's revision, the resolution time, the reply's space and change request.
    const c2 = await get('/v1/spaces/handbook/comments/c2')
    expect(c2).toMatchObject({ status: 'resolved', resolvedBy: { id: 'ada' }, target: { space: 'handbook', revision: 'r0' } })
    expect(c2.resolvedAt).toBe(c2.postedAt)
    expect(api.store.read((tx) => tx.get('commentReplies', 'r1'))).toMatchObject({ space: 'handbook', changeRequest: 'cr1' })
  })

  it.each<[string, Record<string, unknown>, string]>([
    ['an unknown collection', { widgets: [] }, '`widgets`: unknown collection'],
    ['another format', { format: 'other' }, '`format`: must be "docs-content-api/state"'],
    ['a newer version', { version: 2 }, '`version`: must be 1'],
    ['an unknown key', { users: [{ id: 'u', displayName: 'U', admin: true }] }, '`users[0]`: unknown key(s) admin'],
    ['a bad field', { users: [{ id: 'u', displayName: '' }] }, '`users[0].displayName`: must not be empty'],
    ['an id with a space', { users: [{ id: 'a b', displayName: 'U' }] }, '`users[0].id`: must be 1..200 printable ASCII characters'],
    [
      'a taken id',
      {
        users: [
          { id: 'u', displayName: 'U' },
          { id: 'u', displayName: 'V' },
        ],
      },
      '`users[1].id`: "u" is taken',
    ],
    ['a token of nobody', { tokens: [{ id: 'gb_api_xxxxxxxx', user: 'ghost' }] }, '`tokens[0].user`: no user "ghost"'],
    [
      'a member of nothing',
      { users: [{ id: 'u', displayName: 'U' }], members: [{ organization: 'o', user: 'u' }] },
      '`members[0].organization`: no organization "o"',
    ],
    [
      'a member id that is not organization/user',
      { users: [{ id: 'u', displayName: 'U' }], organizations: [{ id: 'o', title: 'Org' }], members: [{ id: 'x', organization: 'o', user: 'u' }] },
      '`members[0].id`: must be "o/u"',
    ],
    [
      'a space in a collection of another organization',
      {
        organizations: [
          { id: 'o', title: 'Org' },
          { id: 'p', title: 'Other' },
        ],
        collections: [{ id: 'c', organization: 'p' }],
        spaces: [{ id: 's', organization: 'o', parent: 'c' }],
      },
      '`spaces[0].parent`: no collection "c" in organization "o"',
    ],
    [
      'collections in a loop',
      {
        organizations: [{ id: 'o', title: 'Org' }],
        collections: [
          { id: 'a', organization: 'o', parent: 'b' },
          { id: 'b', organization: 'o', parent: 'a' },
        ],
      },
      'collections cannot contain themselves',
    ],
    [
      'an in-collection space at the root',
      { organizations: [{ id: 'o', title: 'Org' }], spaces: [{ id: 's', organization: 'o', visibility: 'in-collection' }] },
      '`spaces[0].visibility`: `in-collection` is only for spaces in a collection',
    ],
    [
      'a comment by nobody',
      {
        organizations: [{ id: 'o', title: 'Org' }],
        spaces: [{ id: 's', organization: 'o' }],
        comments: [{ id: 'c', space: 's', postedBy: 'ghost', body: { markdown: 'Hi' } }],
      },
      '`comments[0].postedBy`: no user "ghost"',
    ],
    [
      'an empty comment',
      {
        users: [{ id: 'u', displayName: 'U' }],
        organizations: [{ id: 'o', title: 'Org' }],
        spaces: [{ id: 's', organization: 'o' }],
        comments: [{ id: 'c', space: 's', postedBy: 'u', body: { markdown: ' ' } }],
      },
      '`comments[0].body`: must not be empty',
    ],
    [
      'a resolved comment resolved by nobody',
      {
        users: [{ id: 'u', displayName: 'U' }],
        organizations: [{ id: 'o', title: 'Org' }],
        spaces: [{ id: 's', organization: 'o' }],
        comments: [{ id: 'c', space: 's', postedBy: 'u', body: { markdown: 'Hi' }, status: 'resolved' }],
      },
      '`comments[0].resolvedBy`: is required for a resolved comment',
    ],
    [
      'a user reacting twice with one emoji',
      {
        users: [{ id: 'u', displayName: 'U' }],
        organizations: [{ id: 'o', title: 'Org' }],
        spaces: [{ id: 's', organization: 'o' }],
        comments: [
          {
            id: 'c',
            space: 's',
            postedBy: 'u',
            body: { markdown: 'Hi' },
            reactions: [
              {
                emoji: '👍',
                users: [
                  { user: 'u', reactedAt: '2026-01-01T00:00:00.000Z' },
                  { user: 'u', reactedAt: '2026-01-02T00:00:00.000Z' },
                ],
              },
            ],
          },
        ],
      },
      '`comments[0].reactions.0.users.1.user`: "u" reacts once per emoji',
    ],
    [
      'a reply in another space than its comment',
      {
        users: [{ id: 'u', displayName: 'U' }],
        organizations: [{ id: 'o', title: 'Org' }],
        spaces: [
          { id: 's', organization: 'o' },
          { id: 't', organization: 'o' },
        ],
        comments: [{ id: 'c', space: 's', postedBy: 'u', body: { markdown: 'Hi' } }],
        commentReplies: [{ id: 'r', comment: 'c', space: 't', postedBy: 'u', body: { markdown: 'Yes' } }],
      },
      '`commentReplies[0].space`: must be the comment\'s space "s"',
    ],
    [
      'a grant to a non-member',
      {
        users: [{ id: 'u', displayName: 'U' }],
        organizations: [{ id: 'o', title: 'Org' }],
        spaces: [{ id: 's', organization: 'o' }],
        spaceGrants: [{ space: 's', principal: { type: 'user', user: 'u' }, role: 'read' }],
      },
      '`spaceGrants[0].principal.user`: "u" is not a member',
    ],
    [
      'a collection grant to a non-member',
      {
        users: [{ id: 'u', displayName: 'U' }],
        organizations: [{ id: 'o', title: 'Org' }],
        collections: [{ id: 'c', organization: 'o', title: 'C' }],
        collectionGrants: [{ collection: 'c', principal: { type: 'user', user: 'u' }, role: 'read' }],
      },
      '`collectionGrants[0].principal.user`: "u" is not a member',
    ],
    [
      'a team member outside the organization',
      {
        users: [{ id: 'u', displayName: 'U' }],
        organizations: [{ id: 'o', title: 'Org' }],
        teams: [{ id: 't', organization: 'o', title: 'T' }],
        teamMembers: [{ team: 't', user: 'u' }],
      },
      '`teamMembers[0].user`: "u" is not a member',
    ],
    [
      'two sites on one hostname',
      {
        organizations: [{ id: 'o', title: 'Org' }],
        sites: [
          { id: 'a', organization: 'o', hostname: 'docs.acme.com' },
          { id: 'b', organization: 'o', hostname: 'docs.acme.com' },
        ],
      },
      '`sites[0].hostname`: "docs.acme.com" is used by another site',
    ],
    [
      'two organizations on one hostname',
      {
        organizations: [
          { id: 'o', title: 'Org', hostname: 'acme' },
          { id: 'p', title: 'Other', hostname: 'acme' },
        ],
      },
      '`organizations[0].hostname`: "acme" is used by another organization',
    ],
    [
      "a proxy on the host of the API's published sites",
      { organizations: [{ id: 'o', title: 'Org' }], sites: [{ id: 'a', organization: 'o', proxy: 'Docs.Localhost/o' }] },
      '`sites[0].proxy`: "docs.localhost/o" is on the host of the API\'s published sites',
    ],
    [
      'a default content of another organization',
      {
        organizations: [
          { id: 'o', title: 'Org', defaultContent: { type: 'site', site: 's' } },
          { id: 'p', title: 'Other' },
        ],
        sites: [{ id: 's', organization: 'p' }],
      },
      '`organizations[id=o].defaultContent.site`: no site "s" in organization "o"',
    ],
    [
      'a site without its one default section',
      {
        organizations: [{ id: 'o', title: 'Org' }],
        sites: [{ id: 's', organization: 'o' }],
        siteSections: [
          { id: 'x', site: 's', title: 'One', path: 'one' },
          { id: 'y', site: 's', title: 'Two', path: 'two' },
        ],
      },
      'a site with sections has exactly one default section',
    ],
    [
      'two sections on one path',
      {
        organizations: [{ id: 'o', title: 'Org' }],
        sites: [{ id: 's', organization: 'o' }],
        siteSections: [
          { id: 'x', site: 's', title: 'One', path: 'p', default: true },
          { id: 'y', site: 's', title: 'Two', path: 'p' },
        ],
      },
      '`siteSections[0].path`: "p" is used by another section',
    ],
    [
      'a root site-space beside sections',
      {
        organizations: [{ id: 'o', title: 'Org' }],
        spaces: [{ id: 'sp', organization: 'o' }],
        sites: [{ id: 's', organization: 'o' }],
        siteSections: [{ id: 'x', site: 's', title: 'One', path: 'one', default: true }],
        siteSpaces: [{ id: 'ss', site: 's', space: 'sp', path: 'sp', default: true }],
      },
      '`siteSpaces[0].section`: site "s" has sections',
    ],
    [
      'a space twice in a container',
      {
        organizations: [{ id: 'o', title: 'Org' }],
        spaces: [{ id: 'sp', organization: 'o' }],
        sites: [{ id: 's', organization: 'o' }],
        siteSpaces: [
          { id: 'a', site: 's', space: 'sp', path: 'a', default: true },
          { id: 'b', site: 's', space: 'sp', path: 'b' },
        ],
      },
      '`siteSpaces[0].space`: space "sp" is already in this site',
    ],
    [
      'a shared share key',
      {
        organizations: [{ id: 'o', title: 'Org' }],
        sites: [{ id: 's', organization: 'o' }],
        shareLinks: [
          { id: 'a', site: 's', key: 'k' },
          { id: 'b', site: 's', key: 'k' },
        ],
      },
      '`shareLinks[0].key`: is the key of another share link',
    ],
    [
      'a file without its bytes',
      {
        organizations: [{ id: 'o', title: 'Org' }],
        spaces: [{ id: 's', organization: 'o' }],
        files: [{ id: 'f', space: 's', name: 'a.txt', contentType: 'text/plain', size: 1, blob: 'b1' }],
      },
      '`files[0].blob`: no bytes for blob "b1"',
    ],
    ['blobs that are not base64', { blobs: [{ key: 'b1', contentType: 'text/plain', base64: 'a*b' }] }, '`blobs[0].base64`: Invalid base64'],
    ['a blob without a content type', { blobs: [{ key: 'b1', base64: 'YQ==' }] }, '`blobs[0].contentType`'],
    [
      'a translation of no space',
      {
        users: [{ id: 'u', displayName: 'U' }],
        organizations: [{ id: 'o', title: 'Org' }],
        translations: [{ id: 't', organization: 'o', source: { space: 'ghost', language: 'en' }, language: 'fr', createdBy: 'u' }],
      },
      '`translations[0].source.space`: no space "ghost"',
    ],
    [
      'two translations of a space into one language',
      {
        users: [{ id: 'u', displayName: 'U' }],
        organizations: [{ id: 'o', title: 'Org' }],
        spaces: [{ id: 's', organization: 'o' }],
        translations: [
          { id: 't', organization: 'o', source: { space: 's', language: 'en' }, language: 'fr', createdBy: 'u' },
          { id: 'v', organization: 'o', source: { space: 's', language: 'en' }, language: 'fr', createdBy: 'u' },
        ],
      },
      '`translations[1].language`: space "s" already has a translation into "fr"',
    ],
    [
      'a conversation without parts',
      { organizations: [{ id: 'o', title: 'Org' }], conversations: [{ organization: 'o', conversation: 'c', parts: [] }] },
      '`conversations[0].parts`: must hold at least 1 part',
    ],
    [
      'an issue in a cluster of another organization',
      {
        organizations: [
          { id: 'o', title: 'Org' },
          { id: 'p', title: 'Other' },
        ],
        conversations: [{ organization: 'o', conversation: 'c', parts: [{ type: 'message', role: 'user', body: 'Broken.' }] }],
        issueClusters: [{ id: 'k', organization: 'p' }],
        conversationIssues: [
          {
            id: 'i',
            organization: 'o',
            conversation: 'o/c',
            cluster: 'k',
            title: 'Broken',
            details: { object: 'document', data: {}, nodes: [] },
            impact: 'low',
          },
        ],
      },
      '`conversationIssues[0].cluster`: no cluster "k" in organization "o"',
    ],
    [
      'an adaptive schema the API would refuse',
      {
        organizations: [{ id: 'o', title: 'Org' }],
        sites: [
          {
            id: 's',
            organization: 'o',
            adaptiveSchema: { jsonSchema: { type: 'object', properties: { 'not a name': { type: 'boolean' } }, additionalProperties: false } },
          },
        ],
      },
      '`sites[0].adaptiveSchema.jsonSchema',
    ],
  ])('refuses %s with a 400 naming the row and field, and loads nothing', async (_, doc, message) => {
    const w = await createWorld()
    const before = w.api.dump()
    const error = await w.api.fixtures.load(doc).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(error, JSON.stringify(doc)).toMatchObject({ status: 400 })
    expect((error as Error).message).toMatch(/^Invalid seed: `/)
    expect((error as Error).message).toContain(message)
    expect(w.api.dump()).toEqual(before)
    expect(() => createDocsApi({ seed: doc as any })).toThrow('Invalid seed')
  })

  it('a proxy origin is kept with its host in lower case, as updateSiteById keeps it', async () => {
    const w = await createWorld()
    await w.api.fixtures.load({ sites: [{ id: 'proxied', organization: w.org.id, proxy: 'Docs.Acme.test/Guide' }] })
    expect(w.api.store.read((tx) => tx.get('sites', 'proxied'))!.proxy).toBe('docs.acme.test/Guide')
  })

  it('blobs: kept under their keys, reused when held, renamed when the key holds other bytes, removed when loading fails', async () => {
    const blobs = createMemoryBlobs()
    const api = createDocsApi({ baseUrl: BASE, blobs })
    const bad = { blobs: [{ key: 'b1', contentType: 'text/plain', base64: 'YQ==' }], users: [{ id: 'u', displayName: '' }] }
    await expect(api.fixtures.load(bad)).rejects.toThrow('`users[0].displayName`')
    expect(blobs.get('b1')).toBeUndefined()
    const text = (key: string) => new TextDecoder().decode(blobs.get(key)!.bytes)
    const blobOf = (file: string) => api.store.read((tx) => tx.get('files', file)!.blob)
    const space = { organizations: [{ id: 'o', title: 'Org' }], spaces: [{ id: 's', organization: 'o' }] }
    const file = (id: string) => ({ id, space: 's', name: `${id}.txt`, contentType: 'text/plain', size: 1, blob: 'b1' })
    await api.fixtures.load({ ...space, blobs: [{ key: 'b1', contentType: 'text/plain', base64: 'YQ==' }], files: [file('f1')] })
    expect([blobOf('f1'), text('b1')]).toEqual(['b1', 'a'])
    // The same bytes under a key the port holds: the blob is shared, not stored again.
    await api.fixtures.load({ blobs: [{ key: 'b1', contentType: 'text/plain', base64: 'YQ==' }], files: [file('f2')] })
    expect(blobOf('f2')).toBe('b1')
    // Other bytes under that key: stored under a new key, and the row follows.
    await api.fixtures.load({ blobs: [{ key: 'b1', contentType: 'text/plain', base64: 'Yg==' }], files: [file('f3')] })
    expect(blobOf('f3')).not.toBe('b1')
    expect([text('b1'), text(blobOf('f3'))]).toEqual(['a', 'b'])
  })

  it('adds to what is there: a document can reference rows already stored', async () => {
    const w = await createWorld()
    await w.api.fixtures.load({
      spaces: [{ id: 'extra', organization: w.org.id, title: 'Extra' }],
      spaceGrants: [{ space: 'extra', principal: { type: 'user', user: w.users.gina.id }, role: 'comment' }],
    })
    const got = await call(w.api, w.tokens.gina, 'GET', '/v1/spaces/extra')
    expect(got.body).toMatchObject({ title: 'Extra', permissions: { comment: true, edit: false } })
  })

  it('loads collection grants: they reach the in-collection spaces under the collection', async () => {
    const w = await createWorld()
    await w.api.fixtures.load({
      collections: [{ id: 'shelf', organization: w.org.id, title: 'Shelf' }],
      spaces: [{ id: 'book', organization: w.org.id, title: 'Book', parent: 'shelf', visibility: 'in-collection' }],
      collectionGrants: [{ collection: 'shelf', principal: { type: 'user', user: w.users.gina.id }, role: 'edit' }],
    })
    const got = await call(w.api, w.tokens.gina, 'GET', '/v1/spaces/book')
    expect(got.body).toMatchObject({ title: 'Book', permissions: { edit: true, admin: false } })
  })
})
