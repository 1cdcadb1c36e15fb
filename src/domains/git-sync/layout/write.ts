import { yamlLibrary } from '../../content/markdown-libs.js'
import { textHash } from '../../../core/text-hash.js'
import type { Context } from '../../context.js'
import type { FileRow, PageVersionRow, RevisionRow } from '../../content/rows.js'
import type { GitSyncFrontmatter, GitSyncTree } from '../rows.js'
import type { JsonDocument } from '../../content/document.js'
import { documentToMarkdown, markdownToDocument, type ContentRef } from '../../content/markdown.js'
import { childrenOf } from '../../content/revision.js'
import { FANOUT } from '../../content/tree-index.js'
import { slugify } from '../../content/slug.js'
import { gitRefusesName } from '../../content/git-names.js'
import { listReusableContents } from '../../content/reusable.js'
import type { ReusableContentVersionRow } from '../../content/rows.js'
import { basename, dirname, isWithin, join, relativeLink } from './paths.js'
import { eachRef, FILE_OR_URL_ONLY, mapRefs, type RefMapper } from './refs.js'
import { writeSummary, type SummaryEntry, type SummarySection } from './summary.js'

/**
 * A revision written in GitBook's Git Sync layout, under the content folder `root`: the first
 * page as `README.md`, a page with subpages as `<slug>/README.md` (its subpages in that folder),
 * any other as `<slug>.md`, a group as a `## Title` of SUMMARY.md with its pages in `<slug>/`;
 * SUMMARY.md for the tree; each file with YAML frontmatter (metadata), `# Title` and the body;
 * files as `.gitbook/assets/<name>`, reusable contents as `.gitbook/includes/<name>.md` (a page
 * includes one with `{% include "<relative path>" %}`). Links between pages and to files become relative links.
 */

/**
 * A page file before its body is written: the frontmatter and `# Title` (text), the body (written
 * through the offload; its links made relative when first read), and the fingerprint of both (renderedSum).
 */
export interface PageFile {
  head: string
  readonly body: JsonDocument
  sum: string
}

/** SUMMARY.md: its text (written when first read) and its fingerprint (what it lists). */
export interface SummaryFile {
  summary: true
  readonly text: string
  sum: string
}

export interface RenderedContent {
  /** Markdown files by repository path: SUMMARY.md as text, each page as its head and body. */
  text: Map<string, SummaryFile | PageFile>
  /** Assets by repository path: the blob key of their bytes. */
  assets: Map<string, string>
  /** What the sync's record keeps of this export (GitSyncTree): every file written, and which page or file it is. */
  tree: GitSyncTree
}

interface Placed {
  page: PageVersionRow
  /** Its markdown file; none for a group. */
  file?: string
  /** The folder its subpages go to. */
  dir: string
  children: Placed[]
}

/** `name`, or `name (2).ext`, `name (3).ext`... : the first not taken (GitBook's way for files of one name). */
function uniqueName(name: string, taken: Set<string>): string {
  let out = name
  for (let n = 2; taken.has(out.toLowerCase()); n++) {
    const dot = name.lastIndexOf('.')
    out = dot > 0 ? `${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${name} (${n})`
  }
  taken.add(out.toLowerCase())
  return out
}

/**
 * A page slug or file name as a path segment Git accepts: one it refuses (`.git`, `GIT~1`, `.git.`:
 * content/git-names.ts) is written `dot-git`, `GIT-1`... (a leading dot spelled out, `~` and `:`
 * as `-`, trailing dots and spaces dropped), so that one name cannot make a space impossible to export.
 */
export const gitSafeName = (name: string): string =>
  gitRefusesName(name)
    ? name
        .replace(/[. ]+$/, '')
        .replace(/^\./, 'dot-')
        .replace(/[~:]/g, '-')
    : name

/** A file name safe in a tree: no slash, not `.` or `..`, not empty, none Git refuses. */
const safeName = (name: string): string => {
  const cleaned = name.replace(/[/\\\0]/g, '-').trim()
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? 'file' : gitSafeName(cleaned)
}

