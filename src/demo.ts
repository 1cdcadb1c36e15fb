import { createDocsApi, type DocsApi } from './api.js'
import type { StateDocument } from './state/seed.js'
import type { JsonDocument } from './domains/content/document.js'
import { encodeBase64 } from './domains/content/file-info.js'
import { createFetchHandler } from './http/fetch-handler.js'
import { newFlatId } from './core/ids.js'
import { withKeys } from './domains/content/markdown-task.js'
import { DEMO_PAGES } from './demo-pages.js'

/** What the demo seed created: ids and tokens to try the API with. */
export interface DemoData {
  organization: { id: string; title: string }
  collection: { id: string; title: string }
  spaces: Array<{ id: string; title: string; visibility: string }>
  /** A published public site holding the first two spaces (https://docs.localhost/acme/docs). */
  site: { id: string; title: string }
  /** A published share-link site holding the handbook, and the URL its share link opens it at. */
  shareLinkSite: { id: string; title: string; url: string }
  /** A published visitor-auth site holding the handbook, and a visitor token signed with its key (a year long). */
  visitorAuthSite: { id: string; title: string; visitorToken: string }
  /** Ada is admin of the organization. */
  adminToken: string
  /** Rita has the `read` role: she sees content but gets 403 on changes. */
  readerToken: string
}

/**
 * Seed an API with demo data through `api.fixtures` (the same domain rules as the API itself):
 * two users with tokens, an organization, a collection, a few spaces with pages (written through
 * change requests, merged) and a published site.
 */
