import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Context } from '../../../src/domains/context.js'
import { renderRevision, type RenderedContent } from '../../../src/domains/git-sync/layout/write.js'
import { call } from '../../helpers.js'
import { exportSpace, gitInfo, gitWorld, useGitServer, type GitWorld } from './helpers.js'

/**
 * An export renders from the last render of the space (layout/write.ts renderAgain: the pages whose
 * versions changed, the rest as they were), and that must be what a render of the whole revision
 * gives: after any sequence of merged changes (bodies, metadata, titles, slugs, new, moved and
 * deleted pages, files, reusable contents), each followed by an export, the render from the memo
 * and a whole render (the same record, copied: no memo for it) agree file by file.
 */
const git = useGitServer()
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='
const NAMES = { readme: 'README.md', summary: 'SUMMARY.md' }

/** A render as comparable data: each file's fingerprint, text (SUMMARY.md) or head and body, the assets and the record. */
function plain(r: RenderedContent) {
  return {
    text: [...r.text].map(([path, f]) => ('summary' in f ? { path, sum: f.sum, text: f.text } : { path, sum: f.sum, head: f.head, body: f.body })),
    assets: [...r.assets],
    tree: { ...r.tree, texts: undefined },
  }
}

/** The space's main revision rendered from the sync's record: once as an export does (the memo), once whole. */
function renders(w: GitWorld) {
  let out!: { memo: RenderedContent; whole: RenderedContent; again: RenderedContent }
  w.api.store.transaction((tx) => {
    const ctx = { tx } as unknown as Context
    const space = tx.get('spaces', w.space.id)!
    const rev = tx.get('revisions', space.revision)!
    const record = tx.get('gitSyncs', w.space.id)!.tree!
    out = {
      memo: renderRevision(ctx, rev, '', NAMES, record),
      whole: renderRevision(ctx, rev, '', NAMES, structuredClone(record)),
      again: renderRevision(ctx, rev, '', NAMES, record),
    }
  })
  return out
}

type Step =
  | { kind: 'body'; page: number; text: string }
  | { kind: 'meta'; page: number; description: string }
  | { kind: 'title'; page: number; title: string }
  | { kind: 'slug'; page: number; slug: string }
  | { kind: 'insert'; into: number | null; title: string }
  | { kind: 'move'; page: number; into: number | null }
  | { kind: 'delete'; page: number }
  | { kind: 'file' }
  | { kind: 'reusable'; title: string }

const word = fc.stringMatching(/^[a-z]{1,8}$/)
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('body' as const), page: fc.nat(), text: word }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('meta' as const), page: fc.nat(), description: word }) },
  fc.record({ kind: fc.constant('title' as const), page: fc.nat(), title: word }),
  fc.record({ kind: fc.constant('slug' as const), page: fc.nat(), slug: word }),
  fc.record({ kind: fc.constant('insert' as const), into: fc.option(fc.nat()), title: word }),
  fc.record({ kind: fc.constant('move' as const), page: fc.nat(), into: fc.option(fc.nat()) }),
  fc.record({ kind: fc.constant('delete' as const), page: fc.nat() }),
  fc.record({ kind: fc.constant('file' as const) }),
  fc.record({ kind: fc.constant('reusable' as const), title: word }),
)

