import type { Context } from '../context.js'
import type { FileRow, PageVersionRow, RevisionRow } from '../content/rows.js'
import type { GitSyncRow, GitSyncTree } from './rows.js'
import type { SpaceRow } from '../spaces/rows.js'
import type { DocBlock, JsonDocument } from '../content/document.js'
import { listReusableContents } from '../content/reusable.js'
import { sameRedirects } from '../content/redirects.js'
import { tagLine } from './gitbook/tag-syntax.js'
import { RevisionDraft, type PageData } from '../content/draft.js'
import { findRevision, pagePath, walkPages } from '../content/revision.js'
import { GitSyncError } from './errors.js'
import { settleFileBlocks } from './gitbook/markdown.js'
import { dirname, resolveLink } from './layout/paths.js'
import type { ImportedContent, ImportedPage } from './layout/read.js'
import { FILE_OR_URL_ONLY, mapRefs, withBlockKeys } from './layout/refs.js'

/**
 * The last step of an import, in one transaction: the repository's pages become a new revision
 * of the space (type `edits`, with `git` naming the commit), built on main so that a page whose
 * path did not change keeps its id (and, unchanged, its version: comments stay anchored to its
 * blocks); pages no longer in the repository are left out; referenced assets become the
 * revision's files. Main moves to it unless `standalone`. Nothing is written when it throws.
 */

/** An asset whose bytes are in the blob port (put by the job), or a file of main it is identical to. */
export interface PreparedAsset {
  path: string
  oid: string
  name: string
  contentType: string
  size: number
  dimensions?: { width: number; height: number }
  blob?: string
  /** A file of main with the same bytes: reused, not copied. */
  reuse?: string
}

export interface ImportCommit {
  oid: string
  message: string
  ref: string
  url?: string
}

const METADATA = ['description', 'icon', 'emoji', 'hidden', 'noIndex', 'noRobotsIndex', 'condition'] as const

/** What an import made: the revision, and the record of the files it read (GitSyncTree, git-sync/rows.ts). */
export interface AppliedImport {
  revision: RevisionRow
  tree: GitSyncTree
}

/** A document without its block keys (an import makes new ones), to compare bodies. */
const withoutKeys = (document: JsonDocument): string => JSON.stringify(document, (key, value: unknown) => (key === 'key' ? undefined : value))

/** Whether a page read from the repository says the same as a stored version (block keys do not count). */
function unchanged(old: PageVersionRow, next: PageData): boolean {
  if (old.type !== next.type || old.title !== next.title || old.slug !== next.slug) return false
  if (METADATA.some((key) => old[key] !== next[key])) return false
  return withoutKeys(old.document) === withoutKeys(next.document)
}

/**
 * Reusable content blocks naming no reusable content of the import (`{% include %}` of a file not
 * in `.gitbook/includes/`) become the tag's text, as an unknown tag does, written back as it was.
 */
function settleIncludes(document: JsonDocument, ids: ReadonlySet<string>): JsonDocument {
  const settle = (nodes: DocBlock[]): DocBlock[] => {
    let changed = false
    const out = nodes.map((n): DocBlock => {
      if (n.type === 'reusable-content') {
        const target = (n.data?.ref as { reusableContent?: unknown } | undefined)?.reusableContent
        if (typeof target === 'string' && ids.has(target)) return n
        changed = true
        return {
          object: 'block',
          type: 'paragraph',
          ...(n.key !== undefined && { key: n.key }),
          data: {},
          nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: tagLine('include', [['', String(target ?? '')]]), marks: [] }] }],
        }
      }
      if (n.fragments) {
        const fragments = n.fragments.map((f) => {
          const inner = settle(f.nodes)
          return inner === f.nodes ? f : { ...f, nodes: inner }
        })
        if (fragments.some((f, i) => f !== n.fragments![i])) {
          changed = true
          return { ...n, fragments }
        }
      }
      if (n.type === 'if' && n.nodes) {
        const inner = settle(n.nodes as DocBlock[])
        if (inner !== n.nodes) {
          changed = true
          return { ...n, nodes: inner }
        }
      }
      return n
    })
    return changed ? out : nodes
  }
  const nodes = settle(document.nodes)
  return nodes === document.nodes ? document : { ...document, nodes }
}

