import { describe, expect, it } from 'vitest'
import { call, createWorld, expectError, type World } from '../../helpers.js'

/**
 * Conversations through api.fetch: ingest (every validation rule), lists and details, processing
 * as a background job, issues and clusters (filters, order, muting, figures on the injected
 * clock), and clustering on a corpus of conversations about distinct problems.
 */
const msg = (body: string, role: 'user' | 'assistant' = 'user') => ({ type: 'message', role, body })
const base = (w: World) => `/v1/orgs/${w.org.id}`

async function ingest(w: World, body: Record<string, unknown>, token = w.tokens.ada) {
  const res = await call(w.api, token, 'POST', `${base(w)}/conversations`, body)
  expect(res.status, JSON.stringify(res.body)).toBe(204)
  expect(res.body).toBeUndefined()
}

/** Conversations about five distinct problems (and two unrelated ones), in the words customers use. */
const CORPUS: Array<[problem: string, id: string, subject: string, body: string]> = [
  ['pdf', 'pdf-1', 'PDF export broken', 'Hi team. The PDF export fails every time I click download. It shows error 500.'],
  ['pdf', 'pdf-2', 'Export', 'Exporting my docs to PDF gives me an error, nothing gets downloaded.'],
  ['pdf', 'pdf-3', 'pdf', 'Hello, when I try to download the PDF version of a space it never finishes.'],
  ['sso', 'sso-1', 'Cannot log in', 'I cannot log in with SSO: the SAML login keeps redirecting me back to the login page. Urgent, our whole team is blocked.'],
  ['sso', 'sso-2', 'SAML loop', 'Our SAML single sign-on sends users in a redirect loop and nobody can sign in.'],
  ['sso', 'sso-3', 'login', 'Login through our Okta SSO is failing with an invalid SAML response.'],
  ['dark', 'dark-1', 'Dark mode', 'How do I change the colors of the dark mode theme?'],
  ['dark', 'dark-2', 'Theme', 'The dark mode colors look wrong in the sidebar, text is unreadable.'],
  ['search', 'search-1', 'Search', 'Search returns no results for words I know exist in my pages.'],
  ['search', 'search-2', 'search index', 'The search does not find pages I published yesterday, results are missing.'],
  ['editor', 'editor-1', 'Editor', 'The page editor freezes when I paste a large table.'],
  ['editor', 'editor-2', 'Paste', 'Pasting a big table into the editor makes the page hang.'],
  ['domain', 'domain-1', 'SSL', 'Our custom domain SSL certificate is not renewing and browsers show a warning.'],
  ['domain', 'domain-2', 'Certificate', 'The SSL certificate for docs.acme.com expired, the custom domain shows a security warning.'],
  ['guests', 'guests-1', 'Guests', 'Can I invite a guest to only one space without giving access to the others?'],
  ['limits', 'limits-1', 'Rate limit', 'The API rate limit is too low for our sync script, we get 429 responses.'],
]

