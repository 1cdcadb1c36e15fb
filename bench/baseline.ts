import { newFlatId } from '../src/core/ids.js'

/**
 * The baseline: the least a fetch handler can do to answer the API's JSON for spaces. It stores
 * each space as the object it serves (the official Space shape, `permissions` included, as an
 * organization admin sees it) and, per request: splits the URL with `indexOf`/`slice`, checks the
 * bearer token against a `Set`, looks the space up in a `Map` (or slices the organization's
 * array for a list page), `JSON.parse`s the body of a PATCH or POST, updates the stored object in
 * place (PATCH) or builds a new one (POST: `newFlatId()` for the id and revision, the API's own
 * default id maker, `new Date().toISOString()` for the timestamps), and answers
 * `JSON.stringify` of the result in a `Response`, with the same status and headers as the API
 * (`content-type`; `location` on a 201). No routing table, validation, access rules,
 * transactions, indexes or encoding: the API is measured against this.
 *
 * What it serves, byte for byte in shape: a space (GET, PATCH, POST) and a page
 * `{ items, count, next: { page } }` whose cursor is the offset of the next page.
 */

const HEADERS = { 'content-type': 'application/json; charset=utf-8' }

function json(status: number, body: unknown, location?: string): Response {
  return new Response(JSON.stringify(body), { status, headers: location ? { ...HEADERS, location } : HEADERS })
}

const notFound = () => json(404, { error: { code: 404, message: 'Not found' } })

/** The `permissions` of an organization admin on a space (every key true), shared by every space. */
const ADMIN_PERMISSIONS = {
  view: true,
  access: true,
  admin: true,
  viewInviteLinks: true,
  edit: true,
  triggerGitSync: true,
  comment: true,
  merge: true,
  review: true,
  installIntegration: true,
}

const INHERIT = { type: 'inherit' as const }

/** A stored space: the official Space shape, as served. */
export interface BaselineSpace {
  object: 'space'
  id: string
  title: string
  emoji: string
  visibility: string
  createdAt: string
  updatedAt: string
  mergeRules: { type: 'inherit' }
  urls: { location: string; app: string }
  organization: string
  revision: string
  defaultLevel: null
  comments: number
  changeRequests: number
  changeRequestsOpen: number
  changeRequestsDraft: number
  permissions: typeof ADMIN_PERMISSIONS
}

export interface BaselineOptions {
  baseUrl: string
  tokens: readonly string[]
  organizations: readonly string[]
}

/** Fields a PATCH may set (the rest of the body is ignored: the baseline validates nothing). */
const PATCHABLE = ['title', 'emoji'] as const

export function createBaseline(options: BaselineOptions): (request: Request) => Promise<Response> {
  const tokens = new Set(options.tokens)
  const spaces = new Map<string, BaselineSpace>()
  const lists = new Map<string, BaselineSpace[]>(options.organizations.map((id) => [id, []]))
  const api = `${options.baseUrl}/v1`
  const app = `${options.baseUrl}/app`

  return async (request) => {
    const url = request.url
    const pathStart = url.indexOf('/', url.indexOf('://') + 3)
    const q = url.indexOf('?', pathStart)
    const parts = url.slice(pathStart, q === -1 ? url.length : q).split('/')
    const auth = request.headers.get('authorization')
    if (!auth || !tokens.has(auth.slice(7))) return json(401, { error: { code: 401, message: 'Unauthorized' } })
    const method = request.method

    // /v1/spaces/{id}: GET, PATCH
    if (parts[2] === 'spaces') {
      const space = spaces.get(parts[3]!)
      if (!space) return notFound()
      if (method === 'PATCH') {
        const body = JSON.parse(await request.text()) as Record<string, unknown>
        for (const key of PATCHABLE) if (typeof body[key] === 'string') space[key] = body[key] as string
        space.updatedAt = new Date().toISOString()
      }
      return json(200, space)
    }

    // /v1/orgs/{id}/spaces: GET (a page), POST (create)
    const list = lists.get(parts[3]!)
    if (!list) return notFound()
    if (method === 'POST') {
      const body = JSON.parse(await request.text()) as { title?: string; emoji?: string }
      const id = newFlatId()
      const now = new Date().toISOString()
      const location = `${api}/spaces/${id}`
      const space: BaselineSpace = {
        object: 'space',
        id,
        title: body.title ?? 'Untitled',
        emoji: body.emoji ?? '',
        visibility: 'private',
        createdAt: now,
        updatedAt: now,
        mergeRules: INHERIT,
        urls: { location, app: `${app}/s/${id}` },
        organization: parts[3]!,
        revision: newFlatId(),
        defaultLevel: null,
        comments: 0,
        changeRequests: 0,
        changeRequestsOpen: 0,
        changeRequestsDraft: 0,
        permissions: ADMIN_PERMISSIONS,
      }
      spaces.set(id, space)
      list.push(space)
      return json(201, space, location)
    }
    // ?limit=<n>&page=<offset>: an offset cursor over the stored array
    const limitAt = q === -1 ? -1 : url.indexOf('limit=', q)
    const limit = limitAt === -1 ? 50 : Number.parseInt(url.slice(limitAt + 6), 10)
    const pageAt = q === -1 ? -1 : url.indexOf('page=', q)
    const start = pageAt === -1 ? 0 : Number.parseInt(url.slice(pageAt + 5), 10)
    const body: { items: BaselineSpace[]; count: number; next?: { page: string } } = { items: list.slice(start, start + limit), count: list.length }
    if (start + limit < list.length) body.next = { page: String(start + limit) }
    return json(200, body)
  }
}