/**
 * `previous`, the sync's record of the last sync with the branch: a page or file keeps the path it
 * had there (a repository's own file names and folders stay as they are), and a page's
 * frontmatter keys the content model has no place for (`layout`...) are written back, in the
 * order the file had them. The first page is always the readme.
 */
export function renderRevision(
  ctx: Context,
  rev: RevisionRow,
  root: string,
  names: { readme: string; summary: string },
  previous?: GitSyncTree,
): RenderedContent {
  const memo = previous && renders.get(previous)
  const again = memo && memo.root === root && memo.readme === names.readme && memo.summary === names.summary ? renderAgain(ctx, rev, memo) : undefined
  if (again) return again
  const full = renderWhole(ctx, rev, root, names, previous)
  // The next export starts from the record this render gives, or (after an import) from the one it was given.
  renders.set(full.render.tree, full.memo)
  if (previous) renders.set(previous, full.memo)
  return full.render
}

/**
 * What a render was made of and gave, for the next export of the space to start from
 * (renderAgain): page versions are immutable and shared by revisions, so most of a large space
 * is the same objects from one export to the next, and a render that placed the same tree gives
 * the same paths, links and SUMMARY.md; only the pages whose versions changed are rendered again
 * (a 1,000-page export after a one-page edit placed and fingerprinted 1,000 pages: bench (v)).
 * Kept by the sync's record (the one the render gave, and the one it was given), which the space's
 * sync row holds: gone with it.
 */
interface RenderMemo {
  root: string
  readme: string
  summary: string
  /** The rendered revision's page index (tree-index.ts: bucket ids; a bucket not changed holds the same page versions). */
  buckets: readonly string[]
  rootPages: readonly string[]
  files: ReadonlyArray<FileRow | undefined>
  reusable: readonly ReusableContentVersionRow[]
  render: RenderedContent
  paths: Paths
  frontmatterOf: ReadonlyMap<string, GitSyncFrontmatter>
  readmePath: string
}
const renders = new WeakMap<GitSyncTree, RenderMemo>()

const sameIds = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((x, i) => x === b[i])

/**
 * `rev` rendered from the memo of an earlier render, when its tree places the same: the same
 * pages (id, slug, title, kind, subpages, in the same order), files and reusable contents; the
 * pages whose versions changed otherwise (their body or metadata) are rendered again, every
 * other file is the memo's. Undefined when anything placed differs: the caller renders it whole.
 */
function renderAgain(ctx: Context, rev: RevisionRow, memo: RenderMemo): RenderedContent | undefined {
  if (!sameIds(rev.rootPages, memo.rootPages) || rev.files.length !== memo.files.length) return undefined
  for (let i = 0; i < rev.files.length; i++) if (ctx.tx.get('files', rev.files[i]!) !== memo.files[i]) return undefined
  const reusable = listReusableContents(ctx.tx, rev)
  if (reusable.length !== memo.reusable.length || reusable.some((r, i) => r !== memo.reusable[i])) return undefined
  // The pages whose versions changed: those of the index's buckets that changed (an edit writes
  // one bucket per page it touches), each compared with the version rendered; a page added or removed
  // (a key in one bucket and not the other) changes the tree.
  if (rev.buckets.length !== FANOUT || memo.buckets.length !== FANOUT) return undefined
  const changed: PageVersionRow[] = []
  for (let b = 0; b < FANOUT; b++) {
    if (rev.buckets[b] === memo.buckets[b]) continue
    const now = rev.buckets[b] === '' ? {} : ctx.tx.get('contentBuckets', rev.buckets[b]!)?.entries
    const then = memo.buckets[b] === '' ? {} : ctx.tx.get('contentBuckets', memo.buckets[b]!)?.entries
    if (!now || !then || Object.keys(now).length !== Object.keys(then).length) return undefined
    for (const [id, version] of Object.entries(now)) {
      const before = then[id]
      if (before === undefined) return undefined
      if (before === version) continue
      const page = ctx.tx.get('pageVersions', version)
      const was = ctx.tx.get('pageVersions', before)
      if (!page || !was) return undefined
      if (page.slug !== was.slug || page.title !== was.title || page.type !== was.type || !sameIds(page.children, was.children)) return undefined
      changed.push(page)
    }
  }
  const text = new Map(memo.render.text)
  for (const page of changed) {
    const file = memo.paths.fileOf.get(page.page)
    if (file === undefined) continue
    text.set(file, pageMarkdown(page, file, memo.paths, file === memo.readmePath, memo.frontmatterOf.get(page.page)))
  }
  const { texts: _texts, ...kept } = memo.render.tree
  const render: RenderedContent = { text, assets: memo.render.assets, tree: kept }
  renders.set(render.tree, { ...memo, buckets: rev.buckets, render })
  return render
}

