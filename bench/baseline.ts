/**
 * The baseline: the least a fetch handler serving stored JSON can do. It splits the URL, looks
 * the object up in a Map, checks the token, and answers `JSON.stringify` of the stored object.
 * No routing table, validation, access rules or encoding: the API is measured against this.
 */

const HEADERS = { 'content-type': 'application/json; charset=utf-8' }

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: HEADERS })
}

export interface BaselineData {
  tokens: ReadonlySet<string>
  /** Stored objects by id (GET /v1/spaces/{id}). */
  spaces: ReadonlyMap<string, unknown>
  /** One page of pre-built items, served for every page of GET /v1/orgs/{id}/spaces. */
  pageItems: readonly unknown[]
  /** How many items the list pretends to hold (pages = total / pageItems.length). */
  total: number
}

export function createBaseline(data: BaselineData): (request: Request) => Promise<Response> {
  const pages = Math.ceil(data.total / data.pageItems.length)
  return async (request) => {
    const url = request.url
    const pathStart = url.indexOf('/', url.indexOf('://') + 3)
    const q = url.indexOf('?', pathStart)
    const parts = url.slice(pathStart, q === -1 ? url.length : q).split('/')
    const auth = request.headers.get('authorization')
    if (!auth || !data.tokens.has(auth.slice(7))) return json(401, { error: { code: 401, message: 'Unauthorized' } })
    if (parts[2] === 'spaces') {
      const space = data.spaces.get(parts[3]!)
      return space ? json(200, space) : json(404, { error: { code: 404, message: 'Not found' } })
    }
    // GET /v1/orgs/{id}/spaces?limit=100&page=<n>
    const pageAt = q === -1 ? -1 : url.indexOf('page=', q)
    const page = pageAt === -1 ? 0 : Number.parseInt(url.slice(pageAt + 5), 10)
    const body: { items: readonly unknown[]; count: number; next?: { page: string } } = { items: data.pageItems, count: data.total }
    if (page + 1 < pages) body.next = { page: String(page + 1) }
    return json(200, body)
  }
}