async function pageIds(w: GitWorld): Promise<string[]> {
  const res = await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${w.space.id}/content/pages`)
  const out: string[] = []
  const visit = (pages: Array<{ id: string; pages?: unknown[] }>) => {
    for (const p of pages) {
      out.push(p.id)
      visit((p.pages ?? []) as never)
    }
  }
  visit(res.body.pages)
  return out
}

async function apply(w: GitWorld, s: Step, n: number): Promise<void> {
  const ids = await pageIds(w)
  const pick = (i: number) => ids[i % ids.length]!
  // The first page stays (the readme); changes go to the others when there are any.
  const other = (i: number) => (ids.length > 1 ? ids[1 + (i % (ids.length - 1))]! : undefined)
  const change = (() => {
    switch (s.kind) {
      case 'body':
        return { operation: 'update_page', page: pick(s.page), document: { markdown: `${s.text} [back](/pages/${ids[0]}) ${n}` } }
      case 'meta':
        return { operation: 'update_page', page: pick(s.page), description: s.description }
      case 'title':
        return { operation: 'update_page', page: pick(s.page), title: s.title }
      case 'slug':
        return { operation: 'update_page', page: pick(s.page), slug: `${s.slug}-${n}` }
      case 'insert':
        return {
          operation: 'insert_page',
          title: s.title,
          ...(s.into !== null && other(s.into) && { into: other(s.into) }),
          document: { markdown: `New ${n}.` },
        }
      case 'move': {
        const page = other(s.page)
        const into = s.into === null ? null : other(s.into)
        return page && into !== page ? { operation: 'update_page', page, into } : undefined
      }
      case 'delete': {
        const page = other(s.page)
        return page && { operation: 'delete_page', page }
      }
      case 'file':
        return { operation: 'insert_files', files: [{ name: `f${n}.png`, contentType: 'image/png', base64: PNG }] }
      case 'reusable':
        return { operation: 'insert_reusable_content', title: `${s.title} ${n}`, document: { markdown: 'Shared.' } }
    }
  })()
  if (!change) return
  const base = `/v1/spaces/${w.space.id}/change-requests`
  const cr = (await call(w.api, w.tokens.ada, 'POST', base, { subject: `Step ${n}` })).body
  const edit = await call(w.api, w.tokens.ada, 'POST', `${base}/${cr.id}/content?compat=false`, { changes: [change] })
  // A move under its own subpage, say: refused, and nothing changes.
  if (edit.status !== 200) return
  expect((await call(w.api, w.tokens.ada, 'POST', `${base}/${cr.id}/merge`)).status).toBe(200)
}

describe('an export rendered from the last render', () => {
  it('gives what a whole render gives, after any sequence of changes', async () => {
    let repo = 0
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 6 }), async (steps) => {
        const w = await gitWorld()
        const name = `memo-${repo++}`
        git.server.createRepo(name, {
          'README.md': '# Start\n\nFirst.\n',
          'guide/README.md': '---\ndescription: How\nlayout: wide\n---\n\n# Guide\n\nSee [start](../README.md).\n',
          'guide/one.md': '# One\n\nOne.\n',
          'two.md': '# Two\n\nTwo.\n',
          'SUMMARY.md': '# Table of contents\n\n* [Start](README.md)\n* [Guide](guide/README.md)\n  * [One](guide/one.md)\n\n## Group\n\n* [Two](two.md)\n',
        })
        const body = { url: git.server.url(name), ref: 'refs/heads/main' }
        await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${w.space.id}/git/import`, body)
        await w.api.idle()
        for (const [n, s] of steps.entries()) {
          await apply(w, s, n)
          const { memo, whole, again } = renders(w)
          expect(plain(memo)).toEqual(plain(whole))
          // From the same record again: the memo's files themselves, but the page the step changed (rendered again from the same memo).
          const before = [...memo.text.values()]
          expect([...again.text.values()].filter((f, i) => f !== before[i]).length).toBeLessThanOrEqual(1)
          await exportSpace(w, { ...body, commitMessage: `Step ${n}` })
          expect((await gitInfo(w)).body.operation.state).toBe('success')
        }
      }),
      {
        numRuns: 12,
        seed: 21,
        // Each kind of step once, on a page with a file, before the generated sequences.
        examples: [
          [
            [
              { kind: 'body', page: 2, text: 'edited' },
              { kind: 'meta', page: 1, description: 'more' },
              { kind: 'title', page: 2, title: 'renamed' },
            ],
          ],
          [
            [
              { kind: 'slug', page: 3, slug: 'moved' },
              { kind: 'insert', into: 1, title: 'added' },
              { kind: 'move', page: 2, into: null },
            ],
          ],
          [[{ kind: 'delete', page: 3 }, { kind: 'file' }, { kind: 'reusable', title: 'shared' }, { kind: 'body', page: 1, text: 'again' }]],
        ],
      },
    )
  }, 120_000)
})