function renderWhole(
  ctx: Context,
  rev: RevisionRow,
  root: string,
  names: { readme: string; summary: string },
  previous?: GitSyncTree,
): { render: RenderedContent; memo: RenderMemo } {
  const text = new Map<string, SummaryFile | PageFile>()
  const assets = new Map<string, string>()
  const fileOf = new Map<string, string>()
  const assetOf = new Map<string, string>()
  const readmePath = join(root, names.readme)
  const summaryPath = join(root, names.summary)
  const assetDir = join(root, '.gitbook/assets')

  // Paths the last sync gave pages and files, kept where still free (each path names one thing).
  // The tree read once: each page's subpages (placing the pages reads them again).
  const subpagesOf = new Map<PageVersionRow | undefined, PageVersionRow[]>()
  const pageIds = new Set<string>()
  const readTree = (parent: PageVersionRow | undefined): void => {
    const pages = childrenOf(ctx.tx, rev, parent)
    subpagesOf.set(parent, pages)
    for (const page of pages) {
      pageIds.add(page.page)
      readTree(page)
    }
  }
  readTree(undefined)
  const recordedPage = new Map<string, string>()
  const frontmatterOf = new Map<string, GitSyncFrontmatter>()
  const taken = new Set<string>([summaryPath.toLowerCase(), readmePath.toLowerCase()])
  // The page read from or written to the readme: it stays the readme when the first entry is a
  // group (SUMMARY.md may list the readme inside one); a first page that is a document is always the readme.
  let recordedReadme: string | undefined
  for (const { path, page, frontmatter } of previous?.pages ?? []) {
    if (frontmatter) frontmatterOf.set(page, frontmatter)
    if (path === readmePath && pageIds.has(page)) recordedReadme ??= page
    if (!pageIds.has(page) || recordedPage.has(page) || path === readmePath || taken.has(path.toLowerCase()) || !isWithin(path, root)) continue
    recordedPage.set(page, path)
    taken.add(path.toLowerCase())
  }
  const recordedFile = new Map<string, string>()
  for (const { path, file } of previous?.files ?? []) {
    if (!rev.files.includes(file) || recordedFile.has(file) || taken.has(path.toLowerCase()) || !isWithin(path, assetDir)) continue
    recordedFile.set(file, path)
    taken.add(path.toLowerCase())
  }
  const free = (path: string): string => {
    let out = path
    for (let n = 2; taken.has(out.toLowerCase()); n++) out = path.replace(/(\.md)?$/i, (ext) => `-${n}${ext}`)
    taken.add(out.toLowerCase())
    return out
  }

  const assetNames = new Set<string>([...recordedFile.values()].map((p) => basename(p).toLowerCase()))
  for (const id of rev.files) {
    const file = ctx.tx.get('files', id) as FileRow | undefined
    if (!file) continue
    const path = recordedFile.get(id) ?? join(assetDir, uniqueName(safeName(file.name), assetNames))
    taken.add(path.toLowerCase())
    assets.set(path, file.blob)
    assetOf.set(id, path)
  }

  // Reusable contents: `.gitbook/includes/<title's slug>.md` (or the path the last sync gave it), YAML frontmatter with the title, then the body.
  const includeDir = join(root, '.gitbook/includes')
  const includeOf = new Map<string, string>()
  const reusable = listReusableContents(ctx.tx, rev)
  const recordedInclude = new Map<string, string>()
  for (const { path, reusableContent } of previous?.reusableContents ?? []) {
    if (recordedInclude.has(reusableContent) || taken.has(path.toLowerCase()) || dirname(path) !== includeDir) continue
    recordedInclude.set(reusableContent, path)
    taken.add(path.toLowerCase())
  }
  for (const content of reusable) {
    const path = recordedInclude.get(content.reusableContent) ?? free(join(includeDir, `${slugify(content.title) || 'reusable-content'}.md`))
    includeOf.set(content.reusableContent, path)
  }

  const topPages = subpagesOf.get(undefined)!
  const readmePage = topPages[0]?.type === 'group' ? recordedReadme : topPages[0]?.page
  const place = (pages: PageVersionRow[], dir: string): Placed[] =>
    pages.map((page) => {
      const subpages = subpagesOf.get(page)!
      const segment = gitSafeName(page.slug)
      const sub = join(dir, segment)
      if (page.type === 'group') return { page, dir: sub, children: place(subpages, sub) }
      const file =
        page.page === readmePage ? readmePath : (recordedPage.get(page.page) ?? free(subpages.length ? join(sub, 'README.md') : join(dir, `${segment}.md`)))
      fileOf.set(page.page, file)
      // Subpages go to the folder of the page's file (`x/README.md` → `x/`, `x.md` → `x/`; the first page's: its slug's).
      const childDir = file === readmePath ? sub : basename(file) === 'README.md' ? dirname(file) : file.replace(/\.md$/i, '')
      return { page, file, dir: childDir, children: place(subpages, childDir) }
    })
  const tree = place(topPages, root)

  const summaryDir = dirname(join(root, names.summary))
  const entry = (p: Placed): SummaryEntry => ({
    title: p.page.title,
    ...(p.file && { link: relativeLink(summaryDir, p.file) }),
    children: p.children.map(entry),
  })
  const sections: SummarySection[] = [{ entries: [] }]
  for (const p of tree) {
    const last = sections[sections.length - 1]!
    if (p.page.type === 'group') sections.push({ group: p.page.title, entries: p.children.map(entry) })
    // A page after a group: a top-level run of its own (written after a `---`, summary.ts).
    else if (last.group !== undefined) sections.push({ entries: [entry(p)] })
    else last.entries.push(entry(p))
  }
  // Written when read (an export with the same tree never writes it), fingerprinted by what it lists.
  const listed = sections.filter((s, i) => i > 0 || s.entries.length > 0)
  let summary: string | undefined
  text.set(summaryPath, {
    summary: true,
    sum: textHash(JSON.stringify(listed)),
    get text() {
      return (summary ??= writeSummary(listed))
    },
  })

  const record: GitSyncTree = { pages: [], files: [...assetOf].map(([file, path]) => ({ path, file })), other: [summaryPath] }
  const write = (p: Placed) => {
    if (p.file) {
      const frontmatter = frontmatterOf.get(p.page.page)
      text.set(p.file, pageMarkdown(p.page, p.file, { fileOf, assetOf, includeOf }, p.file === readmePath, frontmatter))
      record.pages.push({ path: p.file, page: p.page.page, ...(frontmatter && { frontmatter }) })
    }
    p.children.forEach(write)
  }
  tree.forEach(write)
  for (const content of reusable) {
    const path = includeOf.get(content.reusableContent)!
    text.set(path, pageFile(`---\n${yamlLibrary.get().stringify({ title: content.title })}---\n`, content.document, path, { fileOf, assetOf, includeOf }))
  }
  if (reusable.length > 0) record.reusableContents = reusable.map((c) => ({ path: includeOf.get(c.reusableContent)!, reusableContent: c.reusableContent }))
  const render: RenderedContent = { text, assets, tree: record }
  return {
    render,
    memo: {
      root,
      readme: names.readme,
      summary: names.summary,
      buckets: rev.buckets,
      rootPages: rev.rootPages,
      files: rev.files.map((id) => ctx.tx.get('files', id) as FileRow | undefined),
      reusable,
      render,
      paths: { fileOf, assetOf, includeOf },
      frontmatterOf,
      readmePath,
    },
  }
}

