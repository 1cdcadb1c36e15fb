import type { DocBlock, DocNode, JsonDocument, JsonObject } from '../document.js'
import { dataOf, nodeText } from './nodes.js'

/**
 * Content references (ContentRef*) as markdown URLs and back, and the walks over a document that
 * link tracking, search and PDF export need.
 */
export type ContentRef = { kind: string; [k: string]: unknown }

/** `/pages/<id>` or `/files/<id>` (one non-empty segment); anything else is not ours. */
function ownPath(url: string, prefix: '/pages/' | '/files/'): string | undefined {
  if (!url.startsWith(prefix)) return undefined
  const id = url.slice(prefix.length)
  return id && !id.includes('/') && !id.includes('?') && !id.includes('#') ? id : undefined
}

/** An anchor: `#<anchor>` (in the page itself) or `/pages/<id>#<anchor>`, as `refUrl` writes them. */
function anchorRef(url: string): ContentRef | undefined {
  const hash = url.indexOf('#')
  if (hash < 0 || hash === url.length - 1) return undefined
  const anchor = url.slice(hash + 1)
  if (hash === 0) return { kind: 'anchor', anchor }
  const page = ownPath(url.slice(0, hash), '/pages/')
  return page ? { kind: 'anchor', anchor, page } : undefined
}

/** The reference a link's URL stands for. */
export function linkRef(url: string): ContentRef {
  const page = ownPath(url, '/pages/')
  if (page) return { kind: 'page', page }
  return anchorRef(url) ?? imageRef(url)
}

/** Images and files may only reference a file or a URL (ContentRefFile | ContentRefURL). */
export function imageRef(url: string): ContentRef {
  const file = ownPath(url, '/files/')
  return file ? { kind: 'file', file } : { kind: 'url', url }
}

/** The URL a reference is written as; kinds markdown cannot name go to a path of their own. */
export function refUrl(ref: unknown): string {
  const r = (ref ?? {}) as JsonObject
  // Ids are written as they are: markdown keeps a URL's characters (`<…>` when it must).
  const id = (key: string) => String(r[key] ?? '')
  switch (r.kind) {
    case 'url':
      return String(r.url ?? '')
    case 'page':
      return `/pages/${id('page')}`
    case 'file':
      return `/files/${id('file')}`
    case 'anchor':
      return `${r.page ? `/pages/${id('page')}` : ''}#${id('anchor')}`
    case 'space':
      return `/spaces/${id('space')}`
    case 'user':
      return `/users/${id('user')}`
    case 'collection':
      return `/collections/${id('collection')}`
    default:
      return ''
  }
}

const isRef = (v: unknown): v is ContentRef => typeof v === 'object' && v !== null && typeof (v as JsonObject).kind === 'string'

/** Depth-first over every node, fragments (table cells, captions) included, in document order. */
function walk(nodes: DocNode[], visit: (node: DocNode) => void): void {
  for (const node of nodes) {
    visit(node)
    if (node.object === 'text') continue
    if (node.nodes) walk(node.nodes, visit)
    if (node.object === 'block') for (const f of node.fragments ?? []) walk(f.nodes, visit)
  }
}

/** Every content reference in a document, in order: links', images' and files' `data.ref`. */
export function documentRefs(document: JsonDocument): ContentRef[] {
  const refs: ContentRef[] = []
  walk(document.nodes, (node) => {
    if (node.object === 'text') return
    // An image's dark-mode variant (`refDark`) is a use of its file too.
    for (const ref of [dataOf(node).ref, dataOf(node).refDark]) if (isRef(ref)) refs.push({ ...ref })
  })
  return refs
}

/** A block's plain text; blocks whose children are blocks give their children's, one per line (search sections, PDF). */
export function blockText(b: DocBlock): string {
  if (b.type === 'table') return tableText(b)
  if (b.type === 'image') return String(dataOf(b).alt ?? '')
  const children = b.nodes ?? []
  if (children.some((n) => n.object === 'block')) {
    return children
      .map((n) => (n.object === 'block' ? blockText(n) : nodeText(n)))
      .filter((t) => t !== '')
      .join('\n')
  }
  return nodeText(b)
}

/** A table's text: the column titles, then each record, cells separated by tabs. */
function tableText(b: DocBlock): string {
  const data = dataOf(b)
  const definition = (data.definition ?? {}) as Record<string, JsonObject>
  const columns = (((data.view ?? {}) as JsonObject).columns ?? Object.keys(definition)) as string[]
  const fragments = new Map((b.fragments ?? []).map((f) => [f.fragment, f]))
  const records = Object.values((data.records ?? {}) as Record<string, JsonObject>)
  const rows = [columns.map((c) => String(definition[c]?.title ?? ''))]
  for (const record of records) {
    const values = (record.values ?? {}) as JsonObject
    rows.push(
      columns.map((c) => {
        const v = values[c]
        const fragment = typeof v === 'string' ? fragments.get(v) : undefined
        if (fragment) return fragment.nodes.map(blockText).join(' ')
        return v === null || v === undefined || typeof v === 'object' ? '' : String(v)
      }),
    )
  }
  return rows.map((r) => r.join('\t')).join('\n')
}

/** Plain text of a document: one line per block (search and PDF). */
export function documentText(document: JsonDocument): string {
  return document.nodes
    .map(blockText)
    .filter((t) => t !== '')
    .join('\n')
}
