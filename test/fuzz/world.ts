import { createDocsApi, createMemoryStore, schema, type DocsApi } from '../../src/index.js'
import { createClock, sequentialIds } from '../../src/testing.js'
import { encodeCursor } from '../../src/core/paging.js'
import { createTickets } from '../../src/core/tickets.js'
import { ticketDropped } from '../../src/domains/index.js'
import { API_CORE } from '../../src/http/api-core.js'
import { createMemoryBlobs } from '../../src/storage/blobs.js'
import { CERTIFICATE as WORLD_CERTIFICATE } from '../fixtures/pem.js'
import { INSTALLATION_SCOPES, MEMBER_CALLERS, ROLE_OF, type Caller, type MemberCaller } from './callers.js'

export const BASE = 'http://localhost:4000'

/** A small valid OpenAPI document. */
const SPEC = JSON.stringify({ openapi: '3.0.3', info: { title: 'Fuzz', version: '1' }, paths: {} })

/**
 * The world's outgoing fetch: nothing leaves the process. Any URL answers SPEC (an OpenAPI spec's
 * URL source is processed, a file's URL inserted; a Git remote answers what is no Git protocol, so
 * an import fails); one whose path ends in `.png` answers a 1x1 PNG.
 */
export const worldFetch = (async (input: RequestInfo | URL) => {
  const url = String(input instanceof Request ? input.url : input)
  if (url.endsWith('.png'))
    return new Response(
      Uint8Array.from(atob(PNG), (c) => c.charCodeAt(0)),
      { headers: { 'content-type': 'image/png' } },
    )
  return new Response(SPEC, { headers: { 'content-type': 'application/json' } })
}) as typeof fetch
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='

const START = '2026-02-20T10:00:00.000Z'
/** Nine days after START: a space deleted at START is past its 7-day restore window. */
const NOW = '2026-03-01T10:00:00.000Z'

/** Every API of the fuzz world signs site tokens with this secret: a token of the built world works in each fresh one. */
const SITE_TOKEN_SECRET = 'fuzz-world-site-token-secret-0123456789'

/**
 * The seeded world, the same on every build (fixed clock, sequential ids): the main organization
 * with one user per caller kind, resources of every kind, a sister organization where the admin
 * caller is admin too (a target for transfers), and a foreign organization none of the callers
 * belongs to (its ids are the "foreign id" inputs). Built through `api.fixtures`; what fixtures
 * cannot build (site structure, share links, the adaptive schema, a default level) goes through
 * `api.fetch` as the admin, so it follows the same rules as any request.
 */