/** A page's file: frontmatter (metadata), `# Title`, the body with its links made relative (written by `pageText`). */
interface Paths {
  fileOf: ReadonlyMap<string, string>
  assetOf: ReadonlyMap<string, string>
  includeOf: ReadonlyMap<string, string>
}

/**
 * A body as the repository writes it: references to pages and files as relative links from
 * `file`, and a reusable content block's reference as the relative path of its include file
 * (written `{% include "…" %}`, gitbook/markdown.ts).
 */
function relativeRef(file: string, { fileOf, assetOf, includeOf }: Paths): RefMapper {
  const from = dirname(file)
  return (ref, nodeType) => {
    if (ref.kind === 'file' && typeof ref.file === 'string' && assetOf.has(ref.file)) return { kind: 'url', url: relativeLink(from, assetOf.get(ref.file)!) }
    if (ref.kind === 'reusable-content' && typeof ref.reusableContent === 'string') {
      const include = includeOf.get(ref.reusableContent)
      return include === undefined ? undefined : { ...ref, reusableContent: relativeLink(from, include) }
    }
    if (FILE_OR_URL_ONLY.has(nodeType)) return undefined
    const target = (ref.kind === 'page' || ref.kind === 'anchor') && typeof ref.page === 'string' ? fileOf.get(ref.page) : undefined
    if (!target) return undefined
    const link = relativeLink(from, target)
    return { kind: 'url', url: ref.kind === 'anchor' ? `${link}#${String(ref.anchor)}` : link }
  }
}

