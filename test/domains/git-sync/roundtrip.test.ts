import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { emptyDocument, type DocBlock, type JsonDocument } from '../../../src/domains/content/document.js'
import { inlineNodes, leaf } from '../../../src/domains/content/markdown/nodes.js'
import { RevisionDraft } from '../../../src/domains/content/draft.js'
import { findRevision } from '../../../src/domains/content/revision.js'
import type { PageVersionRow } from '../../../src/domains/content/rows.js'
import { call } from '../../helpers.js'
import { documents } from '../content/document-arbitraries.js'
import { exportSpace, gitInfo, gitWorld, importRepo, pageLines, type GitWorld, useGitServer } from './helpers.js'

/**
 * Export then import: a space exported to a repository and imported into a new space gives the
 * same tree, titles, metadata and bodies, over generated page trees whose bodies use every block
 * type the markdown conversion supports (the generators of the markdown property test), with
 * links to pages and files of the space as well as to unknown ids and URLs.
 */
const git = useGitServer()
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='
const FILES = ['diagram.png', 'photo (1).png']

interface GenPage {
  title: string
  description: string | null
  hidden: boolean
  body: JsonDocument
  children: GenPage[]
  /** A page group (top level only): SUMMARY.md's `## Title`. */
  group?: boolean
}

/**
 * Blocks of GitBook's own syntax (gitbook/markdown.ts) beside the shared conversion's: figures with
 * captions, files and embeds with or without a caption, tabs, titled code, content refs. Ids are
 * placeholders that linkUp points at pages and files of the space.
 */
const plain = fc.array(fc.constantFrom(...'aZ1é'), { minLength: 1, maxLength: 5 }).map((cs) => cs.join(''))
const captionText = fc
  .array(fc.record({ t: plain, m: fc.subarray(['bold', 'italic', 'strikethrough', 'code']) }), { minLength: 1, maxLength: 3 })
  .map((runs) => inlineNodes(runs.flatMap(({ t, m }, i) => [...(i ? [leaf(' ')] : []), leaf(t, m)])))
const words = fc.array(plain, { minLength: 1, maxLength: 3 }).map((w) => w.join(' '))
const para = (text: string) => ({ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [leaf(text)] }] }) as DocBlock
const gitbookBlocks = fc.oneof(
  fc
    .record({ caption: fc.option(captionText), alt: fc.option(plain), width: fc.option(fc.integer({ min: 1, max: 900 })) }, { noNullPrototype: true })
    .map(({ caption, alt, width }) => ({
      object: 'block',
      type: 'images',
      isVoid: false,
      data: {},
      nodes: [
        {
          object: 'block',
          type: 'image',
          isVoid: true,
          data: { ref: { kind: 'file', file: 'any-file' }, ...(alt !== null && { alt }), ...(width !== null && { width }) },
          fragments: [
            {
              object: 'fragment',
              fragment: 'caption',
              type: 'caption',
              nodes: [caption === null ? para('') : { object: 'block', type: 'paragraph', data: {}, nodes: caption }],
            },
          ],
        },
      ],
    })),
  // A file block must name a file when the change request is made: this id is left as it is by linkUp (gitbook.test.ts covers real files).
  fc.option(words).map((caption) => ({
    object: 'block',
    type: 'file',
    isVoid: true,
    data: { ref: { kind: 'file', file: 'kept-file' }, ...(caption !== null && { caption }) },
  })),
  fc
    .record({ url: fc.constantFrom('https://www.youtube.com/watch?v=x1', 'https://example.com/a'), caption: fc.option(words) })
    .map(({ url, caption }) => ({ object: 'block', type: 'embed', isVoid: true, data: { url, ...(caption !== null && { caption }) } })),
  fc.array(fc.record({ title: words, body: fc.array(words, { minLength: 1, maxLength: 2 }) }), { minLength: 1, maxLength: 3 }).map((tabs) => ({
    object: 'block',
    type: 'tabs',
    nodes: tabs.map(({ title, body }) => ({ object: 'block', type: 'tabs-item', data: { title }, nodes: body.map(para) })),
  })),
  fc.record({ title: plain, wrap: fc.boolean() }).map(({ title, wrap }) => ({
    object: 'block',
    type: 'code',
    data: { syntax: 'js', title, ...(wrap && { overflow: 'wrap' }) },
    nodes: [{ object: 'block', type: 'code-line', data: {}, nodes: [{ object: 'text', leaves: [leaf('let a = 1')] }] }],
  })),
  fc.constant({ object: 'block', type: 'content-ref', isVoid: true, data: { ref: { kind: 'page', page: 'any-page' } } }),
) as fc.Arbitrary<DocBlock>
const bodies = fc.tuple(documents, fc.array(gitbookBlocks, { maxLength: 3 })).map(([doc, extra]): JsonDocument => ({ ...doc, nodes: [...doc.nodes, ...extra] }))

const title = fc
  .array(fc.constantFrom(...'Ab9 é中-_*#`.&'), { minLength: 1, maxLength: 12 })
  .map((cs) => cs.join('').trim())
  .filter((t) => t.length > 0)
