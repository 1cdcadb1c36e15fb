import { randomBytes } from 'node:crypto'
import type { GitBookAPI, Revision, RevisionPage, SiteSection, SiteSectionGroup, SiteSpace, Space } from '@gitbook/api'
import { FANOUT, bucketOf } from '../domains/content/tree-index.js'
import { encodeBase64 } from '../domains/content/file-info.js'
import { STATE_FORMAT, STATE_VERSION, type StateBlob, type StateDocument } from '../state/seed.js'

/**
 * `docs-content-api pull`: read an organization through the official client (`@gitbook/api`, from
 * GitBook or from another docs-content-api) and make it a state document (state/seed.ts) that
 * `serve --seed` and `createDocsApi({ seed })` load. Ids are kept as the source has them, so links
 * between pages, spaces and sites stay valid. What the public API does not expose (other users'
 * tokens, history, change requests, comments) is left out: see docs/guide/command-line.md.
 * Node-only; the client is loaded when the command runs.
 */

export interface PullOptions {
  endpoint: string
  token: string
  /** The organization's id; without it, the token's only organization. */
  org?: string
  /** Progress and warnings (stderr). */
  log(line: string): void
  /** The fetch the client and file downloads use (tests). */
  fetch?: typeof fetch
}

/** A mistake of the caller's (no organization given among several): exit code 2. */
export class PullUsageError extends Error {}
/** The endpoint refused or failed a read (a wrong token, a network error): exit code 1, no stack. */
export class PullError extends Error {}

type Row = Record<string, unknown>
type Page<T> = { items: T[]; next?: { page: string } }

/** Every item of a paginated list. */
async function all<T>(list: (page: string | undefined) => Promise<{ data: Page<T> }>): Promise<T[]> {
  const items: T[] = []
  let page: string | undefined
  do {
    const { data } = await list(page)
    items.push(...data.items)
    page = data.next?.page
  } while (page !== undefined)
  return items
}

/** Drop undefined values (the rows are strict: an absent field, not an undefined one). */
function defined<T extends Row>(row: T): T {
  for (const key of Object.keys(row)) if (row[key] === undefined) delete row[key]
  return row
}

const newToken = () => `gb_api_${randomBytes(18).toString('base64url')}`
const newId = () => randomBytes(15).toString('base64url')

/** How many times a read the endpoint rate-limits (429) is made again, and the longest wait before one. */
const RETRIES = 5
const MAX_WAIT_MS = 60_000

/** `fetch` waiting out a 429 (its Retry-After, in seconds, or 1, 2, 4... seconds) before asking again. */
function patientFetch(inner: typeof fetch, log: (line: string) => void): typeof fetch {
  return async (input, init) => {
    for (let attempt = 0; ; attempt++) {
      const res = await inner(input instanceof Request ? input.clone() : input, init)
      if (res.status !== 429 || attempt === RETRIES) return res
      const after = Number(res.headers.get('retry-after'))
      const wait = Math.min(Number.isFinite(after) && after > 0 ? after * 1000 : 1000 * 2 ** attempt, MAX_WAIT_MS)
      log(`    rate-limited (429): waiting ${Math.round(wait / 1000)} s`)
      await res.body?.cancel()
      await new Promise((done) => setTimeout(done, wait))
    }
  }
}

/**
 * The state document of the organization, and `problem` when this version of docs-content-api
 * does not load it (the row and field it refuses): the document is there all the same, to edit.
 */
export async function pull(options: PullOptions): Promise<{ state: StateDocument; problem?: string }> {
  const { GitBookAPI, GitBookAPIError } = await import('@gitbook/api')
  const endpoint = options.endpoint.replace(/\/+$/, '')
  const doFetch = patientFetch(options.fetch ?? fetch, options.log)
  const client = new GitBookAPI({ authToken: options.token, endpoint, serviceBinding: { fetch: doFetch } })
  let state: StateDocument
  try {
    state = await pullWith(client, { ...options, endpoint, fetch: doFetch })
  } catch (error) {
    if (error instanceof GitBookAPIError) {
      const status = error.code
      const hint = status === 401 ? ' (is the token right for this endpoint?)' : ''
      throw new PullError(`${endpoint} answered ${status}: ${error.errorMessage || error.message}${hint}`)
    }
    if (error instanceof TypeError && /fetch failed/.test(error.message)) {
      const cause = (error as { cause?: { message?: string } }).cause?.message
      throw new PullError(`could not reach ${endpoint}: ${cause ?? error.message}`)
    }
    throw error
  }
  // Loaded once here, so what the source holds that this API refuses is said now, not at `serve --seed`.
  const [{ createDocsApi }, { preload }] = await Promise.all([import('../api.js'), import('../domains/preload.js')])
  await preload()
  try {
    createDocsApi({ seed: state })
  } catch (error) {
    if ((error as { status?: number }).status !== 400) throw error
    return { state, problem: (error as Error).message }
  }
  return { state }
}