/**
 * What a document gives to every fingerprint: its JSON's hash and its references with their node
 * types, in the order mapRefs meets them. Documents are immutable and shared by the revisions a
 * page did not change in, so an export of a large space reads each unchanged body once, not at
 * every export (an export fingerprints every page: layout/write.ts renderedSum).
 */
const documentFacts = new WeakMap<JsonDocument, { hash: string; refs: Array<[ContentRef, string]> }>()
function factsOf(document: JsonDocument): { hash: string; refs: Array<[ContentRef, string]> } {
  let facts = documentFacts.get(document)
  if (!facts) {
    const refs: Array<[ContentRef, string]> = []
    eachRef(document, (ref, nodeType) => refs.push([ref, nodeType]))
    facts = { hash: textHash(JSON.stringify(document)), refs }
    documentFacts.set(document, facts)
  }
  return facts
}

/**
 * A page or include file: its head, its body with links made relative (computed when read: an
 * export writes few files), and its fingerprint: the head, the document, and where each of its
 * references leads from `file` (a page moving changes the files linking to it).
 */
function pageFile(head: string, document: JsonDocument, file: string, paths: Paths): PageFile {
  const mapper = relativeRef(file, paths)
  const facts = factsOf(document)
  const targets = facts.refs.length === 0 ? '[]' : JSON.stringify(facts.refs.map(([ref, nodeType]) => mapper(ref, nodeType) ?? null))
  let body: JsonDocument | undefined
  return {
    head,
    get body() {
      return (body ??= mapRefs(document, mapper))
    },
    sum: textHash(`${head}\0${facts.hash}\0${targets}`),
  }
}

/**
 * The head each page version was last written with, and what it was written from: page versions
 * are immutable and shared by the revisions that did not change them, so an export of a large
 * space writes the heads of the pages an edit reached, not of every page (most of a 1,000-page
 * export's time went to heads and their YAML otherwise: bench (v)).
 */
