import { call, createWorld } from '../helpers.js'
import { PETSTORE_JSON, PETSTORE_YAML } from '../fixtures/openapi.js'
import { CERTIFICATE } from '../fixtures/pem.js'

/** A world with something in every collection, built through the API. */
export async function richWorld() {
  // No network: the Git Sync import below fails, and its failure is state like any other.
  const w = await createWorld({ fetch: async () => Promise.reject(new TypeError('offline')) })
  const { api, tokens, users, org } = w
  const ada = tokens.ada
  const team = await api.fixtures.createTeam(org.id, { title: 'Writers', members: [users.rita.id, users.gina.id] })
  const guides = (await call(api, ada, 'POST', `/v1/orgs/${org.id}/collections`, { title: 'Guides' })).body
  const nested = (await call(api, ada, 'POST', `/v1/orgs/${org.id}/collections`, { title: 'Nested', parent: guides.id })).body
  const a = (await call(api, ada, 'POST', `/v1/orgs/${org.id}/spaces`, { title: 'Alpha', parent: nested.id })).body
  const b = (await call(api, ada, 'POST', `/v1/orgs/${org.id}/spaces`, { title: 'Beta', emoji: '1f680' })).body
  const c = (await call(api, ada, 'POST', `/v1/orgs/${org.id}/spaces`, { title: 'Gamma' })).body
  // Moves make positions and creation order disagree, as real use does.
  await call(api, ada, 'POST', `/v1/spaces/${c.id}/move`, { position: { before: { space: b.id } } })
  await call(api, ada, 'POST', `/v1/collections/${guides.id}/move`, { parent: null })
  await call(api, ada, 'PATCH', `/v1/spaces/${b.id}`, { defaultLevel: 'comment', mergeRules: { type: 'none' } })
  await api.system((ctx) => ctx.tx.update('spaces', { ...ctx.tx.get('spaces', b.id)!, visibility: 'public' }))
  await call(api, ada, 'POST', `/v1/spaces/${b.id}/permissions`, { role: 'edit', users: [users.gina.id], teams: [team.id] })
  await call(api, ada, 'POST', `/v1/collections/${guides.id}/permissions`, { role: 'comment', users: [users.gina.id], teams: [team.id] })
  w.clock.advance(60_000)
  await call(api, ada, 'DELETE', `/v1/spaces/${c.id}`)
  await api.fixtures.createInviteLink(org.id, 'comment')
  const site = (await call(api, ada, 'POST', `/v1/orgs/${org.id}/sites`, { title: 'Docs', spaces: [a.id, b.id] })).body
  const base = `/v1/orgs/${org.id}/sites/${site.id}`
  await call(api, ada, 'PATCH', base, { basename: 'docs', visibility: 'share-link' })
  await call(api, ada, 'POST', `${base}/publish`)
  const section = (await call(api, ada, 'POST', `${base}/sections`, { spaceId: b.id, title: 'Reference' })).body
  await call(api, ada, 'POST', `${base}/section-groups`, { title: 'Group', sections: [section.id] })
  await call(api, ada, 'POST', `${base}/share-links`, { name: 'Partners' })
  // Site permissions: a guest and a team granted on the site.
  await call(api, ada, 'POST', `${base}/permissions`, { role: 'read', users: [users.gina.id], teams: [team.id] })
  // Site settings: a customization, a site-space's override of it, visitor authentication URLs.
  await call(api, ada, 'PUT', `${base}/customization`, { title: 'Acme Docs', styling: { theme: 'bold', primaryColor: { light: '#f00', dark: '#a00' } } })
  await call(api, ada, 'PATCH', `${base}/site-spaces/${section.siteSpaces[0].id}/customization`, { styling: { theme: 'muted', sidebar: { list: 'pill' } } })
  await call(api, ada, 'PATCH', `${base}/publishing/auth`, { fallbackURL: 'https://acme.test/login' })
  await call(api, ada, 'POST', `${base}/redirects`, {
    source: '/Old/*',
    captureWildcard: true,
    destination: { kind: 'site-section', siteSectionId: section.id },
  })
  await call(api, ada, 'POST', `${base}/redirects`, { source: '/blog', draft: true, destination: { kind: 'external', url: 'https://blog.acme.test/' } })
  // Insights: events of two visitors (one with claims), and feedback of an agent.
  const session = { cookies: {}, userAgent: 'Mozilla/5.0 (iPhone) Mobile Safari/604.1', language: 'fr', referrer: 'https://search.test/' }
  const location = { url: 'https://acme.test/docs/', siteSection: null, siteSpace: null, siteShareKey: null, space: a.id, revision: null, page: null }
  await call(api, undefined, 'POST', `${base}/insights/events`, {
    events: [
      { type: 'page_view', session: { ...session, visitorId: 'v1', sessionId: 's1' }, location },
      {
        type: 'search_type_query',
        query: 'pdf',
        session: { ...session, visitorId: 'v2', sessionId: 's2', visitorAuthClaims: { isBeta: { on: null } } },
        location,
      },
    ],
  })
  await call(api, ada, 'POST', `${base}/agents/feedback`, { subject: { kind: 'generic' }, feedback: { category: 'documentation', summary: 'Missing page' } })
  await call(api, ada, 'PUT', `${base}/adaptive-schema`, {
    jsonSchema: { type: 'object', properties: { isBeta: { type: 'boolean' } }, additionalProperties: false },
  })
  await call(api, ada, 'PATCH', `/v1/orgs/${org.id}`, { defaultContent: { type: 'site', site: site.id }, hostname: 'acme' })
  // Content: a merged change request with pages and a file, a review and a review request, and an open one.
  const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='
  const cr = (await call(api, ada, 'POST', `/v1/spaces/${a.id}/change-requests`, { subject: 'Start' })).body
  await call(api, ada, 'POST', `/v1/spaces/${a.id}/change-requests/${cr.id}/content`, {
    changes: [
      { operation: 'insert_files', files: [{ name: 'dot.png', contentType: 'image/png', base64: png, ref: 'dot' }] },
      { operation: 'insert_page', document: { markdown: '# Welcome\n\nSee ![dot](./dot).' }, ref: 'w' },
      { operation: 'insert_page', title: 'Next', document: { markdown: '[back](./w.md)' } },
      // A reusable content (its own version rows, named by the revision).
      { operation: 'insert_reusable_content', title: 'Support', document: { markdown: 'Write to support.' } },
    ],
  })
  await call(api, ada, 'POST', `/v1/spaces/${a.id}/change-requests/${cr.id}/requested-reviewers`, { users: [users.ada.id] })
  await call(api, ada, 'POST', `/v1/spaces/${a.id}/change-requests/${cr.id}/reviews`, { status: 'approved' })
  await call(api, ada, 'POST', `/v1/spaces/${a.id}/change-requests/${cr.id}/merge`)
  const open = (await call(api, ada, 'POST', `/v1/spaces/${a.id}/change-requests`, { subject: 'Open' })).body
  // Comments: one on main with a reply and reactions, a resolved one in the open change request.
  const comment = (await call(api, ada, 'POST', `/v1/spaces/${a.id}/comments`, { body: { markdown: 'Looks **good**' } })).body
  await call(api, ada, 'POST', `/v1/spaces/${a.id}/comments/${comment.id}/replies`, { body: { markdown: 'Thanks' } })
  await call(api, ada, 'PUT', `/v1/spaces/${a.id}/comments/${comment.id}`, { addedReactions: ['🎉', '👍'] })
  const crBase = `/v1/spaces/${a.id}/change-requests/${open.id}/comments`
  const crComment = (
    await call(api, ada, 'POST', crBase, {
      body: {
        document: {
          object: 'document',
          nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Done?', marks: [] }] }] }],
        },
      },
    })
  ).body
  await call(api, ada, 'PUT', `${crBase}/${crComment.id}`, { resolved: true })
  // SSO and OpenAPI: a provider with a default team, a spec processed twice (two versions), public.
  await call(api, ada, 'POST', `/v1/orgs/${org.id}/saml`, {
    label: 'Okta',
    entityID: 'urn:idp',
    ssoURL: 'https://idp.acme.test/sso',
    certificate: CERTIFICATE,
    defaultTeam: team.id,
  })
  await call(api, ada, 'POST', `/v1/orgs/${org.id}/openapi`, { slug: 'petstore', source: { text: PETSTORE_YAML } })
  await api.idle()
  await call(api, ada, 'PUT', `/v1/orgs/${org.id}/openapi/petstore`, { source: { text: PETSTORE_JSON } })
  await call(api, ada, 'PATCH', `/v1/orgs/${org.id}/openapi/petstore`, { visibility: 'public' })
  // Integrations: one published, installed on the organization, a space and the site, with its setup events delivered.
  await call(api, ada, 'POST', '/v1/integrations/acme-app', {
    organization: org.id,
    title: 'Acme app',
    description: 'An app',
    script: 's',
    scopes: ['space:content:read'],
    blocks: [{ id: 'b', title: 'Block' }],
  })
  const installation = (await call(api, ada, 'POST', '/v1/integrations/acme-app/installations', { organization: org.id })).body
  await call(api, ada, 'POST', `/v1/integrations/acme-app/installations/${installation.id}/spaces`, { space: a.id })
  await call(api, ada, 'POST', `/v1/integrations/acme-app/installations/${installation.id}/sites`, { siteId: site.id })
  // Ada's development mode for it (a public tunnel, as `gitbook dev` registers it; no event of the world comes after it).
  await call(api, ada, 'PUT', '/v1/integrations/acme-app/dev', { tunnelUrl: 'https://acme-app.trycloudflare.com' })
  // An installation token (saved and loaded like any row).
  await call(api, ada, 'POST', `/v1/integrations/acme-app/installations/${installation.id}/tokens`)
  // A translation run into its result space, and a conversation processed into an issue and a cluster.
  await call(api, ada, 'POST', `/v1/orgs/${org.id}/translations`, { language: 'fr', source: { space: a.id, language: 'en' } })
  await call(api, ada, 'POST', `/v1/orgs/${org.id}/conversations`, {
    id: 'c1',
    source: 'zendesk',
    metadata: { url: 'https://help.acme.test/1', attributes: { plan: 'pro' } },
    parts: [{ type: 'message', role: 'user', body: 'The PDF export fails.' }],
  })
  // Git Sync: an import (failed, the world is offline), so the space has git info.
  await call(api, ada, 'POST', `/v1/spaces/${a.id}/git/import`, { url: `https://user:token@git.example.com/acme/docs.git`, ref: 'refs/heads/main' })
  // A notifications token of ada's.
  await call(api, ada, 'POST', '/v1/user/notifications/token')
  await api.idle()
  const siteSpaceIds = (await call(api, ada, 'GET', `${base}/site-spaces`)).body.items.map((s: { id: string }) => s.id) as string[]
  return { ...w, site, team, siteSpaceIds, spaces: { a, b, c }, collections: { guides, nested } }
}