const page: fc.Memo<GenPage> = fc.memo((depth) =>
  fc.record({
    title,
    description: fc.option(fc.constantFrom('Short: text', 'Line with "quotes"', '42')),
    hidden: fc.boolean(),
    body: bodies,
    children: depth <= 1 ? fc.constant([]) : fc.array(page(depth - 1), { maxLength: 3 }),
  }),
)
const group: fc.Arbitrary<GenPage> = fc
  .record({ title, children: fc.array(page(2), { maxLength: 3 }) })
  .map((g) => ({ ...g, group: true, description: null, hidden: false, body: { object: 'document', data: {}, nodes: [] } }))
/** Top-level pages and groups in any order: pages before, between and after groups. */
const trees = fc.array(fc.oneof({ arbitrary: page(3), weight: 2 }, { arbitrary: group, weight: 1 }), { minLength: 1, maxLength: 5 })

/** The pages depth first, with the change request ref each gets (`p0`, `p1`...). */
function flatten(pages: GenPage[], parent?: string, out: Array<{ page: GenPage; ref: string; into?: string }> = []) {
  for (const p of pages) {
    const ref = `p${out.length}`
    out.push({ page: p, ref, ...(parent !== undefined && { into: parent }) })
    flatten(p.children, ref, out)
  }
  return out
}

/** Point some of a body's page and file references at pages (not groups: a link names a page) and files of the space (by batch ref), by a hash of the generated id. */
function linkUp(doc: JsonDocument, pages: readonly string[]): JsonDocument {
  const pick = (id: string, n: number) => [...id].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7) % (n + 1)
  return JSON.parse(JSON.stringify(doc), (_key, value) => {
    if (value && typeof value === 'object' && value.kind === 'page' && typeof value.page === 'string') {
      const k = pick(value.page, pages.length)
      return k < pages.length ? { kind: 'url', url: pages[k] } : value
    }
    if (value && typeof value === 'object' && value.kind === 'file' && typeof value.file === 'string' && value.file !== 'kept-file') {
      const k = pick(value.file, FILES.length)
      return k < FILES.length ? { kind: 'url', url: `f${k}` } : value
    }
    return value
  })
}