describe('conversations: ingest, list, detail', () => {
  it('ingests (204), lists in ingest order with the source filter, and answers the detail with parts and metadata', async () => {
    const w = await createWorld()
    await ingest(w, {
      id: 'zd-1',
      subject: 'Export',
      source: 'zendesk',
      metadata: { url: 'https://support.acme.test/tickets/1', attributes: { plan: 'pro', region: 'eu' }, createdAt: '2026-02-28T09:00:00.000Z' },
      parts: [msg('The PDF export fails with an error.'), msg('Thanks, we are on it.', 'assistant')],
    })
    await ingest(w, { parts: [msg('Search does not find my pages.')] })
    await w.api.idle()
    const detail = (await call(w.api, w.tokens.rita, 'GET', `${base(w)}/conversations/zd-1`)).body
    expect(detail).toEqual({
      conversation: {
        object: 'conversation',
        id: 'zd-1',
        subject: 'Export',
        createdAt: '2026-02-28T09:00:00.000Z',
        processedAt: '2026-03-01T10:00:00.000Z',
        source: 'zendesk',
        impact: 'medium',
        status: 'processed',
        urls: { location: `http://localhost:4000/v1/orgs/${w.org.id}/conversations/zd-1`, source: 'https://support.acme.test/tickets/1' },
      },
      parts: [
        { type: 'message', role: 'user', body: 'The PDF export fails with an error.' },
        { type: 'message', role: 'assistant', body: 'Thanks, we are on it.' },
      ],
      metadata: { url: 'https://support.acme.test/tickets/1', attributes: { plan: 'pro', region: 'eu' }, createdAt: '2026-02-28T09:00:00.000Z' },
    })
    const all = (await call(w.api, w.tokens.rita, 'GET', `${base(w)}/conversations`)).body
    expect(all.count).toBe(2)
    expect(all.items.map((c: { id: string; source: string }) => [c.id, c.source])).toEqual([
      ['zd-1', 'zendesk'],
      [expect.any(String), 'api'],
    ])
    // The id made for the second one addresses it.
    expect((await call(w.api, w.tokens.rita, 'GET', `${base(w)}/conversations/${all.items[1].id}`)).status).toBe(200)
    expect((await call(w.api, w.tokens.rita, 'GET', `${base(w)}/conversations?source=zendesk`)).body.items.map((c: { id: string }) => c.id)).toEqual(['zd-1'])
    expect((await call(w.api, w.tokens.rita, 'GET', `${base(w)}/conversations?source=intercom`)).body).toEqual({ items: [], count: 0 })
    const page1 = (await call(w.api, w.tokens.rita, 'GET', `${base(w)}/conversations?limit=1`)).body
    const page2 = (await call(w.api, w.tokens.rita, 'GET', `${base(w)}/conversations?limit=1&page=${page1.next.page}`)).body
    expect([...page1.items, ...page2.items].map((c: { id: string }) => c.id)).toEqual(all.items.map((c: { id: string }) => c.id))
  })

  it('refuses bad bodies and bad parts with a 400 naming the field and the rule, and writes nothing', async () => {
    const w = await createWorld()
    const ok = [msg('The export fails.')]
    const before = w.api.dump()
    const cases: Array<[unknown, string]> = [
      [undefined, 'body'],
      [{}, 'body field `parts`'],
      [{ parts: [] }, 'body field `parts`: must hold at least 1 part'],
      [{ parts: Array.from({ length: 501 }, () => msg('x')) }, 'body field `parts`: must hold at most 500 parts'],
      [{ parts: 'hello' }, 'body field `parts`'],
      [{ parts: [{ role: 'user', body: 'x' }] }, 'body field `parts[0].type`'],
      [{ parts: [{ type: 'note', role: 'user', body: 'x' }] }, 'body field `parts[0].type`'],
      [{ parts: [{ type: 'message', body: 'x' }] }, 'body field `parts[0].role`'],
      [{ parts: [{ type: 'message', role: 'robot', body: 'x' }] }, 'body field `parts[0].role`'],
      [{ parts: [...ok, { type: 'message', role: 'user' }] }, 'body field `parts[1].body`'],
      [{ parts: [{ type: 'message', role: 'user', body: '   ' }] }, 'body field `parts[0].body`: must not be blank'],
      [{ parts: [{ type: 'message', role: 'user', body: 'x'.repeat(20_001) }] }, 'body field `parts[0].body`: must be at most 20000 characters'],
      [{ parts: ok, id: 'a/b' }, 'body field `id`: must be 1..100 letters'],
      [{ parts: ok, id: '' }, 'body field `id`'],
      [{ parts: ok, subject: 's'.repeat(256) }, 'body field `subject`: must be at most 255 characters'],
      [{ parts: ok, source: 'Zendesk!' }, 'body field `source`: must be 1..50 lowercase letters'],
      [{ parts: ok, metadata: { url: 'not a url' } }, 'body field `metadata.url`: must be a URL'],
      [{ parts: ok, metadata: { createdAt: 'yesterday' } }, 'body field `metadata.createdAt`: must be an ISO 8601 date-time'],
      [{ parts: ok, metadata: { attributes: { plan: 3 } } }, 'body field `metadata.attributes.plan`'],
      [
        { parts: ok, metadata: { attributes: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])) } },
        'body field `metadata.attributes`: must hold at most 50 attributes',
      ],
    ]
    for (const [body, message] of cases) {
      expectError(await call(w.api, w.tokens.ada, 'POST', `${base(w)}/conversations`, body), 400, message)
      expect(w.api.dump()).toEqual(before)
    }
    expectError(await call(w.api, w.tokens.ada, 'GET', `${base(w)}/conversations?source=`), 400, 'query parameter `source`')
    expectError(
      await call(w.api, w.tokens.ada, 'GET', `${base(w)}/conversations-clusters?orderBy=size`),
      400,
      'query parameter `orderBy`: must be updatedAt, createdAt or issues',
    )
    expectError(await call(w.api, w.tokens.ada, 'GET', `${base(w)}/conversations-clusters?order=up`), 400, 'query parameter `order`')
  })

  it('editors ingest, members with a role read, guests get 403, outsiders 404, no token 401; failures write nothing', async () => {
    const w = await createWorld()
    await ingest(w, { id: 'c1', parts: [msg('The PDF export fails with an error.')] })
    await w.api.idle()
    const cluster = (await call(w.api, w.tokens.ada, 'GET', `${base(w)}/conversations-clusters`)).body.items[0].id
    const issue = (await call(w.api, w.tokens.ada, 'GET', `${base(w)}/conversations-issues`)).body.items[0].issue.id
    const before = w.api.dump()
    const reads = [
      '/conversations',
      '/conversations/c1',
      '/conversations-clusters',
      `/conversations-clusters/${cluster}`,
      '/conversations-issues',
      `/conversations-issues/${issue}`,
    ]
    for (const path of reads) {
      expect((await call(w.api, w.tokens.rita, 'GET', `${base(w)}${path}`)).status, path).toBe(200)
      expectError(await call(w.api, w.tokens.gina, 'GET', `${base(w)}${path}`), 403, 'You need the read role on this organization')
      expectError(await call(w.api, w.tokens.olga, 'GET', `${base(w)}${path}`), 404, 'Organization not found')
      expectError(await call(w.api, undefined, 'GET', `${base(w)}${path}`), 401, '')
    }
    const writes: Array<[string, string, unknown]> = [
      ['POST', '/conversations', { parts: [msg('Search is broken.')] }],
      ['PATCH', `/conversations-clusters/${cluster}`, { muted: true }],
    ]
    for (const [method, path, body] of writes) {
      for (const token of [w.tokens.rita, w.tokens.gina])
        expectError(await call(w.api, token, method, `${base(w)}${path}`, body), 403, 'You need the edit role on this organization')
      expectError(await call(w.api, w.tokens.olga, method, `${base(w)}${path}`, body), 404, 'Organization not found')
      expectError(await call(w.api, undefined, method, `${base(w)}${path}`, body), 401, '')
    }
    await w.api.idle()
    expect(w.api.dump()).toEqual(before)
    const editor = await w.api.fixtures.createUser({ displayName: 'Eddie', email: 'eddie@acme.test' })
    await w.api.fixtures.addMember(w.org.id, editor.id, 'edit')
    await ingest(w, { parts: [msg('Search is broken.')] }, await w.api.fixtures.createToken(editor.id))
  })

  it('answers 404 for conversations, issues and clusters that do not exist or belong to another organization', async () => {
    const w = await createWorld()
    const other = await w.api.fixtures.createOrganization({ title: 'Other', members: [{ user: w.users.ada.id, role: 'admin' }] })
    await call(w.api, w.tokens.ada, 'POST', `/v1/orgs/${other.id}/conversations`, { id: 'theirs', parts: [msg('The PDF export fails.')] })
    await w.api.idle()
    const theirCluster = (await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${other.id}/conversations-clusters`)).body.items[0].id
    const theirIssue = (await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${other.id}/conversations-issues`)).body.items[0].issue.id
    const before = w.api.dump()
    expectError(await call(w.api, w.tokens.ada, 'GET', `${base(w)}/conversations/theirs`), 404, 'Conversation not found')
    expectError(await call(w.api, w.tokens.ada, 'GET', `${base(w)}/conversations/nope`), 404, 'Conversation not found')
    for (const id of ['nope', theirCluster]) {
      expectError(await call(w.api, w.tokens.ada, 'GET', `${base(w)}/conversations-clusters/${id}`), 404, 'Issues cluster not found')
      expectError(await call(w.api, w.tokens.ada, 'PATCH', `${base(w)}/conversations-clusters/${id}`, { muted: true }), 404, 'Issues cluster not found')
    }
    for (const id of ['nope', theirIssue])
      expectError(await call(w.api, w.tokens.ada, 'GET', `${base(w)}/conversations-issues/${id}`), 404, 'Conversation issue not found')
    // Filters naming another organization's cluster or conversation list nothing.
    expect((await call(w.api, w.tokens.ada, 'GET', `${base(w)}/conversations-issues?cluster=${theirCluster}`)).body).toEqual({ items: [], count: 0 })
    expect((await call(w.api, w.tokens.ada, 'GET', `${base(w)}/conversations-issues?conversation=theirs`)).body).toEqual({ items: [], count: 0 })
    expect(w.api.dump()).toEqual(before)
  })
})

