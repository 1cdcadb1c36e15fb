import type { BoundOperation, HttpMethod } from '../core/operation.js'
import { OFFICIAL_ROUTES } from './official-routes.js'

/** A node of a path tree: static children by segment, one parameter child, values by method. */
interface Node<T> {
  statics: Map<string, Node<T>>
  /** `rest`: the parameter takes the rest of the path, slashes included (see REST_PARAMS). */
  param?: { name: string; node: Node<T>; rest: boolean }
  methods: Map<string, T>
}

const newNode = <T>(): Node<T> => ({ statics: new Map(), methods: new Map() })

/**
 * Parameters that hold a path, last in their route: `{pagePath}` of `.../content/path/{pagePath}`
 * takes `getting-started/install` whether the client sends its slashes raw or encoded.
 */
const REST_PARAMS = new Set(['pagePath'])

export type Match =
  | { kind: 'found'; operation: BoundOperation; params: Record<string, string> }
  | { kind: 'method-not-allowed'; allow: HttpMethod[] }
  /** An operation of the official document this API does not implement. */
  | { kind: 'not-implemented'; operationId: string }
  | { kind: 'not-found' }

/** Add `value` at `path` for `method`; parameter names must agree at a position unless `anyNames`. */
function insert<T>(root: Node<T>, method: string, path: string, value: T, anyNames = false): void {
  let node = root
  for (const segment of path.split('/').filter(Boolean)) {
    const param = /^\{(\w+)\}$/.exec(segment)
    if (param) {
      const name = anyNames ? '_' : param[1]!
      if (node.param && node.param.name !== name) {
        throw new Error(`Conflicting parameter names at ${path}: {${node.param.name}} and {${name}}`)
      }
      node.param ??= { name, node: newNode(), rest: REST_PARAMS.has(param[1]!) }
      node = node.param.node
    } else {
      let next = node.statics.get(segment)
      if (!next) node.statics.set(segment, (next = newNode()))
      node = next
    }
  }
  if (node.methods.has(method)) throw new Error(`Duplicate route ${method} ${path}`)
  node.methods.set(method, value)
}

/**
 * Walk `pathname` down the tree, static segments first; `params` (when given) collects the
 * decoded parameters. Undefined when no node matches; null when a parameter is not valid
 * percent-encoding (no route can take it).
 */
function walk<T>(root: Node<T>, pathname: string, params?: Record<string, string>): Node<T> | undefined | null {
  let node: Node<T> | undefined = root
  let start = 1
  const end = pathname.length
  while (node && start <= end) {
    let slash = pathname.indexOf('/', start)
    if (slash === -1) slash = end
    if (slash === start) {
      // empty segment (trailing or doubled slash): skip it
      start = slash + 1
      continue
    }
    const segment = pathname.slice(start, slash)
    const next: Node<T> | undefined = node.statics.get(segment)
    if (next) node = next
    else if (node.param?.rest) {
      const rest = pathname.slice(start).replace(/\/+$/, '')
      if (params) {
        try {
          params[node.param.name] = rest.split('/').map(decodeURIComponent).join('/')
        } catch {
          return null
        }
      }
      return node.param.node
    } else if (node.param) {
      if (params) {
        let value = segment
        // Most segments hold no escape: decode only those that do.
        if (segment.includes('%')) {
          try {
            value = decodeURIComponent(segment)
          } catch {
            return null
          }
        }
        params[node.param.name] = value
      }
      node = node.param.node
    } else node = undefined
    start = slash + 1
  }
  return node
}

/** The tree of the official document's operations, built once on first use (only misses consult it). */
let official: Node<string> | undefined
function officialTree(): Node<string> {
  if (!official) {
    official = newNode()
    for (const [method, path, id] of OFFICIAL_ROUTES) insert(official, method, path, id, true)
  }
  return official
}

/**
 * Path matching compiled from the operation table into a segment tree: a lookup costs one map
 * probe per segment, whatever the number of operations. Static segments win over parameters.
 * A request the table has no operation for, but the official document has, is `not-implemented`
 * (answered 501 naming the official operation), so code under test never mistakes a gap of this
 * API for a missing resource.
 */
export function createRouter(operations: readonly BoundOperation[]) {
  const root = newNode<BoundOperation>()
  for (const op of operations) insert(root, op.def.method, op.def.path, op)

  return {
    match(method: string, pathname: string): Match {
      const params: Record<string, string> = {}
      const node = walk(root, pathname, params)
      if (node === null) return { kind: 'not-found' }
      const operation = node?.methods.get(method)
      if (operation) return { kind: 'found', operation, params }
      const officialId = walk(officialTree(), pathname)?.methods.get(method)
      if (officialId) return { kind: 'not-implemented', operationId: officialId }
      if (node && node.methods.size > 0) return { kind: 'method-not-allowed', allow: [...node.methods.keys()] as HttpMethod[] }
      return { kind: 'not-found' }
    },
    /** The methods the table serves at a path (empty when none). */
    allowed(pathname: string): HttpMethod[] {
      return [...(walk(root, pathname)?.methods.keys() ?? [])] as HttpMethod[]
    },
  }
}

export type Router = ReturnType<typeof createRouter>
