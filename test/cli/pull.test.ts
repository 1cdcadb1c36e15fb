import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { GitBookAPI, type RevisionPage } from '@gitbook/api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDemoState } from '../../src/demo.js'
import { createDocsApi } from '../../src/index.js'
import { runCli, type CliIo } from '../../src/cli/main.js'
import { serve, type RunningServer } from '../../src/cli/serve.js'
import { pull as pullOrganization } from '../../src/cli/pull.js'
import type { StateDocument } from '../../src/state/seed.js'

function io() {
  const out: string[] = []
  const err: string[] = []
  const value: CliIo = { out: (t) => void out.push(t), err: (t) => void err.push(t), env: {} }
  return { io: value, out: () => out.join(''), err: () => err.join('') }
}

const FILE_BYTES = new TextEncoder().encode('PNG? no: plain bytes of a pulled file\n')
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64')

/**
 * Instance A: the demo data, plus what the demo lacks (a team with a member and a permission on a
 * space, a collection and a site; a reader's permissions on the collection and the site; a file in
 * a space's current revision) and a second organization Ada belongs to.
 */
async function sourceState() {
  const { state } = (await createDemoState()) as { state: StateDocument }
  const doc = structuredClone(state) as Required<StateDocument>
  const org = doc.organizations[0]!
  const admin = doc.members.find((m) => m.role === 'admin')!.user
  const token = doc.tokens.find((t) => t.user === admin)!.id
  const space = doc.spaces[0]!
  doc.teams = [{ id: 'team-writers', organization: org.id, title: 'Writers', createdAt: '2026-01-01T00:00:00.000Z' }]
  doc.teamMembers = [{ id: `team-writers/${admin}`, team: 'team-writers', organization: org.id, user: admin, role: 'owner' }]
  doc.spaceGrants = [
    { id: `${space.id}/team:team-writers`, space: space.id, organization: org.id, principal: { type: 'team', team: 'team-writers' }, role: 'edit' },
  ]
  const readerUser = doc.members.find((m) => m.organization === org.id && m.role === 'read')!.user
  const team = { type: 'team' as const, team: 'team-writers' }
  const user = { type: 'user' as const, user: readerUser }
  doc.collections.push({ id: 'col-handbook', organization: org.id, title: 'Handbook', defaultLevel: null, position: 1, createdAt: '2026-01-01T00:00:00.000Z' })
  doc.collectionGrants = [
    { id: 'col-handbook/team:team-writers', collection: 'col-handbook', organization: org.id, principal: team, role: 'admin' },
    { id: `col-handbook/user:${readerUser}`, collection: 'col-handbook', organization: org.id, principal: user, role: 'comment' },
  ]
  doc.siteGrants = [
    { id: 'site-sections/team:team-writers', site: 'site-sections', organization: org.id, principal: team, role: 'read' },
    { id: `site-sections/user:${readerUser}`, site: 'site-sections', organization: org.id, principal: user, role: 'edit' },
  ]
  doc.blobs = [{ key: 'blob-of-a-file-in-a-long-unguessable-key', contentType: 'text/plain', base64: b64(FILE_BYTES) }]
  doc.files = [
    {
      id: 'file-notes',
      space: space.id,
      name: 'notes.txt',
      contentType: 'text/plain',
      size: FILE_BYTES.byteLength,
      blob: 'blob-of-a-file-in-a-long-unguessable-key',
      createdAt: '2026-01-01T00:00:00.000Z',
    },
  ]
  const at0 = doc.revisions.findIndex((r) => r.id === space.revision)
  doc.revisions[at0] = { ...doc.revisions[at0]!, files: ['file-notes'] }
  // A site with sections (in a group, and not) over the demo's spaces.
  const at = { site: 'site-sections', organization: org.id, createdAt: '2026-01-01T00:00:00.000Z' }
  doc.sites.push({
    id: 'site-sections',
    organization: org.id,
    type: 'ultimate',
    title: 'Sectioned',
    visibility: 'public',
    published: true,
    basename: 'sectioned',
    agentsContext: 'included',
    createdAt: at.createdAt,
  })
  doc.siteSectionGroups = [{ id: 'group-products', ...at, title: 'Products', position: 2 }]
  doc.siteSections = [
    { id: 'section-guides', ...at, title: 'Guides', path: 'guides', default: true, position: 1 },
    { id: 'section-api', ...at, sectionGroup: 'group-products', title: 'API', path: 'api', description: 'The API', default: false, position: 3 },
  ]
  doc.siteSpaces.push(
    { id: 'ss-guides', ...at, section: 'section-guides', space: doc.spaces[0]!.id, path: 'start', default: true, hidden: false, position: 4 },
    { id: 'ss-api', ...at, section: 'section-api', space: doc.spaces[1]!.id, path: 'reference', title: 'Reference', default: true, hidden: false, position: 5 },
  )
  doc.organizations.push({ ...org, id: 'second-org', title: 'Second', hostname: 'second' })
  doc.members.push({ ...doc.members.find((m) => m.user === admin)!, id: `second-org/${admin}`, organization: 'second-org' })
  const reader = doc.tokens.find((t) => t.user !== admin)!.id
  return { doc, org: org.id, token, reader }
}