async function pullWith(client: GitBookAPI, options: PullOptions & { fetch: typeof fetch }): Promise<StateDocument> {
  const { log } = options
  const me = (await client.user.getAuthenticatedUser()).data

  // The organization.
  let orgId = options.org
  if (orgId === undefined) {
    const orgs = await all((page) => client.orgs.listOrganizationsForAuthenticatedUser({ page }))
    if (orgs.length === 0) throw new PullError(`the token's user (${me.displayName}, ${me.id}) is a member of no organization`)
    if (orgs.length > 1)
      throw new PullUsageError(
        `the token's user is a member of ${orgs.length} organizations: name one with --org <id>:\n${orgs.map((o) => `  ${o.id}  ${o.title}`).join('\n')}`,
      )
    orgId = orgs[0]!.id
  }
  const org = (await client.orgs.getOrganizationById(orgId)).data
  log(`pulling organization ${org.title} (${org.id}) from ${options.endpoint} as ${me.displayName}`)

  const users = new Map<string, Row>()
  const addUser = (u: { id: string; displayName: string; email?: string; photoURL?: string }) => {
    if (!users.has(u.id)) users.set(u.id, defined({ id: u.id, displayName: u.displayName, email: u.email, photoURL: u.photoURL, emailVerified: true }))
  }
  addUser(me)

  const organizations: Row[] = [
    defined({
      id: org.id,
      title: org.title,
      createdAt: org.createdAt,
      emailDomains: org.emailDomains,
      hostname: org.hostname,
      type: org.type,
      useCase: org.useCase,
      communityType: org.communityType,
      defaultRole: org.defaultRole,
      // The default site is set once the sites are in (below).
      sso: org.sso,
      ai: org.ai,
      inviteLinks: org.inviteLinks,
      plan: org.plan,
      mergeRules: org.mergeRules,
      logo: org.urls.logo,
    }),
  ]

  // Members and teams.
  // A token that may not list members (a guest's) keeps its own membership at least.
  const memberList = (await optional(() => all((page) => client.orgs.listMembersInOrganizationById(org.id, { page })), log, 'the members')) ?? [
    (await client.orgs.getMemberInOrganizationById(org.id, me.id)).data,
  ]
  const members: Row[] = memberList.map((m) => {
    addUser(m.user)
    return defined({
      id: `${org.id}/${m.user.id}`,
      organization: org.id,
      user: m.user.id,
      role: m.role,
      disabled: m.disabled,
      sso: m.sso,
      joinedAt: m.joinedAt,
      lastSeenAt: m.lastSeenAt,
    })
  })
  const memberIds = new Set(memberList.map((m) => m.user.id))
  const teams: Row[] = []
  const teamMembers: Row[] = []
  const teamList = (await optional(() => all((page) => client.orgs.listTeamsInOrganizationById(org.id, { page })), log, 'the teams')) ?? []
  for (const team of teamList) teams.push(defined({ id: team.id, organization: org.id, title: team.title, createdAt: team.createdAt }))
  const addTeamMember = (team: string, user: string, role: string) => {
    if (memberIds.has(user)) teamMembers.push({ id: `${team}/${user}`, team, organization: org.id, user, role })
  }
  try {
    for (const team of teamList)
      for (const tm of await all((page) => client.orgs.listTeamMembersInOrganizationById(org.id, team.id, { page })))
        addTeamMember(team.id, tm.organization.user.id, tm.team.role)
  } catch (error) {
    // An API without the team's member list (docs-content-api answers it 501): each member's teams instead.
    if ((error as { code?: number }).code !== 501 || teamList.length === 0) throw error
    teamMembers.length = 0
    for (const m of memberList)
      for (const { team, member } of await all((page) => client.orgs.listTeamsForOrganizationMember(org.id, m.user.id, { page })))
        addTeamMember(team.id, m.user.id, member.role)
  }
  log(`  ${members.length} members, ${teams.length} teams`)

  // Collections and spaces.
  const collections: Row[] = (await all((page) => client.orgs.listCollectionsInOrganizationById(org.id, { page }))).map((c) =>
    defined({ id: c.id, organization: org.id, parent: c.parent, title: c.title, description: c.description, defaultLevel: c.defaultLevel }),
  )
  const teamIds = new Set(teamList.map((t) => t.id))
  // Permissions given to members and teams on each collection (and its sub-collections, spaces).
  const collectionGrants: Row[] = []
  for (const c of collections) {
    const id = c.id as string
    const grants = await pullGrants(
      () => all((page) => client.collections.listUserPermissionsInCollection(id, { page })),
      () => all((page) => client.collections.listTeamPermissionsInCollection(id, { page })),
      log,
      `collection ${id} permissions`,
    )
    collectionGrants.push(...grantRows('collection', id, org.id, grants, memberIds, teamIds))
  }
  const spaceList = (await all((page) => client.orgs.listSpacesInOrganizationById(org.id, { page }))).filter((s) => s.deletedAt === undefined)
  const state: Required<Pick<StateDocument, 'spaces' | 'spaceGrants' | 'revisions' | 'contentBuckets' | 'pageVersions' | 'reusableContentVersions' | 'files'>> =
    {
      spaces: [],
      spaceGrants: [],
      revisions: [],
      contentBuckets: [],
      pageVersions: [],
      reusableContentVersions: [],
      files: [],
    }
  const blobs: StateBlob[] = []
  // Version ids taken so far (a page's `documentId` is its version's id here; ids are global).
  const usedIds = new Set<string>()
  for (const space of spaceList) {
    log(`  space ${space.title} (${space.id})`)
    await pullSpace(client, options, space, org.id, state, blobs, memberIds, teams, usedIds)
  }

  // Sites and their structure.
  const sites: Row[] = []
  const siteSectionGroups: Row[] = []
  const siteSections: Row[] = []
  const siteSpaces: Row[] = []
  const siteCustomizations: Row[] = []
  const sitePublishingAuth: Row[] = []
  const shareLinks: Row[] = []
  const siteRedirects: Row[] = []
  const siteGrants: Row[] = []
  const spaceIds = new Set(spaceList.map((s) => s.id))
  for (const site of await all((page) => client.orgs.listSites(org.id, { page }))) {
    log(`  site ${site.title} (${site.id})`)
    sites.push(
      defined({
        id: site.id,
        organization: org.id,
        type: site.type,
        title: site.title,
        visibility: site.visibility,
        published: site.published,
        createdAt: site.createdAt,
        hostname: site.hostname,
        basename: site.basename,
        proxy: site.proxy?.origin,
        adaptiveContent: site.adaptiveContent,
      }),
    )
    const common = { site: site.id, organization: org.id }
    const grants = await pullGrants(
      () => all((page) => client.orgs.listUserPermissionsInSite(org.id, site.id, { page })),
      () => all((page) => client.orgs.listTeamPermissionsInSite(org.id, site.id, { page })),
      log,
      `site ${site.id} permissions`,
    )
    siteGrants.push(...grantRows('site', site.id, org.id, grants, memberIds, teamIds))
    // Positions as the structure orders them (groups and sections share their container's order).
    const addSiteSpace = (ss: SiteSpace, position: number, section?: string) => {
      if (!spaceIds.has(ss.space.id)) return log(`    warning: site-space ${ss.id} publishes space ${ss.space.id}, not read: left out`)
      siteSpaces.push(
        defined({
          id: ss.id,
          ...common,
          position,
          section,
          space: ss.space.id,
          path: ss.path,
          title: ss.title === ss.space.title ? undefined : ss.title,
          default: ss.default ?? false,
          condition: ss.condition,
          hidden: ss.hidden ?? false,
        }),
      )
    }
    const addSection = (s: SiteSection, position: number) => {
      siteSections.push(
        defined({
          id: s.id,
          ...common,
          position,
          sectionGroup: s.sectionGroup,
          title: s.title,
          path: s.path,
          description: s.description,
          condition: s.condition,
          icon: s.icon,
          default: s.default ?? false,
        }),
      )
      s.siteSpaces.forEach((ss, i) => addSiteSpace(ss, i + 1, s.id))
    }
    const addItem = (item: SiteSection | SiteSectionGroup | { object: string; id?: string }, position: number) => {
      if (item.object === 'site-section') addSection(item as SiteSection, position)
      else if (item.object === 'site-section-group') {
        const g = item as SiteSectionGroup
        siteSectionGroups.push(defined({ id: g.id, ...common, position, sectionGroup: g.sectionGroup, title: g.title, icon: g.icon }))
        ;(g.children ?? g.sections).forEach((child, i) => addItem(child, i + 1))
      } else log(`    warning: ${item.object} ${item.id ?? ''} of the site's structure is not kept (no such row here)`)
    }
    const structure = (await client.orgs.getSiteStructure(org.id, site.id)).data
    if (structure.type === 'siteSpaces') structure.structure.forEach((ss, i) => addSiteSpace(ss, i + 1))
    else structure.structure.forEach((item, i) => addItem(item, i + 1))

    const customization = await optional(() => client.orgs.getSiteCustomizationById(org.id, site.id), log, `site ${site.id} customization`)
    // Officially, no `updatedAt` means the customization was never updated: the defaults, no row.
    if (customization?.data.updatedAt !== undefined) {
      const { object: _object, updatedAt, ...settings } = customization.data as unknown as Row
      siteCustomizations.push(defined({ id: newId(), ...common, settings, updatedAt }))
    }
    // Visitor authentication: its private key too (admins read it), so visitors' JWTs signed for the source keep opening the copy.
    const auth = await optional(() => client.orgs.getSitePublishingAuthById(org.id, site.id), log, `site ${site.id} visitor authentication`)
    if (auth)
      sitePublishingAuth.push(
        defined({
          id: newId(),
          ...common,
          privateKey: auth.data.privateKey,
          backend: auth.data.backend,
          fallbackURL: auth.data.fallbackURL,
          logoutURL: auth.data.logoutURL,
        }),
      )
    for (const link of (await optional(() => all((page) => client.orgs.listSiteShareLinks(org.id, site.id, { page })), log, `site ${site.id} share links`)) ??
      [])
      shareLinks.push(
        defined({
          id: link.id,
          ...common,
          key: shareKey(link.urls.published, log, link.id),
          name: link.name ?? 'Share link',
          active: link.active ?? true,
          createdAt: link.createdAt,
        }),
      )
    for (const r of (await optional(() => all((page) => client.orgs.listSiteRedirects(org.id, site.id, { page })), log, `site ${site.id} redirects`)) ?? [])
      siteRedirects.push(
        defined({
          id: r.id,
          ...common,
          source: r.source,
          draft: r.draft,
          captureWildcard: r.captureWildcard,
          permanent: r.permanent,
          destination: r.destination,
          createdAt: r.createdAt,
        }),
      )
  }
  if (org.defaultContent?.type === 'site' && sites.some((s) => s.id === org.defaultContent!.site)) organizations[0]!.defaultContent = org.defaultContent

  // The pulling user gets a token of the new state: other users' tokens are not readable.
  const token = newToken()
  log(`done: ${users.size} users, ${spaceList.length} spaces, ${state.pageVersions.length} pages, ${state.files.length} files, ${sites.length} sites`)
  log(`a new token for ${me.displayName} (${me.id}) in the pulled state (the source's token is not copied): ${token}`)

  const doc: StateDocument = {
    format: STATE_FORMAT,
    version: STATE_VERSION,
    users: [...users.values()] as never,
    tokens: [{ id: token, user: me.id }] as never,
    organizations: organizations as never,
    members: members as never,
    teams: teams as never,
    teamMembers: teamMembers as never,
    collections: collections as never,
    collectionGrants: collectionGrants as never,
    ...state,
    sites: sites as never,
    siteCustomizations: siteCustomizations as never,
    sitePublishingAuth: sitePublishingAuth as never,
    siteSectionGroups: siteSectionGroups as never,
    siteSections: siteSections as never,
    siteSpaces: siteSpaces as never,
    shareLinks: shareLinks as never,
    siteRedirects: siteRedirects as never,
    siteGrants: siteGrants as never,
  }
  if (blobs.length > 0) doc.blobs = blobs
  return doc
}