const headMemo = new WeakMap<PageVersionRow, { readme: boolean; recorded: GitSyncFrontmatter | undefined; head: string }>()
const sameFrontmatter = (a: GitSyncFrontmatter | undefined, b: GitSyncFrontmatter | undefined): boolean =>
  a === b || (a !== undefined && b !== undefined && JSON.stringify(a) === JSON.stringify(b))

function pageMarkdown(page: PageVersionRow, file: string, paths: Paths, readme: boolean, recorded?: GitSyncFrontmatter): PageFile {
  const memo = headMemo.get(page)
  if (memo && memo.readme === readme && sameFrontmatter(memo.recorded, recorded)) return pageFile(memo.head, page.document, file, paths)
  const head = pageHead(page, readme, recorded)
  headMemo.set(page, { readme, recorded, head })
  return pageFile(head, page.document, file, paths)
}

/** A page file's frontmatter (metadata, and the keys `recorded` kept, in its order) and `# Title`. */
function pageHead(page: PageVersionRow, readme: boolean, recorded?: GitSyncFrontmatter): string {
  const meta: Record<string, unknown> = {}
  for (const key of ['description', 'icon', 'emoji', 'hidden', 'noIndex', 'noRobotsIndex', 'condition'] as const)
    if (page[key] !== undefined) meta[key] = page[key]
  // The file name gives the slug; the first page's README.md does not: its slug goes along when the title would not give it.
  if (readme && slugify(page.title) !== page.slug) meta.slug = page.slug
  // The title as a heading, unless markdown cannot say it exactly (leading spaces, say): then in the frontmatter.
  const { heading, readsBack } = titleHeading(page.title)
  if (!readsBack) meta.title = page.title
  // Keys the content model has no place for come back from the record, and every key goes in the order the file had it.
  Object.assign(meta, recorded?.extra)
  const order = recorded?.keys ?? []
  const keys = [...order.filter((k) => k in meta), ...Object.keys(meta).filter((k) => !order.includes(k))]
  const parts: string[] = []
  if (keys.length) parts.push(`---\n${yamlLibrary.get().stringify(Object.fromEntries(keys.map((k) => [k, meta[k]])))}---\n`)
  if (readsBack) parts.push(heading)
  return parts.join('\n')
}

/**
 * A fingerprint of what the content gives at a path (SUMMARY.md's text, a page's head and body
 * with its links made relative): the same content at the same place gives the same sum, so an
 * export can tell a file whose content did not change since the last sync without writing it.
 */
export function renderedSum(rendering: SummaryFile | PageFile): string {
  return rendering.sum
}

/** Words, digits, single spaces and punctuation no markdown construct starts from: such a title is `# ` and itself. */
const PLAIN_TITLE = /^[\p{L}\p{N}][\p{L}\p{N}\p{M},.'’?!()/-]*(?: [\p{L}\p{N}\p{M},.'’?!()/-]+)*$/u

/**
 * A title as a `# Title` heading, and whether it reads back as the same title. Plain titles (most
 * of them) need no check; others are written and read back through remark (a page of an export
 * costs two markdown passes otherwise, a third of a 1,000-page export's time).
 */
function titleHeading(title: string): { heading: string; readsBack: boolean } {
  if (PLAIN_TITLE.test(title)) return { heading: `# ${title}\n`, readsBack: true }
  const heading = documentToMarkdown({
    object: 'document',
    data: {},
    nodes: [{ object: 'block', type: 'heading-1', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: title, marks: [] }] }] }],
  })
  return { heading, readsBack: markdownToDocument(heading, { takeTitle: true }).title === title }
}

/** A page file's text: its head, then its body written as GitBook-flavoured markdown (`markdown`: the body written). */
export function pageText(file: { head: string }, markdown: string): string {
  return [file.head, markdown].filter((part) => part !== '').join('\n')
}