/**
 * A space's counters of change requests and comments, wherever a space is answered: they count
 * what is not copied (the copy has none), so they are left out of the comparisons.
 */
const COUNTERS = new Set(['changeRequests', 'changeRequestsOpen', 'changeRequestsDraft', 'comments'])
const noCounters = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value), function (this: Record<string, unknown>, key, v: unknown) {
    return this.object === 'space' && COUNTERS.has(key) ? undefined : v
  })

let a: RunningServer
let source: Awaited<ReturnType<typeof sourceState>>
beforeAll(async () => {
  source = await sourceState()
  a = await serve({ port: 0, seed: source.doc })
})
afterAll(async () => {
  await a?.close()
})

async function pull(args: string[]) {
  const t = io()
  const code = await runCli(['pull', ...args], t.io)
  return { code, out: t.out(), err: t.err() }
}

const root = fileURLToPath(new URL('../..', import.meta.url))

/** The real command line (bin.ts) in a process of its own, to its exit. */
function runBin(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  let err = ''
  proc.stdout.on('data', (chunk) => (out += chunk))
  proc.stderr.on('data', (chunk) => (err += chunk))
  return new Promise((done) => proc.once('exit', (code) => done({ code, out, err })))
}

describe('cli: pull', () => {
  it('copies an organization that another instance then answers the same through the official client', async () => {
    const { code, out, err } = await pull(['--endpoint', a.url, '--token', source.token, '--org', source.org])
    expect({ code, warnings: err.split('\n').filter((l) => /warning|pull:/.test(l)) }).toEqual({ code: 0, warnings: [] })
    const state = JSON.parse(out) as StateDocument
    expect(state.format).toBe('docs-content-api/state')
    // A new token for the pulling user, said on stderr; the source's tokens are not copied.
    const token = /a new token for .* in the pulled state \(the source's token is not copied\): (gb_api_\S+)/.exec(err)?.[1]
    expect(token).toBeDefined()
    expect(state.tokens).toEqual([{ id: token, user: expect.any(String) }])
    expect(out).not.toContain(source.token)
    expect(state.organizations!.map((o) => o.id)).toEqual([source.org])

    const b = createDocsApi({ seed: state, baseUrl: a.url })
    const ca = new GitBookAPI({ endpoint: a.url, authToken: source.token })
    const cb = new GitBookAPI({ endpoint: a.url, authToken: token!, serviceBinding: { fetch: b.fetch } })
    const both = async <T>(read: (c: GitBookAPI) => Promise<{ data: T }>): Promise<[T, T]> => [(await read(ca)).data, (await read(cb)).data]
    const same = async <T>(read: (c: GitBookAPI) => Promise<{ data: T }>, strip: (value: T) => unknown = (v) => v) => {
      const [x, y] = await both(read)
      expect(noCounters(strip(y))).toEqual(noCounters(strip(x)))
      return x
    }
    const org = source.org
    await same((c) => c.orgs.getOrganizationById(org))
    await same((c) => c.orgs.listCollectionsInOrganizationById(org))
    const spaces = await same((c) => c.orgs.listSpacesInOrganizationById(org))
    expect(spaces.items).toHaveLength(3)
    const members = await same(
      (c) => c.orgs.listMembersInOrganizationById(org),
      (list) => list.items.map(({ lastSeenAt: _l, ...m }) => m),
    )
    await same((c) => c.orgs.listTeamsInOrganizationById(org))
    for (const m of members.items) await same((c) => c.orgs.listTeamsForOrganizationMember(org, m.user.id))
    expect((await cb.orgs.listTeamsForOrganizationMember(org, members.items.find((m) => m.role === 'admin')!.user.id)).data.items).toMatchObject([
      { team: { title: 'Writers' }, member: { role: 'owner' } },
    ])
    const space = spaces.items[0]!.id
    await same((c) => c.spaces.listTeamPermissionsInSpace(space))
    // Collection and site permissions, users' and teams'.
    expect(state.collectionGrants!.map((g) => g.id).sort()).toEqual(source.doc.collectionGrants.map((g) => g.id).sort())
    expect(state.siteGrants!.map((g) => g.id).sort()).toEqual(source.doc.siteGrants.map((g) => g.id).sort())
    const collectionUsers = await same((c) => c.collections.listUserPermissionsInCollection('col-handbook'))
    expect(collectionUsers.items.map((i) => i.permission)).toEqual(['comment'])
    expect((await same((c) => c.collections.listTeamPermissionsInCollection('col-handbook'))).items.map((i) => i.permission)).toEqual(['admin'])
    expect((await same((c) => c.orgs.listUserPermissionsInSite(org, 'site-sections'))).items.map((i) => i.permission)).toEqual(['edit'])
    expect((await same((c) => c.orgs.listTeamPermissionsInSite(org, 'site-sections'))).items.map((i) => i.permission)).toEqual(['read'])
    // The pages (ids kept), a page's document, the reusable content it includes, the files and their bytes.
    const [revA, revB] = await both((c) => c.spaces.getCurrentRevision(space))
    expect(revB.id).toBe(revA.id)
    expect(revB.pages).toEqual(revA.pages)
    expect(revB.reusableContents).toEqual(revA.reusableContents)
    expect(revB.pages.length).toBeGreaterThan(1)
    const page = revA.pages[0]!.id
    const doc = await same((c) => c.spaces.getPageById(space, page, { format: 'document' }))
    expect(JSON.stringify(doc)).toContain('Acme Docs explains')
    // Every page's document, in every space (the installation page includes a reusable content).
    let includes = 0
    for (const s of spaces.items) {
      const flat = (pages: RevisionPage[]): RevisionPage[] => pages.flatMap((p) => [p, ...('pages' in p ? flat(p.pages) : [])])
      for (const p of flat((await ca.spaces.getCurrentRevision(s.id)).data.pages)) {
        const read = await same((c) => c.spaces.getPageById(s.id, p.id, { format: 'document' }))
        if (JSON.stringify(read).includes('"reusable-content"')) includes++
      }
      const [ra, rb] = await both((c) => c.spaces.getCurrentRevision(s.id))
      for (const rc of ra.reusableContents) {
        expect(rb.reusableContents).toContainEqual(rc)
        await same((c) => c.spaces.getReusableContentDocumentInRevisionById(s.id, ra.id, rc.id))
        includes += 10
      }
    }
    expect(includes).toBeGreaterThanOrEqual(11)
    const [filesA, filesB] = await both((c) => c.spaces.listFiles(space))
    const strip = (list: typeof filesA) => list.items.map(({ downloadURL: _u, ...f }) => f)
    expect(strip(filesB)).toEqual(strip(filesA))
    expect(filesB.items).toHaveLength(1)
    const bytes = new Uint8Array(await (await b.fetch(new Request(filesB.items[0]!.downloadURL))).arrayBuffer())
    expect(bytes).toEqual(FILE_BYTES)
    // Sites: the list, each one's structure, customization, share links and redirects.
    const sites = await same((c) => c.orgs.listSites(org))
    expect(sites.items).toHaveLength(4)
    let linksAndRedirects = 0
    for (const site of sites.items) {
      await same((c) => c.orgs.getSiteStructure(org, site.id))
      await same((c) => c.orgs.getSiteCustomizationById(org, site.id))
      await same((c) => c.orgs.getSitePublishingAuthById(org, site.id))
      linksAndRedirects += (await same((c) => c.orgs.listSiteShareLinks(org, site.id))).items.length
      linksAndRedirects += 10 * (await same((c) => c.orgs.listSiteRedirects(org, site.id))).items.length
    }
    expect(linksAndRedirects).toBe(11)
    const sectioned = await same((c) => c.orgs.getSiteStructure(org, 'site-sections'))
    expect(sectioned).toMatchObject({ type: 'sections', structure: [{ id: 'section-guides' }, { id: 'group-products', children: [{ id: 'section-api' }] }] })
    // The published site resolves the same from its URL.
    const published = sites.items.find((s) => s.published && s.visibility === 'public')!.urls.published!
    await same(
      (c) => c.urls.getPublishedContentByUrl({ url: published }),
      ({ apiToken: _t, ...r }: any) => r,
    )
  })

  it("with a reader's token, copies what the reader may read, the rest left out with warnings", async () => {
    const { code, out, err } = await pull(['--endpoint', a.url, '--token', source.reader])
    expect(err.split('\n').filter((l) => l.startsWith('docs-content-api'))).toEqual([])
    expect(code).toBe(0)
    const state = JSON.parse(out) as Required<StateDocument>
    expect(state.spaces.length).toBeGreaterThan(0)
    expect(state.members.length).toBeGreaterThan(0)
    expect(state.sitePublishingAuth).toEqual([])
    expect(err).toMatch(/warning: site \S+ visitor authentication not read \(403\): left out/)
    const b = createDocsApi({ seed: state })
    const token = state.tokens[0]!.id
    const client = new GitBookAPI({ endpoint: 'http://b', authToken: token, serviceBinding: { fetch: b.fetch } })
    expect((await client.orgs.listSpacesInOrganizationById(source.org)).data.items.map((x) => x.id)).toEqual(state.spaces.map((x) => x.id))
  })

  it('with several organizations and no --org, is a usage error listing them', async () => {
    const { code, err } = await pull(['--endpoint', a.url, '--token', source.token])
    expect(code).toBe(2)
    expect(err).toContain("pull: the token's user is a member of 2 organizations: name one with --org <id>:")
    expect(err).toContain(`  ${source.org}  Acme Docs`)
    expect(err).toContain('  second-org  Second')
  })

  it("without --org, reads the token's only organization", async () => {
    const { state } = (await createDemoState()) as { state: Required<StateDocument> }
    const admin = state.members.find((m) => m.role === 'admin')!.user
    const one = await serve({ port: 0, seed: state })
    try {
      const { code, out } = await pull(['--endpoint', one.url, '--token', state.tokens.find((t) => t.user === admin)!.id])
      expect(code).toBe(0)
      expect((JSON.parse(out) as StateDocument).organizations!.map((o) => o.id)).toEqual([state.organizations[0]!.id])
    } finally {
      await one.close()
    }
  })

  it('runs as the command: the state on stdout (loadable), progress on stderr; a refused token exits 1 without a stack', async () => {
    const ok = await runBin(['pull', '--endpoint', a.url, '--token', source.token, '--org', source.org])
    expect(ok.code).toBe(0)
    expect(ok.err).toContain(`pulling organization Acme Docs (${source.org}) from ${a.url}`)
    const b = createDocsApi({ seed: JSON.parse(ok.out) as StateDocument })
    expect(b.dump().spaces).toHaveLength(3)
    const wrong = await runBin(['pull', '--endpoint', a.url, '--token', 'gb_api_not_a_token_of_a'])
    expect(wrong.code).toBe(1)
    expect(wrong.out).toBe('')
    expect(wrong.err).toContain('answered 401')
    expect(wrong.err).not.toContain('    at ')
  }, 60_000)

  it('waits out a rate limit (429) and asks again; says when the state does not load here, printing it all the same', async () => {
    const log: string[] = []
    let limited = 0
    const result = await pullOrganization({
      endpoint: a.url,
      token: source.token,
      org: source.org,
      log: (line) => void log.push(line),
      fetch: async (input, init) => {
        const url = new URL(input instanceof Request ? input.url : String(input))
        if (url.pathname.endsWith('/collections') && limited++ === 0) return new Response('slow down', { status: 429, headers: { 'retry-after': '1' } })
        const res = await fetch(input, init)
        // An organization title this API refuses (empty): the source holds what it does not.
        if (url.pathname === `/v1/orgs/${source.org}`) return Response.json({ ...((await res.json()) as object), title: '' })
        return res
      },
    })
    expect(limited).toBe(2)
    expect(log).toContain('    rate-limited (429): waiting 1 s')
    expect(result.state.collections).toHaveLength(2)
    expect(result.problem).toMatch(/^Invalid seed: `organizations\[0\]\.title`: /)

    const cli = await pull(['--endpoint', 'http://127.0.0.1:9', '--token', 'x'])
    expect(cli.code).toBe(1)
    expect(cli.err).toMatch(/^docs-content-api: pull: could not reach http:\/\/127\.0\.0\.1:9: /)
  })

  it('refuses missing options (exit 2) and reports a refused token (exit 1, no stack)', async () => {
    const noEndpoint = await pull(['--token', 'x'])
    expect(noEndpoint.code).toBe(2)
    expect(noEndpoint.err).toContain('pull: --endpoint <url> is required')
    const noToken = await pull(['--endpoint', a.url])
    expect(noToken.code).toBe(2)
    expect(noToken.err).toContain('pull: --token <token> is required')
    const badUrl = await pull(['--endpoint', 'not a url', '--token', 'x'])
    expect(badUrl.code).toBe(2)
    expect(badUrl.err).toContain('--endpoint not a url: must be a URL')

    const wrong = await pull(['--endpoint', a.url, '--token', 'gb_api_not_a_token_of_a'])
    expect(wrong.code).toBe(1)
    expect(wrong.out).toBe('')
    expect(wrong.err).toMatch(
      new RegExp(`^docs-content-api: pull: ${a.url.replace(/[.]/g, '\\.')} answered 401: .*\\(is the token right for this endpoint\\?\\)\\n$`),
    )
    expect(wrong.err).not.toContain('    at ')
  })
})