/** A read the token may not be allowed (a site's settings for a non-admin): a warning, not a failure. */
async function optional<T>(read: () => Promise<T>, log: (line: string) => void, what: string): Promise<T | undefined> {
  try {
    return await read()
  } catch (error) {
    const status = (error as { code?: number }).code
    if (status === 403 || status === 404 || status === 501) {
      log(`    warning: ${what} not read (${status}): left out`)
      return undefined
    }
    throw error
  }
}

type SpaceState = Required<
  Pick<StateDocument, 'spaces' | 'spaceGrants' | 'revisions' | 'contentBuckets' | 'pageVersions' | 'reusableContentVersions' | 'files'>
>

async function pullSpace(
  client: GitBookAPI,
  options: PullOptions & { fetch: typeof fetch },
  space: Space,
  orgId: string,
  state: SpaceState,
  blobs: StateBlob[],
  memberIds: ReadonlySet<string>,
  teams: readonly Row[],
  usedIds: Set<string>,
): Promise<void> {
  const { log } = options
  const rev: Revision = (await client.spaces.getCurrentRevision(space.id)).data
  state.spaces.push(
    defined({
      id: space.id,
      organization: orgId,
      parent: space.parent,
      title: space.title,
      emoji: space.emoji ?? '',
      icon: space.emoji ? undefined : space.urls.icon,
      visibility: space.visibility,
      createdAt: space.createdAt,
      updatedAt: space.updatedAt,
      editMode: space.editMode,
      mergeRules: space.mergeRules,
      language: space.language,
      revision: rev.id,
      defaultLevel: space.defaultLevel,
    }) as never,
  )

  // Permissions given to members and teams on the space.
  const grants = await pullGrants(
    () => all((page) => client.spaces.listUserPermissionsInSpace(space.id, { page })),
    () => all((page) => client.spaces.listTeamPermissionsInSpace(space.id, { page })),
    log,
    `space ${space.id} permissions`,
  )
  state.spaceGrants.push(...(grantRows('space', space.id, orgId, grants, memberIds, new Set(teams.map((t) => t.id as string))) as never[]))

  // Pages: one version each (the current one), with its document (read 4 at a time).
  const flat = (pages: readonly RevisionPage[]): RevisionPage[] => pages.flatMap((p) => [p, ...('pages' in p ? flat(p.pages) : [])])
  const documents = new Map<string, { document?: unknown; documentId?: string }>()
  const queue = flat(rev.pages).filter((p) => p.type === 'document')
  await Promise.all(
    Array.from({ length: Math.min(4, queue.length) }, async () => {
      for (let page = queue.shift(); page; page = queue.shift()) {
        const read = (await client.spaces.getPageById(space.id, page.id, { format: 'document' })).data as { document?: unknown; documentId?: string }
        documents.set(page.id, read)
      }
    }),
  )
  const entries = new Map<string, string>()
  const walk = (pages: readonly RevisionPage[], parent: string | undefined): string[] => {
    const ids: string[] = []
    for (const page of pages) {
      if (page.type === 'computed') {
        log(`    warning: computed page ${page.id} (${page.title}) is not kept (no computed pages here)`)
        continue
      }
      const children = 'pages' in page ? walk(page.pages, page.id) : []
      let document: unknown = { object: 'document', data: { schemaVersion: 1 }, nodes: [] }
      let versionId: string | undefined
      if (page.type === 'document') {
        const read = documents.get(page.id)!
        if (read.document) document = read.document
        versionId = read.documentId ?? (page as { documentId?: string }).documentId
      } else if (page.type === 'link') log(`    warning: link page ${page.id} (${page.title}) kept without its target (a link page here has none)`)
      const id = versionId && !usedIds.has(versionId) && /^[\x21-\x7e]{1,200}$/.test(versionId) ? versionId : newId()
      usedIds.add(id)
      const p = page as RevisionPage & { slug?: string; description?: string; hidden?: boolean; noIndex?: boolean; noRobotsIndex?: boolean }
      state.pageVersions.push(
        defined({
          id,
          page: page.id,
          space: space.id,
          type: page.type,
          title: page.title,
          slug: p.slug ?? '',
          parent,
          children,
          emoji: page.emoji,
          icon: page.icon,
          description: p.description,
          hidden: p.hidden,
          noIndex: p.noIndex,
          noRobotsIndex: p.noRobotsIndex,
          condition: page.condition,
          document,
          createdAt: page.createdAt,
          updatedAt: page.updatedAt,
        }) as never,
      )
      entries.set(page.id, id)
      ids.push(page.id)
    }
    return ids
  }
  const rootPages = walk(rev.pages, undefined)

  // The page index (domains/content/tree-index.ts): FANOUT buckets by the page id's hash.
  const buckets = new Array<string>(FANOUT).fill('')
  const byBucket = new Map<number, Record<string, string>>()
  for (const [page, version] of entries) {
    const b = bucketOf(page)
    byBucket.set(b, { ...byBucket.get(b), [page]: version })
  }
  for (const [b, bucketEntries] of byBucket) {
    const id = newId()
    state.contentBuckets.push({ id, entries: bucketEntries } as never)
    buckets[b] = id
  }

  // Files, with their bytes.
  const fileIds: string[] = []
  for (const file of rev.files) {
    const res = await options.fetch(
      file.downloadURL,
      sameOrigin(file.downloadURL, options.endpoint) ? { headers: { authorization: `Bearer ${options.token}` } } : {},
    )
    if (!res.ok) {
      log(`    warning: file ${file.id} (${file.name}) not downloaded (${res.status}): left out`)
      continue
    }
    const bytes = new Uint8Array(await res.arrayBuffer())
    // Unguessable, as the API's own keys: a download URL carries no token (domains/content/encode.ts).
    const key = randomBytes(24).toString('base64url')
    blobs.push({ key, contentType: file.contentType, base64: encodeBase64(bytes) })
    state.files.push(
      defined({
        id: file.id,
        space: space.id,
        name: file.name,
        contentType: file.contentType,
        size: bytes.byteLength,
        dimensions: file.dimensions,
        blob: key,
        git: file.git,
      }) as never,
    )
    fileIds.push(file.id)
  }

  // Reusable contents, with their documents.
  const reusableContents: Record<string, string> = {}
  for (const rc of (rev as Revision & { reusableContents?: Array<{ id: string; title: string; document: string }> }).reusableContents ?? []) {
    const document = (await client.spaces.getReusableContentDocumentInRevisionById(space.id, rev.id, rc.id)).data
    const id = !usedIds.has(rc.document) && /^[\x21-\x7e]{1,200}$/.test(rc.document) ? rc.document : newId()
    usedIds.add(id)
    state.reusableContentVersions.push({ id, reusableContent: rc.id, space: space.id, title: rc.title, document } as never)
    reusableContents[rc.id] = id
  }

  state.revisions.push(
    defined({
      id: rev.id,
      space: space.id,
      type: 'edits',
      createdAt: rev.createdAt,
      rootPages,
      buckets: byBucket.size === 0 ? [] : buckets,
      files: fileIds,
      variables: (rev as { variables?: Record<string, string> }).variables ?? {},
      reusableContents: Object.keys(reusableContents).length > 0 ? reusableContents : undefined,
    }) as never,
  )
  log(`    ${entries.size} pages, ${fileIds.length} files`)
}

