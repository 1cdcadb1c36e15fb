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
  /** The organization's list, pre-built: GET /v1/orgs/{id}/spaces serves it a slice a page. */
  listItems: readonly unknown[]
}

export function createBaseline(data: BaselineData): (request: Request) => Promise<Response> {
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
    // GET /v1/orgs/{id}/spaces?limit=<n>&page=<offset>: an offset cursor over the stored list
    const limitAt = q === -1 ? -1 : url.indexOf('limit=', q)
    const limit = limitAt === -1 ? 50 : Number.parseInt(url.slice(limitAt + 6), 10)
    const pageAt = q === -1 ? -1 : url.indexOf('page=', q)
    const start = pageAt === -1 ? 0 : Number.parseInt(url.slice(pageAt + 5), 10)
    const total = data.listItems.length
    const body: { items: readonly unknown[]; count: number; next?: { page: string } } = { items: data.listItems.slice(start, start + limit), count: total }
    if (start + limit < total) body.next = { page: String(start + limit) }
    return json(200, body)
  }
}