async function buildWorld() {
  const clock = createClock(START)
  const next = sequentialIds('id')
  let idCount = 0
  const ids = () => (idCount++, next())
  // File bytes are kept apart from the rows: each fresh world gets a fork of them (downloads serve them).
  const blobs = createMemoryBlobs({ newKey: sequentialIds('blob') })
  const api = createDocsApi({
    baseUrl: BASE,
    now: clock.now,
    ids,
    onError: () => {},
    fetch: worldFetch,
    blobs,
    siteTokenSecret: SITE_TOKEN_SECRET,
    integrations: MATRIX_INTEGRATIONS,
  })
  const f = api.fixtures
  const user = (name: string) => f.createUser({ displayName: `${name} user`, email: `${name}@acme.test` })

  const users = {} as Record<MemberCaller | 'member' | 'foreignAdmin', { id: string }>
  for (const kind of [...MEMBER_CALLERS, 'member', 'foreignAdmin'] as const) users[kind] = await user(kind)
  const tokens = { anonymous: undefined, badToken: 'gb_api_not_a_token' } as Record<Caller, string | undefined>
  for (const kind of MEMBER_CALLERS) tokens[kind] = await f.createToken(users[kind].id)

  const members = MEMBER_CALLERS.filter((k) => ROLE_OF[k] !== undefined).map((k) => ({ user: users[k].id, role: ROLE_OF[k]! }))
  const org = await f.createOrganization({ title: 'Acme', emailDomains: ['acme.test'], members: [...members, { user: users.member.id, role: 'read' }] })
  const sister = await f.createOrganization({ title: 'Initech', members: [{ user: users.admin.id, role: 'admin' }] })
  const foreign = await f.createOrganization({ title: 'Globex', members: [{ user: users.foreignAdmin.id, role: 'admin' }] })
  const adminToken = tokens.admin!
  const foreignToken = await f.createToken(users.foreignAdmin.id)
  const http = (token: string) => async (method: string, path: string, body?: unknown) => {
    const init: RequestInit = { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } }
    if (body !== undefined) init.body = JSON.stringify(body)
    const res = await api.fetch(new Request(`${BASE}${path}`, init))
    if (!res.ok) throw new Error(`world: ${method} ${path} answered ${res.status} ${await res.text()}`)
    return res.status === 204 ? undefined : res.json()
  }
  const admin = http(adminToken)

  // Collections: an empty one (the matrix target: only an empty collection can be deleted), a
  // parent with a child and a space, and a child whose default level gives members `edit`.
  const emptyCollection = await f.createCollection(org.id, { title: 'Empty' })
  const parentCollection = await f.createCollection(org.id, { title: 'Parent' })
  const childCollection = await f.createCollection(org.id, { title: 'Child', parent: parentCollection.id })
  await admin('PATCH', `/v1/collections/${childCollection.id}`, { defaultLevel: 'edit' })

  // Spaces of every visibility; the private one at the root is the matrix target.
  const space = (title: string, input: object = {}) => f.createSpace(org.id, { title, ...input })
  const privateSpace = await space('Private')
  const publicSpace = await space('Public', { visibility: 'public' })
  const unlistedSpace = await space('Unlisted', { visibility: 'unlisted' })
  const shareLinkSpace = await space('Share link', { visibility: 'share-link' })
  const visitorAuthSpace = await space('Visitor auth', { visibility: 'visitor-auth' })
  const inCollectionSpace = await space('In collection', { parent: parentCollection.id })
  const childSpace = await space('In child', { parent: childCollection.id })
  const grantedSpace = await space('Granted')
  const [spaceA, spaceB, spaceC, spaceD] = [await space('Alpha'), await space('Beta'), await space('Gamma'), await space('Delta')]
  const expiredSpace = await space('Expired')
  await f.deleteSpace(expiredSpace.id)
  clock.set(NOW)
  const trashedSpace = await space('Trashed')
  await f.deleteSpace(trashedSpace.id)

  // Teams: the matrix target has no caller in it (so reading or renaming it needs the organization
  // role); another is owned by the editor and holds the guest and the reader.
  const team = await f.createTeam(org.id, { title: 'Target team', owners: [users.member.id] })
  const guestTeam = await f.createTeam(org.id, { title: 'Guests', owners: [users.edit.id], members: [users.guest.id, users.read.id] })
  await f.grantSpace(grantedSpace.id, { user: users.guest.id }, 'edit')
  await f.grantSpace(grantedSpace.id, { team: guestTeam.id }, 'comment')
  await f.grantSpace(privateSpace.id, { user: users.member.id }, 'read')
  await f.grantSpace(publicSpace.id, { team: team.id }, 'edit')
  const invite = await f.createInviteLink(org.id, 'read')

  // The main site: sections A and B at the root, B holding a second site-space, a group holding
  // section C; a share link, an adaptive schema and a customization.
  const site = await f.createSite(org.id, { title: 'Docs', published: true })
  const base = `/v1/orgs/${org.id}/sites/${site.id}`
  const sectionA = await admin('POST', `${base}/sections`, { spaceId: spaceA.id })
  const sectionB = await admin('POST', `${base}/sections`, { spaceId: spaceB.id })
  const siteSpaceB2 = await admin('POST', `${base}/site-spaces`, { spaceId: spaceC.id, sectionId: sectionB.id })
  const sectionC = await admin('POST', `${base}/sections`, { spaceId: spaceD.id })
  const group = await admin('POST', `${base}/section-groups`, { title: 'Guides', sections: [sectionC.id] })
  const shareLink = await admin('POST', `${base}/share-links`, { name: 'Partners' })
  // Redirects: a live one to section B (the matrix target), a wildcard to an external URL, a draft.
  const redirect = await admin('POST', `${base}/redirects`, { source: '/old', destination: { kind: 'site-section', siteSectionId: sectionB.id } })
  await admin('POST', `${base}/redirects`, { source: '/blog/*', captureWildcard: true, destination: { kind: 'external', url: 'https://blog.acme.test' } })
  const draftRedirect = await admin('POST', `${base}/redirects`, {
    source: '/old',
    draft: true,
    destination: { kind: 'site-space', siteSpaceId: siteSpaceB2.id },
  })
  await admin('PUT', `${base}/adaptive-schema`, {
    jsonSchema: { type: 'object', properties: { beta: { type: 'boolean' } }, additionalProperties: false },
  })
  // Its customization, and an override of it on the matrix's site-space (deleting it answers 205).
  await admin('PUT', `${base}/customization`, { title: 'Docs', styling: { theme: 'bold' } })
  await admin('PATCH', `${base}/site-spaces/${siteSpaceB2.id}/customization`, { styling: { theme: 'muted' } })
  // Its grants to the matrix's user (no caller) and team: removing either answers 205 (204 only when there is none).
  await admin('PATCH', `${base}/permissions/users/${users.member.id}`, { role: 'read' })
  await admin('PATCH', `${base}/permissions/teams/${team.id}`, { role: 'read' })
  // A published share-link site opened by a key, and an unpublished one with site-spaces at its root.
  const shareSite = await f.createSite(org.id, { title: 'Partners', visibility: 'share-link', spaces: [shareLinkSpace.id, publicSpace.id], published: true })
  const shareSiteLink = await admin('POST', `/v1/orgs/${org.id}/sites/${shareSite.id}/share-links`, { name: 'Key' })
  const draftSite = await f.createSite(org.id, { title: 'Draft', visibility: 'unlisted', spaces: [spaceA.id, unlistedSpace.id] })
  const siteSpaceRows: Array<{ id: string; space: { id: string } }> = (await admin('GET', `${base}/site-spaces`)).items
  const siteSpaces = siteSpaceRows.map((s) => s.id)
  const siteSpaceB1 = siteSpaceRows.find((s) => s.space.id === spaceB.id)!.id
  const draftSiteSpaces = (await admin('GET', `/v1/orgs/${org.id}/sites/${draftSite.id}/site-spaces`)).items.map((s: { id: string }) => s.id)

  // Content: in the private and the public space, change request #1 merged a file and two pages
  // (the same titles, so the same paths) into main; #2, open on that content, has a review
  // request and a review, and its number addresses it in both spaces. The ids differ per space: the public variant of the matrix takes its own.
  const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='
  const content = async (spaceId: string) => {
    const base = `/v1/spaces/${spaceId}/change-requests`
    const cr = await admin('POST', base, { subject: 'Draft' })
    const edit = await admin('POST', `${base}/${cr.id}/content?compat=false`, {
      changes: [
        { operation: 'insert_files', files: [{ name: 'dot.png', contentType: 'image/png', base64: png, ref: 'dot' }] },
        { operation: 'insert_page', title: 'Welcome', document: { markdown: '![dot](./dot) [next](./n.md)' } },
        { operation: 'insert_page', title: 'Next', ref: 'n', document: { markdown: 'Next page' } },
        { operation: 'insert_reusable_content', title: 'Support', document: { markdown: 'Ask us.' } },
      ],
    })
    await admin('POST', `${base}/${cr.id}/merge`)
    const reusableContent: string = (await admin('GET', `/v1/spaces/${spaceId}/content`)).reusableContents[0].id
    // #2 opens on the merged content: the same pages and files, in main and in the change request.
    const open = await admin('POST', base, { subject: 'Open' })
    await admin('POST', `${base}/${open.id}/requested-reviewers`, { users: [users.member.id] })
    const review = await admin('POST', `${base}/${open.id}/reviews`, { status: 'changes-requested' })
    // Comments, each with a reply, posted by the admin: on main (about the first page) and in #2.
    const thread = async (path: string, extra: object = {}) => {
      const comment = await admin('POST', `${path}/comments`, { body: { markdown: 'A **comment**' }, ...extra })
      const reply = await admin('POST', `${path}/comments/${comment.id}/replies`, { body: { markdown: 'A reply' } })
      return { commentId: comment.id as string, commentReplyId: reply.id as string }
    }
    const comments = { space: await thread(`/v1/spaces/${spaceId}`, { page: edit.changes[0].page.id }), changeRequest: await thread(`${base}/${open.id}`) }
    const blobKey = new URL(edit.insertedFiles[0].downloadURL).pathname.split('/')[2]!
    // The first page's body in main, by its document id (getDocumentById).
    const document: string = (await admin('GET', `/v1/spaces/${spaceId}/content/page/${edit.changes[0].page.id}`)).documentId
    return {
      cr: open.id,
      page: edit.changes[0].page.id,
      file: edit.insertedFiles[0].id,
      blobKey,
      review: review.id,
      revision: open.revision,
      comments,
      document,
      reusableContent,
    }
  }
  const privateContent = await content(privateSpace.id)
  const publicContent = await content(publicSpace.id)
  // Git Sync set up on both (its import failed: the world reaches no network), so git info answers.
  for (const id of [privateSpace.id, publicSpace.id])
    await admin('POST', `/v1/spaces/${id}/git/import`, { url: 'https://git.example.com/acme/docs.git', ref: 'refs/heads/main' })
  await api.idle()
  // Agent instructions are set in both organizations (a GET answers 404 until they are).
  const instructions = {
    object: 'document',
    data: {},
    nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Be brief.', marks: [] }] }] }],
  }
  await admin('PUT', `/v1/orgs/${org.id}/agent-instructions`, { instructions })

  // A SAML provider (complete: it is in the sign-in list) and an OpenAPI spec, processed, with its version.
  const samlProvider = await admin('POST', `/v1/orgs/${org.id}/saml`, {
    label: 'Okta',
    entityID: 'https://idp.acme.test/metadata',
    ssoURL: 'https://idp.acme.test/sso',
    certificate: WORLD_CERTIFICATE,
  })
  const spec = await admin('POST', `/v1/orgs/${org.id}/openapi`, { slug: 'petstore', source: { text: SPEC } })
  await api.idle()
  const specVersion = (await admin('GET', `/v1/orgs/${org.id}/openapi/${spec.slug}`)).lastVersion as string
  // A translation of the private space (run without a translator), and a conversation processed
  // into an issue and its cluster; the same in the foreign organization.
  const translation = await admin('POST', `/v1/orgs/${org.id}/translations`, { language: 'de', source: { space: privateSpace.id, language: 'en' } })
  const conversationBody = { id: 'conv-1', subject: 'Export', parts: [{ type: 'message', role: 'user', body: 'The PDF export fails with an error.' }] }
  await admin('POST', `/v1/orgs/${org.id}/conversations`, conversationBody)

  // The foreign organization's own resources.
  const foreignHttp = http(foreignToken)
  const foreignCollection = await f.createCollection(foreign.id, { title: 'Foreign' })
  const foreignSpace = await f.createSpace(foreign.id, { title: 'Foreign private' })
  const foreignPublic = await f.createSpace(foreign.id, { title: 'Foreign public', visibility: 'public' })
  const foreignTeam = await f.createTeam(foreign.id, { title: 'Foreign team', owners: [users.foreignAdmin.id] })
  const foreignInvite = await f.createInviteLink(foreign.id)
  const foreignSite = await f.createSite(foreign.id, { title: 'Foreign docs', published: true })
  const foreignBase = `/v1/orgs/${foreign.id}/sites/${foreignSite.id}`
  const foreignSection = await foreignHttp('POST', `${foreignBase}/sections`, { spaceId: foreignPublic.id })
  const foreignGroup = await foreignHttp('POST', `${foreignBase}/section-groups`, { title: 'Foreign group' })
  const foreignLink = await foreignHttp('POST', `${foreignBase}/share-links`, { name: 'Foreign' })
  const foreignRedirect = await foreignHttp('POST', `${foreignBase}/redirects`, {
    source: '/old',
    destination: { kind: 'site-section', siteSectionId: foreignSection.id },
  })
  await foreignHttp('PUT', `/v1/orgs/${foreign.id}/agent-instructions`, { instructions })
  const foreignSiteSpace = (await foreignHttp('GET', `${foreignBase}/site-spaces`)).items[0].id
  const foreignSaml = await foreignHttp('POST', `/v1/orgs/${foreign.id}/saml`, { label: 'Foreign' })
  await foreignHttp('POST', `/v1/orgs/${foreign.id}/openapi`, { slug: 'foreign-spec', source: { text: SPEC } })
  await api.idle()
  const foreignSpecVersion = (await foreignHttp('GET', `/v1/orgs/${foreign.id}/openapi/foreign-spec`)).lastVersion as string
  const sisterCollection = await f.createCollection(sister.id, { title: 'Sister' })
  const foreignTranslation = await foreignHttp('POST', `/v1/orgs/${foreign.id}/translations`, {
    language: 'de',
    source: { space: foreignSpace.id, language: 'en' },
  })
  await foreignHttp('POST', `/v1/orgs/${foreign.id}/conversations`, { ...conversationBody, id: 'foreign-conv' })
  await api.idle()
  const issueOf = async (http: typeof admin, orgId: string) => (await http('GET', `/v1/orgs/${orgId}/conversations-issues`)).items[0].issue
  const issue = await issueOf(admin, org.id)
  const foreignIssue = await issueOf(foreignHttp, foreign.id)

  // Integrations: a public one of the main organization installed on it, on the private and public spaces and
  // on the main site (the matrix targets, with their setup events), and a private one of the foreign organization.
  const integration = { title: 'Matrix app', description: 'An app', script: 'export default {}', scopes: [...INSTALLATION_SCOPES] }
  await admin('POST', '/v1/integrations/matrix-app', { ...integration, organization: org.id, visibility: 'public' })
  await foreignHttp('POST', '/v1/integrations/foreign-app', { ...integration, organization: foreign.id })
  const installation = await admin('POST', '/v1/integrations/matrix-app/installations', { organization: org.id })
  const foreignInstallation = await foreignHttp('POST', '/v1/integrations/foreign-app/installations', { organization: foreign.id })
  await admin('POST', `/v1/integrations/matrix-app/installations/${installation.id}/spaces`, { space: privateSpace.id })
  // And on the public space, the target of the public variant (its space installation reads, updates, uninstalls).
  await admin('POST', `/v1/integrations/matrix-app/installations/${installation.id}/spaces`, { space: publicSpace.id })
  await admin('POST', `/v1/integrations/matrix-app/installations/${installation.id}/sites`, { siteId: site.id })
  // The installation token caller: the integration's scopes over that installation's targets (an hour from the world's time).
  tokens.installation = (await admin('POST', `/v1/integrations/matrix-app/installations/${installation.id}/tokens`)).token
  await api.idle()
  const integrationEvents: string[] = (await admin('GET', '/v1/integrations/matrix-app/events')).items.map((e: { id: string }) => e.id)
  const foreignEvent: string = (await foreignHttp('GET', '/v1/integrations/foreign-app/events')).items[0].id

  // Audit events: an invite link made and deleted through the API records two (the world stays as it was).
  const auditEventOf = async (http: typeof admin, orgId: string): Promise<string> => {
    const link = await http('POST', `/v1/orgs/${orgId}/link-invites`, { role: 'read' })
    await http('DELETE', `/v1/orgs/${orgId}/link-invites/${link.id}`)
    return (await http('GET', `/v1/orgs/${orgId}/audit-events`)).items[0].id
  }
  const auditEvent = await auditEventOf(admin, org.id)
  const foreignAuditEvent = await auditEventOf(foreignHttp, foreign.id)

  // The site token GitBook's renderer would call with: the main site's URL resolved (it is public and published).
  const publishedUrl: string = (await admin('GET', base)).urls.published
  const resolved = await api.fetch(
    new Request(`${BASE}/v1/urls/published`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: publishedUrl }) }),
  )
  if (!resolved.ok) throw new Error(`world: resolving ${publishedUrl} answered ${resolved.status}`)
  tokens.siteToken = ((await resolved.json()) as { apiToken: string }).apiToken

  const keyOf = (link: { urls: { published: string } }) => decodeURIComponent(new URL(link.urls.published).pathname.split('/').pop()!)!

  /** The resource each path parameter names in the authorization matrix. */
  const targets: Record<string, string> = {
    organizationId: org.id,
    collectionId: emptyCollection.id,
    spaceId: privateSpace.id,
    teamId: team.id,
    userId: users.member.id,
    // Every caller's verified email is at acme.test: the domain they may look up.
    emailDomain: 'acme.test',
    siteId: site.id,
    siteSectionId: sectionB.id,
    siteSectionGroupId: group.id,
    siteSpaceId: siteSpaceB2.id,
    shareLinkId: shareLink.id,
    siteRedirectId: redirect.id,
    inviteId: invite.id,
    auditEventId: auditEvent,
    changeRequestId: '2',
    pageId: privateContent.page,
    fileId: privateContent.file,
    reviewId: privateContent.review,
    revisionId: privateContent.revision,
    documentId: privateContent.document,
    reusableContentId: privateContent.reusableContent,
    commentId: privateContent.comments.space.commentId,
    commentReplyId: privateContent.comments.space.commentReplyId,
    pagePath: 'welcome',
    samlProviderId: samlProvider.id,
    specSlug: spec.slug,
    versionId: specVersion,
    integrationName: 'matrix-app',
    installationId: installation.id,
    eventId: integrationEvents[0]!,
    translationId: translation.id,
    conversationId: 'conv-1',
    clusterId: issue.cluster,
    issueId: issue.id,
    blobKey: privateContent.blobKey,
    fileName: 'dot.png',
    ticket: PDF_TICKET,
    /** Not a path parameter: the URL the matrix resolves (published/), the main site's. */
    publishedUrl,
  }

  /**
   * Comment targets, by variant and by thread: a path under `/change-requests/` addresses the
   * change request's comments, any other the space's own (a comment is found only in its thread).
   */
  const threadTargets = {
    private: privateContent.comments,
    public: publicContent.comments,
  }

  /** Targets of the public-space variant of the matrix, where they differ. */
  const publicTargets: Record<string, string> = {
    pageId: publicContent.page,
    fileId: publicContent.file,
    reviewId: publicContent.review,
    revisionId: publicContent.revision,
    documentId: publicContent.document,
    reusableContentId: publicContent.reusableContent,
  }

  /** Every id of the world by the path parameter (or body field) naming it; the foreign ones last. */
  const candidates: Record<string, string[]> = {
    organizationId: [org.id, sister.id, foreign.id],
    collectionId: [emptyCollection.id, parentCollection.id, childCollection.id, sisterCollection.id, foreignCollection.id],
    spaceId: [
      privateSpace,
      publicSpace,
      unlistedSpace,
      shareLinkSpace,
      visitorAuthSpace,
      inCollectionSpace,
      childSpace,
      grantedSpace,
      spaceA,
      spaceB,
      spaceC,
      spaceD,
      trashedSpace,
      expiredSpace,
      foreignSpace,
      foreignPublic,
    ].map((s) => s.id),
    teamId: [team.id, guestTeam.id, foreignTeam.id],
    userId: [...Object.values(users).map((u) => u.id)],
    siteId: [site.id, shareSite.id, draftSite.id, foreignSite.id],
    siteSectionId: [sectionA.id, sectionB.id, sectionC.id, foreignSection.id],
    siteSectionGroupId: [group.id, foreignGroup.id],
    siteSpaceId: [...siteSpaces, ...draftSiteSpaces, foreignSiteSpace],
    shareLinkId: [shareLink.id, shareSiteLink.id, foreignLink.id],
    siteRedirectId: [redirect.id, draftRedirect.id, foreignRedirect.id],
    inviteId: [invite.id, foreignInvite.id],
    auditEventId: [auditEvent, foreignAuditEvent],
    changeRequestId: ['1', '2', privateContent.cr, publicContent.cr],
    pageId: [privateContent.page, publicContent.page],
    fileId: [privateContent.file, publicContent.file],
    reviewId: [privateContent.review, publicContent.review],
    revisionId: [privateContent.revision, publicContent.revision],
    documentId: [privateContent.document, publicContent.document],
    reusableContentId: [privateContent.reusableContent, publicContent.reusableContent],
    commentId: [privateContent, publicContent].flatMap((c) => [c.comments.space.commentId, c.comments.changeRequest.commentId]),
    commentReplyId: [privateContent, publicContent].flatMap((c) => [c.comments.space.commentReplyId, c.comments.changeRequest.commentReplyId]),
    pagePath: ['welcome', 'welcome/next', 'next', 'nope/x'],
    shareKey: [keyOf(shareSiteLink), keyOf(shareLink), keyOf(foreignLink)],
    samlProviderId: [samlProvider.id, foreignSaml.id],
    specSlug: [spec.slug, 'foreign-spec', 'no-such-spec'],
    versionId: [specVersion, foreignSpecVersion],
    integrationName: ['matrix-app', 'foreign-app'],
    installationId: [installation.id, foreignInstallation.id],
    eventId: [...integrationEvents, foreignEvent],
    translationId: [translation.id, foreignTranslation.id],
    conversationId: ['conv-1', 'foreign-conv'],
    clusterId: [issue.cluster, foreignIssue.cluster],
    issueId: [issue.id, foreignIssue.id],
    blobKey: [privateContent.blobKey, publicContent.blobKey],
    fileName: ['dot.png', 'report.pdf', 'a b/c.html'],
    ticket: [PDF_TICKET],
  }

  // Cursors of the shapes lists use (an index position; a sort key), so `page` is not always a 400.
  const cursors = [[0, 1], [1, 40], [1e9, 1], ['a', 'id1'], ['2026-03-01T10:00:00.000Z', 'id3'], [1]].map((key) => encodeCursor(key))

  /** Ids no caller may see, by the path parameter naming them (with unknown ones, the "hidden parent" inputs). */
  const hidden: Record<string, string[]> = {
    organizationId: [foreign.id],
    siteId: [foreignSite.id],
    spaceId: [foreignSpace.id, trashedSpace.id],
    collectionId: [foreignCollection.id],
    teamId: [foreignTeam.id],
    integrationName: ['foreign-app'],
  }

  return {
    api: api as DocsApi,
    blobs,
    hidden,
    publicTargets,
    threadTargets,
    errors: [] as unknown[],
    /** Every URL the API fetched (the world's fetch records them): none may name a private address (checkRequest). */
    fetched: [] as string[],
    idCount: () => idCount,
    cursors,
    clock,
    users,
    tokens,
    orgs: { main: org.id, sister: sister.id, foreign: foreign.id },
    spaces: { privateSpace: privateSpace.id, publicSpace: publicSpace.id, unlistedSpace: unlistedSpace.id, trashed: trashedSpace.id, expired: expiredSpace.id },
    site: {
      id: site.id,
      sectionA: sectionA.id,
      sectionB: sectionB.id,
      sectionC: sectionC.id,
      group: group.id,
      siteSpaceB1,
      siteSpaceB2: siteSpaceB2.id,
      siteSpaces,
      shareSite: shareSite.id,
      draftSite: draftSite.id,
      /** The source of the live redirect that is the matrix target. */
      redirectSource: redirect.source as string,
    },
    collections: { empty: emptyCollection.id, parent: parentCollection.id, child: childCollection.id, sister: sisterCollection.id },
    teams: { target: team.id, guestTeam: guestTeam.id },
    targets,
    candidates,
  }
}

