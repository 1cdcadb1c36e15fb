import type { ReadTx } from '../../storage/port.js'
import type { AppSchema } from '../schema.js'
import type { RevisionRow } from './rows.js'
import type { JsonDocument } from './document.js'
import { dirname, relativeLink, resolveLink } from './link-paths.js'
import { mapObjects } from './map-json.js'
import { pageIn, pagePath } from './revision.js'

/**
 * Page links as relative links between pages, and back. A revision's pages are seen as markdown
 * files, `<path>.md` (`guide/install` → `guide/install.md`), as a docs repository lays them out:
 * from `guide/install`, the page `guide/usage` is `usage.md` and the page `api` is `../api.md`.
 * `format.markdown.refs=relative` writes page links so; a body written back with such links (a
 * markdown read, edited, sent again) has them read back as page links.
 */

type Ref = { kind: string; [key: string]: unknown }
const isRef = (v: unknown): v is Ref => typeof v === 'object' && v !== null && typeof (v as Ref).kind === 'string' && !('object' in v)

/** A document with every reference `fn` changes replaced (references are not looked into). */
export function mapRefs<T>(value: T, fn: (ref: Ref) => Ref): T {
  return mapObjects(value, (obj, children) => (isRef(obj) ? fn(obj) : children(obj)))
}

/** The markdown file of a page path. */
const fileOf = (path: string): string => `${path}.md`

/**
 * `document` of the page at `path` with its links to pages of `rev` (and anchors in them) as
 * relative links; links to pages the revision lacks, and every other reference, stay as they are.
 */
export function withRelativePageLinks(tx: ReadTx<AppSchema>, rev: RevisionRow, path: string, document: JsonDocument): JsonDocument {
  const dir = dirname(fileOf(path))
  return mapRefs(document, (ref) => {
    if ((ref.kind !== 'page' && ref.kind !== 'anchor') || typeof ref.page !== 'string') return ref
    if (ref.space !== undefined && ref.space !== rev.space) return ref
    const target = pageIn(tx, rev, ref.page)
    if (!target) return ref
    const link = relativeLink(dir, fileOf(pagePath(tx, rev, target)))
    return { kind: 'url', url: ref.kind === 'anchor' ? `${link}#${String(ref.anchor)}` : link }
  })
}

/**
 * A relative link to a page file (`usage.md`, `../api/README.md#setup`), from a page whose
 * parent's path is `dir`, as the page path and anchor it names; undefined for anything else.
 * `<folder>/README.md` names the page at `<folder>`, as in a docs repository.
 */
export function relativePageTarget(dir: string, url: string): { path: string; anchor?: string } | undefined {
  const link = resolveLink(dir, '', url)
  if (!link || !link.path.endsWith('.md')) return undefined
  const file = link.path.slice(0, -'.md'.length)
  const path = file === 'README' ? '' : file.endsWith('/README') ? file.slice(0, -'/README'.length) : file
  if (path === '') return undefined
  return link.anchor === undefined ? { path } : { path, anchor: link.anchor }
}