export async function seedDemo(api: DocsApi, options: { adminToken?: string } = {}): Promise<DemoData> {
  const { fixtures } = api
  const ada = await fixtures.createUser({ displayName: 'Ada Lovelace', email: 'ada@acme.test' })
  const rita = await fixtures.createUser({ displayName: 'Rita Reader', email: 'rita@acme.test' })
  const organization = await fixtures.createOrganization({
    title: 'Acme Docs',
    emailDomains: ['acme.test'],
    hostname: 'acme',
    members: [
      { user: ada.id, role: 'admin' },
      { user: rita.id, role: 'read' },
    ],
  })
  const collection = await fixtures.createCollection(organization.id, { title: 'Guides', description: 'How-to guides' })
  const spaces = [
    await fixtures.createSpace(organization.id, { title: 'Getting started', emoji: '1f680', parent: collection.id }),
    await fixtures.createSpace(organization.id, { title: 'API reference', emoji: '1f4d8', visibility: 'public' }),
    await fixtures.createSpace(organization.id, { title: 'Internal handbook', emoji: '1f512' }),
  ]
  const site = await fixtures.createSite(organization.id, {
    title: 'Acme Docs',
    spaces: [spaces[0]!.id, spaces[1]!.id],
    published: true,
  })
  const adminToken = await fixtures.createToken(ada.id, options.adminToken)
  // Content, written as a client writes it: a change request per space, merged. Through a handler
  // of its own, so an API mounted under a prefix (`basePath`) is seeded the same way.
  const fetch = createFetchHandler(api)
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${BASE_PATH}${path}`, {
      method,
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    })
    if (!res.ok) throw new Error(`demo seed: ${method} ${path} answered ${res.status} ${await res.text()}`)
    return res.status === 204 ? { id: '' } : (res.json() as Promise<{ id: string; [field: string]: unknown }>)
  }
  for (const [space, pages] of [
    [spaces[0]!.id, GETTING_STARTED],
    [spaces[1]!.id, API_REFERENCE],
    [spaces[2]!.id, HANDBOOK],
  ] as const) {
    const cr = await call('POST', `/v1/spaces/${space}/change-requests`, { subject: 'First pages' })
    const written = (await call('POST', `/v1/spaces/${space}/change-requests/${cr.id}/content?compat=false`, {
      changes: pages.map((page) => ({ operation: 'insert_page', ...(typeof page === 'string' ? read(page, true) : page) })),
    })) as unknown as { changes: Array<{ page: { id: string } }> }
    if (space === spaces[0]!.id) await includeSupport(call, space, cr.id, written.changes[1]!.page.id)
    await call('POST', `/v1/spaces/${space}/change-requests/${cr.id}/merge`)
  }
  // Published at https://docs.localhost/acme/docs (the `publishedUrl` option's default).
  await call('PATCH', `/v1/orgs/${organization.id}/sites/${site.id}`, { basename: 'docs' })
  // GitBook's renderer shows its assistant (recommended questions, answers citing pages) and serves
  // the site's MCP server only when the customization says so (docs/guide/renderer.md).
  await call('PUT', `/v1/orgs/${organization.id}/sites/${site.id}/customization`, {
    ai: { mode: 'assistant' },
    pageActions: { items: ['assistant', 'markdown', 'mcp'] },
  })
  // An old address of the installation page, redirected to it.
  await call('POST', `/v1/orgs/${organization.id}/sites/${site.id}/redirects`, {
    source: '/install',
    destination: { kind: 'path', spaceId: spaces[0]!.id, path: 'installation' },
  })
  // The handbook, shared with partners: a share-link site its link's key opens (https://docs.localhost/acme/partners/<key>).
  const partners = await fixtures.createSite(organization.id, { title: 'Acme Partners', visibility: 'share-link', spaces: [spaces[2]!.id], published: true })
  await call('PATCH', `/v1/orgs/${organization.id}/sites/${partners.id}`, { basename: 'partners' })
  const shareLink = (await call('POST', `/v1/orgs/${organization.id}/sites/${partners.id}/share-links`, { name: 'Partners' })) as {
    id: string
    urls: { published: string }
  }
  // The handbook again, for employees: behind visitor authentication (https://docs.localhost/acme/internal?jwt_token=<a visitor token>).
  const internal = await fixtures.createSite(organization.id, { title: 'Acme Internal', visibility: 'visitor-auth', spaces: [spaces[2]!.id], published: true })
  await call('PATCH', `/v1/orgs/${organization.id}/sites/${internal.id}`, { basename: 'internal' })
  const auth = (await call('PATCH', `/v1/orgs/${organization.id}/sites/${internal.id}/publishing/auth`, {
    fallbackURL: 'https://login.acme.test/docs',
  })) as unknown as {
    privateKey: string
  }
  // A visitor token as the company's login would sign it (HS256 with the site's key), valid a year.
  const visitorToken = await signHs256({ name: 'Employee', team: 'support' }, auth.privateKey, 365 * 24 * 3600)
  return {
    site: { id: site.id, title: site.title },
    shareLinkSite: { id: partners.id, title: partners.title, url: shareLink.urls.published },
    visitorAuthSite: { id: internal.id, title: internal.title, visitorToken },
    organization: { id: organization.id, title: organization.title },
    collection: { id: collection.id, title: collection.title },
    spaces: spaces.map((s) => ({ id: s.id, title: s.title, visibility: s.visibility })),
    adminToken,
    readerToken: await fixtures.createToken(rita.id),
  }
}

/**
 * A page or reusable content written in markdown, as the API reads it (`document: { markdown }`),
 * read ahead of time: scripts/demo-pages.ts converted the demo's markdown into src/demo-pages.ts,
 * so starting the demo loads no markdown library (unified, remark: some 150 ms). Its blocks get
 * fresh keys, as the API gives them. Markdown the file lacks goes to the API as markdown.
 */
function read(markdown: string, takeTitle: boolean): { title?: string; document: { document: JsonDocument } | { markdown: string } } {
  const page = DEMO_PAGES[`${takeTitle ? 'page' : 'content'}:${markdown}`]
  if (!page) return { document: { markdown } }
  return { ...(page.title !== undefined && { title: page.title }), document: { document: withKeys(structuredClone(page.document), page.keys, newFlatId) } }
}

const base64url = (bytes: Uint8Array) => encodeBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')

/**
 * A JWT of `claims` signed with HS256 (`key`'s UTF-8 bytes), issued now and valid `seconds`: what
 * jose's SignJWT makes, with Web Crypto alone (jose is loaded when a site first checks a token,
 * not to start the demo).
 */
async function signHs256(claims: Record<string, unknown>, key: string, seconds: number): Promise<string> {
  const iat = Math.floor(Date.now() / 1000)
  const encode = (value: unknown) => base64url(new TextEncoder().encode(JSON.stringify(value)))
  const input = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ ...claims, iat, exp: iat + seconds })}`
  const hmac = await crypto.subtle.importKey('raw', new TextEncoder().encode(key), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  return `${input}.${base64url(new Uint8Array(await crypto.subtle.sign('HMAC', hmac, new TextEncoder().encode(input))))}`
}

/**
 * A reusable content, "Support", included at the end of the installation page (as GitBook's
 * editor includes one: a `reusable-content` block naming it), so a rendered site shows one.
 */
async function includeSupport(
  call: (method: string, path: string, body?: unknown) => Promise<{ id: string; [field: string]: unknown }>,
  space: string,
  cr: string,
  page: string,
): Promise<void> {
  const installation = (await call('GET', `/v1/spaces/${space}/change-requests/${cr}/content/page/${page}`)) as unknown as { document: JsonDocument }
  const block = { object: 'block', type: 'reusable-content', isVoid: true, data: { ref: { kind: 'reusable-content', reusableContent: 'support' } } }
  await call('POST', `/v1/spaces/${space}/change-requests/${cr}/content`, {
    changes: [
      { operation: 'insert_reusable_content', title: 'Support', ref: 'support', ...read(SUPPORT, false) },
      { operation: 'update_page', page, document: { document: { ...installation.document, nodes: [...installation.document.nodes, block] } } },
    ],
  })
}

export const SUPPORT = '> [!NOTE]\n> Stuck? Write to **support@acme.test** or ask in the community forum.'

/** Requests of the seed go to the API's own fetch: any origin will do. */
const BASE_PATH = 'http://demo.invalid'

export const GETTING_STARTED = [
  '# Welcome\n\nAcme Docs explains how to install, configure and use **Acme**.\n\n## What you need\n\n- Node.js 20 or later\n- An Acme account',
  '# Installation\n\nInstall the command line with npm:\n\n```sh\nnpm install -g acme-cli\n```\n\n> [!TIP]\n> Run `acme doctor` to check your setup.',
  '# Configuration\n\nAcme reads `acme.yaml` in the project folder.\n\n| Key | Meaning |\n| --- | --- |\n| `region` | where your data lives |\n| `token` | your API token |',
  // Questions its readers ask: the recommended questions of the site's Ask panel (docs/behaviour/ask.md).
  '# FAQ\n\n## Which Node.js version do I need?\n\nNode.js 20 or later: run `node --version` to check.\n\n## Where does Acme keep my data?\n\nIn the `region` set in `acme.yaml` (see Configuration).',
  // A page with an embed block (markdown has no embeds): the renderer asks getEmbedByUrlInSpace for it.
  {
    title: 'Video tour',
    document: {
      document: {
        object: 'document',
        data: {},
        nodes: [
          { object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'A ten-minute tour of Acme:', marks: [] }] }] },
          { object: 'block', type: 'embed', isVoid: true, data: { url: 'https://vimeo.com/acme/getting-started-tour' } },
        ],
      },
    },
  },
]

export const HANDBOOK = [
  '# Handbook\n\nHow the Acme team works: shared with partners through a share link.',
  '# Support rotation\n\nOne engineer answers partner tickets each week; the rotation is in the team calendar.',
]

export const API_REFERENCE = [
  '# Authentication\n\nEvery request carries a bearer token: `Authorization: Bearer <token>`. Tokens are made in the dashboard.',
  '# Rate limits\n\nThe API answers 429 past 100 requests a minute, with a `Retry-After` header.',
]

/**
 * The demo data as a state document (for `createDocsApi({ seed })` or `docs-content-api serve
 * --seed`), built through the fixtures on a throwaway API. Tokens are random unless given.
 * @example const { state, demo } = await createDemoState(); const api = createDocsApi({ seed: state })
 */
export async function createDemoState(options: { adminToken?: string } = {}): Promise<{ state: StateDocument; demo: DemoData }> {
  const api = createDocsApi()
  const demo = await seedDemo(api, options)
  return { state: api.dump(), demo }
}