interface Grants {
  /** A site's answer may hold `null` (a guest's): no grant row says that, so it is left out. */
  users: ReadonlyArray<{ permission: string | null; user: { id: string } }>
  teams: ReadonlyArray<{ permission: string | null; team: { id: string } }>
}

/** The user and team permissions of a space, collection or site; a token that may not list them (or an API without them) reads none, with a warning. */
function pullGrants(
  users: () => Promise<Grants['users']>,
  teams: () => Promise<Grants['teams']>,
  log: (line: string) => void,
  what: string,
): Promise<Grants | undefined> {
  return optional(async () => ({ users: await users(), teams: await teams() }), log, what)
}

/**
 * The grant rows of a space, collection or site (`spaceGrants`, `collectionGrants`, `siteGrants`:
 * ids `${resource}/user:${id}` and `${resource}/team:${id}`), for the members and teams pulled.
 */
function grantRows(
  kind: 'space' | 'collection' | 'site',
  resource: string,
  organization: string,
  grants: Grants | undefined,
  memberIds: ReadonlySet<string>,
  teamIds: ReadonlySet<string>,
): Row[] {
  const rows: Row[] = []
  for (const g of grants?.users ?? [])
    if (g.permission !== null && memberIds.has(g.user.id))
      rows.push({ id: `${resource}/user:${g.user.id}`, [kind]: resource, organization, principal: { type: 'user', user: g.user.id }, role: g.permission })
  for (const g of grants?.teams ?? [])
    if (g.permission !== null && teamIds.has(g.team.id))
      rows.push({ id: `${resource}/team:${g.team.id}`, [kind]: resource, organization, principal: { type: 'team', team: g.team.id }, role: g.permission })
  return rows
}

/** A share link's key: the last segment of its published URL (`<site URL>/<key>`); a new one when there is none. */
function shareKey(url: string | undefined, log: (line: string) => void, id: string): string {
  const last = url ? new URL(url).pathname.split('/').filter(Boolean).pop() : undefined
  if (last && /^[\x21-\x7e]{1,200}$/.test(last)) return last
  log(`    warning: share link ${id} has no key in its published URL: a new key is made (its old URL no longer opens the site)`)
  return newId()
}

function sameOrigin(url: string, endpoint: string): boolean {
  try {
    return new URL(url).origin === new URL(endpoint).origin
  } catch {
    return false
  }
}