export function applyImport(ctx: Context, row: GitSyncRow, content: ImportedContent, assets: readonly PreparedAsset[], commit: ImportCommit): AppliedImport {
  const space = ctx.tx.get('spaces', row.space)
  if (!space || space.deletedAt) throw new GitSyncError('the space was deleted while the import ran')
  const main = findRevision(ctx.tx, space, space.revision)!
  const standalone = row.operation.standalone === true
  if (!standalone && space.editMode === 'locked')
    throw new GitSyncError('the space was locked (editMode locked) while the import ran: unlock it, or import with `standalone`')
  if (!standalone && !row.operation.force && row.revision !== undefined && space.revision !== row.revision) {
    throw new GitSyncError(
      `the space has changes made after the last sync (its content is at revision ${space.revision}, the last sync left it at ${row.revision}): export them first, or import with \`force\` to replace them`,
    )
  }
  const now = ctx.nowIso()

  // Files: one per referenced asset, a file of main with the same bytes reused as it is.
  const fileByPath = new Map<string, string>()
  const files: string[] = []
  for (const asset of assets) {
    let id = asset.reuse
    if (id === undefined) {
      const file: FileRow = {
        id: ctx.newId(),
        space: space.id,
        name: asset.name,
        contentType: asset.contentType,
        size: asset.size,
        blob: asset.blob!,
        createdAt: now,
        git: { oid: asset.oid, path: asset.path },
      }
      if (asset.dimensions) file.dimensions = asset.dimensions
      id = ctx.tx.insert('files', file).id
    }
    fileByPath.set(asset.path, id)
    if (!files.includes(id)) files.push(id)
  }

  // Page ids: the page the last sync read or wrote at the same file; else main's page at the same
  // slug path; else a new one. Each id is given once.
  const oldByPath = new Map<string, PageVersionRow>()
  for (const { page } of walkPages(ctx.tx, main)) oldByPath.set(pagePath(ctx.tx, main, page), page)
  const ids = new Map<ImportedPage, string>()
  const used = new Set<string>()
  const byFilePath = new Map((row.tree?.pages ?? []).map((p) => [p.path, p.page]))
  const claim = (page: ImportedPage, id: string | undefined): boolean => {
    if (id === undefined || used.has(id)) return false
    ids.set(page, id)
    used.add(id)
    return true
  }
  for (const page of content.byFile.values()) claim(page, byFilePath.get(page.file!))
  const assign = (pages: readonly ImportedPage[], prefix: string) => {
    for (const page of pages) {
      const path = `${prefix}${page.slug}`
      if (!ids.has(page) && !claim(page, oldByPath.get(path)?.page)) claim(page, ctx.newId())
      assign(page.children, `${path}/`)
    }
  }
  assign(content.pages, '')
  const pageIdOf = new Map<string, string>()
  for (const [file, page] of content.byFile) pageIdOf.set(file, ids.get(page)!)

  // Reusable contents: the one the last sync read or wrote at the same file; else main's of the same title; else a new one.
  const includeIds = new Map<string, string>()
  const usedIncludes = new Set<string>()
  const recordedInclude = new Map((row.tree?.reusableContents ?? []).map((r) => [r.path, r.reusableContent]))
  const mainByTitle = new Map<string, string>()
  for (const rc of listReusableContents(ctx.tx, main)) if (!mainByTitle.has(rc.title)) mainByTitle.set(rc.title, rc.reusableContent)
  for (const [path, include] of content.includes) {
    const candidates = [recordedInclude.get(path), mainByTitle.get(include.title)]
    const id = candidates.find((c) => c !== undefined && !usedIncludes.has(c)) ?? ctx.newId()
    usedIncludes.add(id)
    includeIds.set(path, id)
  }

  const reusableIds = new Set(includeIds.values())

  const links = (document: JsonDocument, from: string): JsonDocument => {
    return mapRefs(document, (ref, nodeType) => {
      // `{% include "path" %}`: the reusable content read from that file (settleIncludes turns one naming no such file back into its text).
      if (ref.kind === 'reusable-content' && typeof ref.reusableContent === 'string') {
        const target = resolveLink(from, content.root, ref.reusableContent)
        const id = target && !target.anchor ? includeIds.get(target.path) : undefined
        return id === undefined ? undefined : { kind: 'reusable-content', reusableContent: id }
      }
      if (ref.kind !== 'url' || typeof ref.url !== 'string') return undefined
      const target = resolveLink(from, content.root, ref.url)
      if (!target) return undefined
      const file = fileByPath.get(target.path)
      if (file !== undefined && !target.anchor) return { kind: 'file', file }
      // Only a markdown file is a page: a link to a folder (`guide/`, `./guide#setup`) stays the URL it is, written back as it was.
      const pageId = pageIdOf.get(target.path)
      if (pageId === undefined || FILE_OR_URL_ONLY.has(nodeType)) return undefined
      return target.anchor ? { kind: 'anchor', anchor: target.anchor, page: pageId } : { kind: 'page', page: pageId }
    })
  }

  const draft = new RevisionDraft(ctx, main)
  const kept = new Set<string>()
  const place = (pages: readonly ImportedPage[], parent: string | undefined): string[] =>
    pages.map((page) => {
      const id = ids.get(page)!
      kept.add(id)
      const children = place(page.children, id)
      const old = draft.get(id) as PageVersionRow | undefined
      const next: PageData = {
        page: id,
        space: space.id,
        type: page.type,
        title: page.title,
        slug: page.slug,
        children,
        document: settleIncludes(settleFileBlocks(links(page.document, page.file ? dirname(page.file) : content.root)), reusableIds),
        createdAt: old?.createdAt ?? now,
        updatedAt: now,
        ...page.meta,
        ...(parent !== undefined && { parent }),
        ...(page.file !== undefined && page.oid !== undefined && { git: { oid: page.oid, path: page.file } }),
      }
      if (old && unchanged(old, next)) {
        // The same page: its version stays, unless its place, subpages or blob moved (its blocks keep their keys).
        const sameChildren = old.children.length === children.length && old.children.every((c, i) => c === children[i])
        const sameGit = old.git?.oid === next.git?.oid && old.git?.path === next.git?.path
        if (!sameChildren || old.parent !== parent || !sameGit) {
          const { id: _version, ...fields } = old
          const moved: PageData = { ...fields, children }
          if (parent === undefined) delete moved.parent
          else moved.parent = parent
          if (next.git) moved.git = next.git
          else delete moved.git
          draft.set(id, moved)
        }
      } else draft.set(id, { ...next, document: withBlockKeys(next.document, () => ctx.newId()) })
      return id
    })
  draft.roots = place(content.pages, undefined)
  const includesDir = `${content.root ? `${content.root}/` : ''}.gitbook/includes`
  for (const [path, include] of content.includes) {
    const id = includeIds.get(path)!
    const old = draft.reusableContent(id)
    const document = settleIncludes(settleFileBlocks(links(include.document, includesDir)), reusableIds)
    if (old && old.title === include.title && withoutKeys(old.document) === withoutKeys(document) && old.git?.oid === include.oid && old.git.path === path)
      continue
    draft.setReusableContent(id, {
      reusableContent: id,
      space: space.id,
      title: include.title,
      document: withBlockKeys(document, () => ctx.newId()),
      createdAt: old?.createdAt ?? now,
      updatedAt: now,
      git: { oid: include.oid, path },
    })
  }
  for (const id of draft.reusableContentIds()) if (!reusableIds.has(id)) draft.removeReusableContent(id)
  for (const page of oldByPath.values()) if (!kept.has(page.page)) draft.remove(page.page)
  // `.gitbook.yaml`'s redirects: each to the page read from its file (one naming no page is left out).
  const redirects: Record<string, string> = {}
  for (const { source, file } of content.redirects) {
    const page = pageIdOf.get(file)
    if (page !== undefined && !Object.hasOwn(redirects, source)) redirects[source] = page
  }
  draft.redirects = sameRedirects(redirects, main.redirects) ? main.redirects : redirects
  // Files main already had keep their order; new ones follow, in the repository's order.
  const rank = (id: string) => (main.files.includes(id) ? main.files.indexOf(id) : main.files.length)
  draft.files = files
    .map((id, i) => [id, i] as const)
    .sort(([a, i], [b, j]) => rank(a) - rank(b) || i - j)
    .map(([id]) => id)

  // A space's first (empty) revision is stored once main moves past it (a parent must exist).
  if (!ctx.tx.get('revisions', main.id) && !standalone) ctx.tx.insert('revisions', main)
  const git = { oid: commit.oid, message: commit.message, createdByGitBook: false, ref: commit.ref, ...(commit.url !== undefined && { url: commit.url }) }
  const revision = draft.commit({ type: 'edits', parents: ctx.tx.get('revisions', main.id) ? [main.id] : [], git })
  if (!standalone) ctx.tx.update('spaces', { ...(ctx.tx.get('spaces', space.id) as SpaceRow), revision: revision.id, updatedAt: now })
  const tree: GitSyncTree = {
    pages: [...content.byFile].map(([path, page]) => ({ path, page: ids.get(page)!, ...(page.frontmatter && { frontmatter: page.frontmatter }) })),
    files: [...fileByPath].map(([path, file]) => ({ path, file })),
    other: content.summary !== undefined ? [content.summary] : [],
    ...(includeIds.size > 0 && { reusableContents: [...includeIds].map(([path, reusableContent]) => ({ path, reusableContent })) }),
  }
  return { revision, tree }
}