export type FuzzWorld = Awaited<ReturnType<typeof buildWorld>>

let seeded: Promise<FuzzWorld> | undefined

/** The matrix integration's script, in process: it accepts its events and renders every component as a completed one. */
const MATRIX_INTEGRATIONS = {
  'matrix-app': async (request: Request) => {
    const event = JSON.parse(String((await request.formData()).get('event'))) as { type: string }
    return event.type === 'ui_render' ? Response.json({ type: 'complete', returnValue: {} }) : new Response('OK')
  },
}

/**
 * A fresh world: a copy of the seeded world (built once per test file). The copy inserts every
 * row of the seeded store, in their global insertion order, into a new memory store through the
 * storage port, so each index and every order comes out the same; the clock stands at the seeded
 * world's time and ids continue after its last one. A copy costs well under a millisecond where a
 * build through fixtures and requests costs about ten, so every case can have its own world.
 */
export async function createFuzzWorld(): Promise<FuzzWorld> {
  const world = await (seeded ??= buildWorld())
  const rows = world.api.store.read((tx) =>
    Object.keys(schema)
      .flatMap((name) =>
        tx.all(name as keyof typeof schema).map((row) => ({ name, row, seq: tx.seqOf(name as keyof typeof schema, (row as { id: string }).id)! })),
      )
      .sort((a, b) => a.seq - b.seq),
  )
  const store = createMemoryStore(schema)
  store.transaction((tx) => rows.forEach(({ name, row }) => tx.insert(name as keyof typeof schema, row as never)))
  const clock = createClock(world.clock.now())
  const ids = sequentialIds('id')
  for (let i = 0; i < world.idCount(); i++) ids()
  // Unexpected errors (answered as 500) are kept for the failure report instead of logged.
  const errors: unknown[] = []
  const fetched: string[] = []
  const recording = ((input: RequestInfo | URL, init?: RequestInit) => {
    fetched.push(String(input instanceof Request ? input.url : input))
    return worldFetch(input, init)
  }) as typeof fetch
  const api = createDocsApi({
    baseUrl: BASE,
    now: clock.now,
    ids,
    store,
    blobs: world.blobs.fork!(),
    onError: (error) => errors.push(error),
    fetch: recording,
    siteTokenSecret: SITE_TOKEN_SECRET,
    integrations: MATRIX_INTEGRATIONS,
  })
  await issuePdfTicket(api, world)
  return { ...world, api, clock, errors, fetched }
}

/** The key of the PDF ticket every fresh world holds (tickets live in the API's memory, not in its store). */
const PDF_TICKET = 'ticket1'

/**
 * Give a fresh world its PDF ticket (the target of `/pdf/{ticket}`), the admin's of change request
 * #2 of the private space, under the same key in every world: a request made for one world (the
 * generators draw from a reference world) holds a ticket of the next. Keys are drawn from a
 * sequence, as ids are; the ticket is asked for as a client would.
 */
async function issuePdfTicket(api: DocsApi, world: FuzzWorld): Promise<void> {
  const rt = api[API_CORE].runtime
  rt.tickets = createTickets({ newKey: sequentialIds('ticket'), onDrop: (data) => ticketDropped(rt.services, data) })
  const path = `/v1/spaces/${world.spaces.privateSpace}/change-requests/2/pdf`
  const res = await api.fetch(new Request(`${BASE}${path}`, { headers: { authorization: `Bearer ${world.tokens.admin}` } }))
  const { url } = (await res.json()) as { url: string }
  if (url !== `${BASE}/pdf/${PDF_TICKET}`) throw new Error(`world: GET ${path} answered ${res.status} ${url}`)
}