async function build(w: GitWorld, pages: GenPage[]) {
  const base = `/v1/spaces/${w.space.id}/change-requests`
  const cr = await call(w.api, w.tokens.ada, 'POST', base, { subject: 'Generated' })
  const flat = flatten(pages)
  const changes = [
    { operation: 'insert_files', files: FILES.map((name, i) => ({ name, contentType: 'image/png', base64: PNG, ref: `f${i}` })) },
    ...flat.map(({ page: p, ref, into }) => ({
      operation: 'insert_page',
      ref,
      title: p.title,
      hidden: p.hidden,
      ...(p.description !== null && { description: p.description }),
      ...(into !== undefined && { into }),
      document: {
        document: linkUp(
          p.body,
          flat.filter((f) => !f.page.group).map((f) => f.ref),
        ),
      },
    })),
  ]
  const edit = await call(w.api, w.tokens.ada, 'POST', `${base}/${cr.body.id}/content`, { changes })
  expect(edit.status, JSON.stringify(edit.body)).toBe(200)
  expect((await call(w.api, w.tokens.ada, 'POST', `${base}/${cr.body.id}/merge`)).status).toBe(200)
  // Change requests make no groups (an import does): the group pages become groups on main directly.
  const groups = flat.map((f, i) => (f.page.group ? i : -1)).filter((i) => i >= 0)
  if (groups.length) {
    const roots = (await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${w.space.id}/content/pages`)).body.pages as Array<{ id: string }>
    const tops = flat.map((f, i) => (f.into === undefined ? i : -1)).filter((i) => i >= 0)
    const ids = groups.map((i) => roots[tops.indexOf(i)]!.id)
    w.api.system((ctx) => {
      const space = ctx.tx.get('spaces', w.space.id)!
      const main = findRevision(ctx.tx, space, space.revision)!
      const draft = new RevisionDraft(ctx, main)
      for (const id of ids) {
        const { id: _version, description: _d, hidden: _h, ...old } = draft.get(id) as PageVersionRow
        draft.set(id, { ...old, type: 'group', document: emptyDocument() })
      }
      const revision = draft.commit({ type: 'edits', parents: [main.id] })
      ctx.tx.update('spaces', { ...space, revision: revision.id })
    })
  }
}

/** A space's pages and bodies, ids replaced by paths (pages) and names (files), so two spaces compare. */
async function content(w: GitWorld, spaceId: string) {
  const pages = (await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${spaceId}/content/pages`)).body.pages as Array<Record<string, unknown>>
  const files = (await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${spaceId}/content/files`)).body.items as Array<{ id: string; name: string }>
  const pathOf = new Map<string, string>()
  const index = (list: Array<Record<string, unknown>>) =>
    list.forEach((p) => {
      pathOf.set(p.id as string, p.path as string)
      index(p.pages as never)
    })
  index(pages)
  const nameOf = new Map(files.map((f) => [f.id, f.name]))
  const normalize = (doc: unknown) =>
    JSON.parse(JSON.stringify(doc), (key, value) => {
      if (key === 'key') return undefined
      if (value && typeof value === 'object' && (value.kind === 'page' || value.kind === 'anchor') && pathOf.has(value.page))
        return { ...value, page: `path:${pathOf.get(value.page)}` }
      if (value && typeof value === 'object' && value.kind === 'file' && nameOf.has(value.file)) return { ...value, file: `name:${nameOf.get(value.file)}` }
      return value
    })
  const shape = (list: Array<Record<string, unknown>>): unknown =>
    list.map((p) => ({
      type: p.type,
      path: p.path,
      title: p.title,
      description: p.description,
      hidden: p.hidden,
      document: normalize(p.document),
      pages: shape(p.pages as never),
    }))
  return shape(pages)
}

async function roundTrip(w: GitWorld, repo: string) {
  git.server.createRepo(repo)
  await exportSpace(w, { url: git.server.url(repo), ref: 'refs/heads/main', commitMessage: 'Export' })
  expect((await gitInfo(w)).body.operation).toMatchObject({ state: 'success' })
  const copy = { ...w, space: await w.api.fixtures.createSpace(w.org.id, { title: 'Copy' }) }
  await importRepo(copy, { url: git.server.url(repo), ref: 'refs/heads/main' })
  const info = (await gitInfo(copy)).body
  expect(info.operation, JSON.stringify(info)).toMatchObject({ state: 'success' })
  return copy
}

describe('round trip: export, then import into a new space', () => {
  let n = 0
  it('gives the same tree, titles, metadata and bodies over generated page trees (groups, and pages before, between and after them)', async () => {
    await fc.assert(
      fc.asyncProperty(trees, async (pages) => {
        const w = await gitWorld()
        await build(w, pages)
        const copy = await roundTrip(w, `trip-${n++}`)
        expect(await content(w, copy.space.id)).toEqual(await content(w, w.space.id))
      }),
      { numRuns: Number(process.env.RT_RUNS ?? 12), seed: Number(process.env.RT_SEED ?? 20260301) },
    )
  }, 120_000)

  it('a page after a group stays after it, outside it, with its id (SUMMARY.md: a --- ends the group)', async () => {
    const w = await gitWorld()
    git.server.createRepo('after-in', {
      'SUMMARY.md': '* [Intro](README.md)\n\n## Guides\n\n* [Start](guides/start.md)\n\n## API\n\n* [Ref](api/ref.md)\n\n---\n\n* [After](after.md)\n',
      'README.md': '# Intro\n',
      'guides/start.md': '# Start\n',
      'api/ref.md': '# Ref\n',
      'after.md': '# After\n',
    })
    await importRepo(w, { url: git.server.url('after-in'), ref: 'refs/heads/main' })
    const tree = ['intro: Intro', 'guides: Guides (group)', 'guides/start: Start', 'api: API (group)', 'api/ref: Ref', 'after: After']
    expect(await pageLines(w, w.space.id)).toEqual(tree)
    const ids = (await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${w.space.id}/content/pages`)).body.pages.map((p: { id: string }) => p.id)
    const copy = await roundTrip(w, 'after-out')
    expect(git.server.git('after-out', 'show', 'main:SUMMARY.md')).toBe(
      '# Table of contents\n\n* [Intro](README.md)\n\n## Guides\n\n* [Start](guides/start.md)\n\n## API\n\n* [Ref](api/ref.md)\n\n---\n\n* [After](after.md)\n',
    )
    expect(await pageLines(w, copy.space.id)).toEqual(tree)
    // Back into the space it came from: the same pages, the same ids.
    await importRepo(w, { url: git.server.url('after-out'), ref: 'refs/heads/main' })
    expect(await pageLines(w, w.space.id)).toEqual(tree)
    expect((await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${w.space.id}/content/pages`)).body.pages.map((p: { id: string }) => p.id)).toEqual(ids)
  })

  it('keeps page groups (SUMMARY.md ## headings) and the folders of their pages', async () => {
    const w = await gitWorld()
    git.server.createRepo('groups-in', {
      'README.md': '# Home\n',
      'SUMMARY.md':
        '* [Home](README.md)\n\n## User guide\n\n* [Start](guide/start.md)\n  * [Deeper](guide/start/deeper.md)\n\n## API\n\n* [Ref](api-docs/ref.md)\n',
      'guide/start.md': '# Start\n\nGo to [ref](../api-docs/ref.md).',
      'guide/start/deeper.md': '# Deeper\n',
      'api-docs/ref.md': '# Ref\n',
    })
    await importRepo(w, { url: git.server.url('groups-in'), ref: 'refs/heads/main' })
    const copy = await roundTrip(w, 'groups-out')
    expect(await content(w, copy.space.id)).toEqual(await content(w, w.space.id))
    expect(git.server.git('groups-out', 'show', 'main:SUMMARY.md')).toBe(
      '# Table of contents\n\n* [Home](README.md)\n\n## User guide\n\n* [Start](guide/start/README.md)\n  * [Deeper](guide/start/deeper.md)\n\n## API\n\n* [Ref](api-docs/ref.md)\n',
    )
  })
})