describe('conversations: issues and clusters', () => {
  it('extracts each problem of a conversation as an issue with a title, details and impact; the conversation takes the strongest', async () => {
    const w = await createWorld()
    await ingest(w, {
      id: 'two',
      subject: 'Two things',
      parts: [
        msg('Hi there! The PDF export fails with error 500 when I click download. It happens on every space.'),
        msg('Could you share the space id?', 'assistant'),
        msg('Sure. Also, I cannot find where to change the dark mode colors. Thanks!'),
      ],
    })
    await ingest(w, { id: 'urgent', parts: [msg('Nobody can sign in with SAML SSO since this morning, our whole team is blocked. Urgent!')] })
    await ingest(w, { id: 'workaround', parts: [msg('I cannot publish the site from the editor, for now I publish it manually from settings.')] })
    await ingest(w, { id: 'thanks', parts: [msg('Thanks, all good now!')] })
    await w.api.idle()
    const issues = (await call(w.api, w.tokens.ada, 'GET', `${base(w)}/conversations-issues?conversation=two`)).body
    expect(issues.items.map((i: { issue: { title: string; impact: string } }) => [i.issue.title, i.issue.impact])).toEqual([
      ['The PDF export fails with error 500 when I click download', 'medium'],
      ['I cannot find where to change the dark mode colors', 'low'],
    ])
    const first = issues.items[0]
    expect(first.issue).toMatchObject({
      object: 'conversation-issue',
      conversation: 'two',
      createdAt: '2026-03-01T10:00:00.000Z',
      ingestedAt: '2026-03-01T10:00:00.000Z',
      urls: { location: `http://localhost:4000${base(w)}/conversations-issues/${first.issue.id}` },
    })
    // The details hold every sentence of the problem, the one that continues it included.
    expect(first.issue.details.nodes.map((n: { nodes: Array<{ leaves: Array<{ text: string }> }> }) => n.nodes[0]!.leaves[0]!.text)).toEqual([
      'The PDF export fails with error 500 when I click download.',
      'It happens on every space.',
    ])
    expect(first.conversation).toMatchObject({ id: 'two', impact: 'medium', status: 'processed' })
    const got = (await call(w.api, w.tokens.rita, 'GET', `${base(w)}/conversations-issues/${first.issue.id}`)).body
    expect(got).toEqual(first)
    const impact = async (id: string) => (await call(w.api, w.tokens.ada, 'GET', `${base(w)}/conversations/${id}`)).body.conversation.impact
    expect(await impact('urgent')).toBe('high')
    expect(await impact('workaround')).toBe('medium')
    // Nothing but thanks: no issue, no impact; processed all the same.
    const thanks = (await call(w.api, w.tokens.ada, 'GET', `${base(w)}/conversations/thanks`)).body.conversation
    expect(thanks).toMatchObject({ status: 'processed', processedAt: '2026-03-01T10:00:00.000Z' })
    expect(thanks.impact).toBeUndefined()
    expect((await call(w.api, w.tokens.ada, 'GET', `${base(w)}/conversations-issues?conversation=thanks`)).body.count).toBe(0)
  })

  it('groups issues about the same problem into one cluster and different problems into different clusters', async () => {
    const w = await createWorld()
    for (const [, id, subject, body] of CORPUS) await ingest(w, { id, subject, parts: [msg(body), msg('Thanks, we are looking into it.', 'assistant')] })
    await w.api.idle()
    const issues = (await call(w.api, w.tokens.ada, 'GET', `${base(w)}/conversations-issues?limit=100`)).body.items as Array<{
      issue: { cluster: string }
      conversation: { id: string }
    }>
    expect(issues).toHaveLength(CORPUS.length)
    const clusterOf = new Map(issues.map((i) => [i.conversation.id, i.issue.cluster]))
    const problems = [...new Set(CORPUS.map(([p]) => p))]
    const clusterOfProblem = problems.map((p) => new Set(CORPUS.filter(([q]) => q === p).map(([, id]) => clusterOf.get(id))))
    // Each problem in exactly one cluster, and no cluster shared by two problems.
    for (const [i, clusters] of clusterOfProblem.entries()) expect(clusters.size, problems[i]).toBe(1)
    expect(new Set(clusterOfProblem.map((c) => [...c][0])).size).toBe(problems.length)
    const clusters = (await call(w.api, w.tokens.ada, 'GET', `${base(w)}/conversations-clusters?orderBy=issues&limit=100`)).body
    expect(clusters.count).toBe(problems.length)
    expect(clusters.items.map((c: { stats: { issues: number } }) => c.stats.issues)).toEqual([3, 3, 2, 2, 2, 2, 1, 1])
  })

  it('a cluster shows its figures: counts, the strongest impact and its icon, sources, a summary, a 13-week pulse on the clock', async () => {
    const w = await createWorld()
    const day = 24 * 3600 * 1000
    const at = (daysAgo: number) => new Date(Date.parse('2026-03-01T10:00:00.000Z') - daysAgo * day).toISOString()
    await ingest(w, { id: 'a', source: 'zendesk', metadata: { createdAt: at(0) }, parts: [msg('The PDF export fails every time.')] })
    await ingest(w, { id: 'b', source: 'zendesk', metadata: { createdAt: at(3) }, parts: [msg('PDF export is broken, we cannot export anything. Urgent!')] })
    await ingest(w, { id: 'c', source: 'intercom', metadata: { createdAt: at(10) }, parts: [msg('Exporting to PDF fails for me too.')] })
    await ingest(w, { id: 'd', source: 'intercom', metadata: { createdAt: at(90) }, parts: [msg('The PDF export failed yesterday.')] })
    await ingest(w, { id: 'e', metadata: { createdAt: at(200) }, parts: [msg('PDF export fails with an error.')] })
    await w.api.idle()
    const [cluster] = (await call(w.api, w.tokens.ada, 'GET', `${base(w)}/conversations-clusters`)).body.items
    expect(cluster).toEqual({
      object: 'issues-cluster',
      id: expect.any(String),
      label: 'The PDF export fails every time',
      createdAt: '2026-03-01T10:00:00.000Z',
      updatedAt: '2026-03-01T10:00:00.000Z',
      icon: 'triangle-exclamation',
      summary: expect.objectContaining({ object: 'document' }),
      muted: false,
      impact: 'high',
      // Oldest week first, the last entry the 7 days up to now: 0 and 3 days ago there, 10 days ago
      // the week before, 90 days ago the 13th week back; 200 days ago is past the 13 weeks.
      weeklyPulse: [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2],
      sources: { zendesk: 2, intercom: 2, api: 1 },
      stats: { issues: 5, conversations: 5 },
      urls: { location: `http://localhost:4000${base(w)}/conversations-clusters/${cluster.id}` },
    })
    expect(cluster.weeklyPulse).toHaveLength(13)
    expect(JSON.stringify(cluster.summary)).toContain('5 issues reported in 5 conversations; the strongest impact is high.')
    // The pulse follows the clock: four weeks later, the recent issues are four and five weeks back.
    w.clock.advance(28 * day)
    const later = (await call(w.api, w.tokens.ada, 'GET', `${base(w)}/conversations-clusters/${cluster.id}`)).body
    expect(later.weeklyPulse).toEqual([0, 0, 0, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0])
  })

  it('PATCH mutes and unmutes (updatedAt moves only on a change); clusters list by orderBy and order', async () => {
    const w = await createWorld()
    await ingest(w, { id: 'p', parts: [msg('The PDF export fails every time.')] })
    w.clock.advance(1000)
    await ingest(w, { id: 's1', parts: [msg('Search returns no results for my pages.')] })
    await ingest(w, { id: 's2', parts: [msg('The search finds no results in published pages.')] })
    await w.api.idle()
    const list = async (q: string) =>
      (await call(w.api, w.tokens.ada, 'GET', `${base(w)}/conversations-clusters?${q}`)).body.items.map((c: { label: string }) => c.label)
    const pdf = 'The PDF export fails every time'
    const search = 'Search returns no results for my pages'
    expect(await list('')).toEqual([search, pdf])
    expect(await list('order=asc')).toEqual([pdf, search])
    expect(await list('orderBy=issues&order=desc')).toEqual([search, pdf])
    expect(await list('orderBy=createdAt&order=asc')).toEqual([pdf, search])
    const id = (await call(w.api, w.tokens.ada, 'GET', `${base(w)}/conversations-clusters?order=asc`)).body.items[0].id
    const before = w.api.dump()
    for (const body of [undefined, {}, { muted: 'yes' }, { muted: null }]) {
      const res = await call(w.api, w.tokens.ada, 'PATCH', `${base(w)}/conversations-clusters/${id}`, body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.error.message).toMatch(/body/)
    }
    expect(w.api.dump()).toEqual(before)
    w.clock.advance(5000)
    const muted = (await call(w.api, w.tokens.ada, 'PATCH', `${base(w)}/conversations-clusters/${id}`, { muted: true })).body
    expect(muted).toMatchObject({ muted: true, updatedAt: '2026-03-01T10:00:06.000Z' })
    w.clock.advance(5000)
    expect((await call(w.api, w.tokens.ada, 'PATCH', `${base(w)}/conversations-clusters/${id}`, { muted: true })).body.updatedAt).toBe(
      '2026-03-01T10:00:06.000Z',
    )
    expect(await list('')).toEqual([pdf, search])
    expect((await call(w.api, w.tokens.ada, 'PATCH', `${base(w)}/conversations-clusters/${id}`, { muted: false })).body.muted).toBe(false)
    // Paging over clusters keeps the order.
    const first = (await call(w.api, w.tokens.ada, 'GET', `${base(w)}/conversations-clusters?limit=1`)).body
    const second = (await call(w.api, w.tokens.ada, 'GET', `${base(w)}/conversations-clusters?limit=1&page=${first.next.page}`)).body
    expect([...first.items, ...second.items].map((c: { label: string }) => c.label)).toEqual(await list(''))
  })

  it('issue lists filter by cluster and by conversation, page by page', async () => {
    const w = await createWorld()
    await ingest(w, { id: 'p1', parts: [msg('The PDF export fails every time.')] })
    await ingest(w, { id: 'p2', parts: [msg('PDF export fails with an error. Also, search returns no results for my pages.')] })
    await w.api.idle()
    const all = (await call(w.api, w.tokens.ada, 'GET', `${base(w)}/conversations-issues`)).body
    expect(all.count).toBe(3)
    const pdfCluster = all.items[0].issue.cluster
    const byCluster = (await call(w.api, w.tokens.ada, 'GET', `${base(w)}/conversations-issues?cluster=${pdfCluster}`)).body
    expect(byCluster.items.map((i: { conversation: { id: string } }) => i.conversation.id)).toEqual(['p1', 'p2'])
    const both = (await call(w.api, w.tokens.ada, 'GET', `${base(w)}/conversations-issues?cluster=${pdfCluster}&conversation=p2`)).body
    expect(both.items.map((i: { issue: { title: string } }) => i.issue.title)).toEqual(['PDF export fails with an error'])
    expect((await call(w.api, w.tokens.ada, 'GET', `${base(w)}/conversations-issues?conversation=p2`)).body.count).toBe(2)
    const page1 = (await call(w.api, w.tokens.ada, 'GET', `${base(w)}/conversations-issues?limit=2`)).body
    const page2 = (await call(w.api, w.tokens.ada, 'GET', `${base(w)}/conversations-issues?limit=2&page=${page1.next.page}`)).body
    expect([...page1.items, ...page2.items]).toEqual(all.items)
  })

  it('ingesting an id again replaces the conversation: its old issues go (an emptied cluster too), the new ones are processed', async () => {
    const w = await createWorld()
    await ingest(w, { id: 'c', subject: 'Export', parts: [msg('The PDF export fails every time.')] })
    await w.api.idle()
    const before = (await call(w.api, w.tokens.ada, 'GET', `${base(w)}/conversations-clusters`)).body.items
    expect(before).toHaveLength(1)
    w.clock.advance(1000)
    await ingest(w, { id: 'c', source: 'intercom', parts: [msg('Search returns no results for my pages.')] })
    await w.api.idle()
    const replaced = (await call(w.api, w.tokens.ada, 'GET', `${base(w)}/conversations/c`)).body
    expect(replaced.conversation).toMatchObject({ status: 'processed', source: 'intercom', processedAt: '2026-03-01T10:00:01.000Z' })
    expect(replaced.conversation.subject).toBeUndefined()
    expect(
      (await call(w.api, w.tokens.ada, 'GET', `${base(w)}/conversations-issues`)).body.items.map((i: { issue: { title: string } }) => i.issue.title),
    ).toEqual(['Search returns no results for my pages'])
    const after = (await call(w.api, w.tokens.ada, 'GET', `${base(w)}/conversations-clusters`)).body.items
    expect(after.map((c: { label: string }) => c.label)).toEqual(['Search returns no results for my pages'])
    expect(after[0].id).not.toBe(before[0].id)
    expect((await call(w.api, w.tokens.ada, 'GET', `${base(w)}/conversations`)).body.count).toBe(1)
  })
})
