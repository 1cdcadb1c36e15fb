import { describe, expect, it } from 'vitest'
import { call } from '../../helpers.js'
import { exportSpace, gitInfo, gitWorld, importRepo, type GitWorld, useGitServer } from './helpers.js'

const git = useGitServer()
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='

/** Fill the space through a merged change request: pages, a subpage, a file, links between them. */
async function fill(w: GitWorld) {
  const base = `/v1/spaces/${w.space.id}/change-requests`
  const cr = await call(w.api, w.tokens.ada, 'POST', base, { subject: 'Content' })
  const edit = await call(w.api, w.tokens.ada, 'POST', `${base}/${cr.body.id}/content?compat=false`, {
    changes: [
      { operation: 'insert_files', files: [{ name: 'dot.png', contentType: 'image/png', base64: PNG, ref: 'dot' }] },
      { operation: 'insert_page', title: 'Welcome', document: { markdown: 'Hello, see [the guide](./guide).' } },
      { operation: 'insert_page', title: 'Guide', ref: 'guide', description: 'How to', document: { markdown: '![A dot](./dot)\n\nText.' } },
      { operation: 'insert_page', title: 'Step one', into: 'guide', document: { markdown: 'Back to [welcome](/pages/x).' } },
    ],
  })
  expect(edit.status).toBe(200)
  expect((await call(w.api, w.tokens.ada, 'POST', `${base}/${cr.body.id}/merge`)).status).toBe(200)
}

const body = (url: string, extra: Record<string, unknown> = {}) => ({ url, ref: 'refs/heads/main', commitMessage: 'Sync from the docs', ...extra })

describe('export', () => {
  it('writes main in the Git Sync layout, one commit authored by the caller, to a new repository', async () => {
    const w = await gitWorld()
    await fill(w)
    git.server.createRepo('out')
    expect((await exportSpace(w, body(git.server.url('out')))).status).toBe(204)
    const info = (await gitInfo(w)).body
    expect(info.operation).toMatchObject({ state: 'success', direction: 'export' })
    const log = git.server.git('out', 'log', '--format=%an <%ae>|%s|%at', 'main').trim()
    expect(log).toBe(`Ada Lovelace <ada@acme.test>|Sync from the docs|${Date.parse('2026-03-01T10:00:00Z') / 1000}`)
    expect(info.operation.commit).toBe(git.server.git('out', 'rev-parse', 'main').trim())
    expect(git.server.git('out', 'ls-tree', '-r', '--name-only', 'main').trim().split('\n')).toEqual([
      '.gitbook/assets/dot.png',
      'README.md',
      'SUMMARY.md',
      'guide/README.md',
      'guide/step-one.md',
    ])
    expect(git.server.git('out', 'show', 'main:SUMMARY.md')).toBe(
      '# Table of contents\n\n* [Welcome](README.md)\n* [Guide](guide/README.md)\n  * [Step one](guide/step-one.md)\n',
    )
    expect(git.server.git('out', 'show', 'main:README.md')).toBe('# Welcome\n\nHello, see [the guide](guide/README.md).\n')
    expect(git.server.git('out', 'show', 'main:guide/README.md')).toBe(
      '---\ndescription: How to\n---\n\n# Guide\n\n![A dot](../.gitbook/assets/dot.png)\n\nText.\n',
    )
    expect(Buffer.from(git.server.git('out', 'cat-file', '-p', 'main:.gitbook/assets/dot.png'), 'binary').length).toBeGreaterThan(0)
  })

  it('makes no empty commit, keeps files it does not own, creates a missing branch', async () => {
    const w = await gitWorld()
    await fill(w)
    git.server.createRepo('keep', { 'package.json': '{"name":"x"}', 'old.md': '# Old\n' })
    await exportSpace(w, body(git.server.url('keep')))
    const first = git.server.git('keep', 'rev-parse', 'main').trim()
    expect(git.server.git('keep', 'ls-tree', '--name-only', 'main')).toContain('package.json')
    // A markdown file no sync read or wrote is not the export's: it stays.
    expect(git.server.git('keep', 'show', 'main:old.md')).toBe('# Old\n')
    await exportSpace(w, body(git.server.url('keep'), { commitMessage: 'Again' }))
    expect(git.server.git('keep', 'rev-parse', 'main').trim()).toBe(first)
    expect((await gitInfo(w)).body.operation).toMatchObject({ state: 'success', commit: first })
    await exportSpace(w, body(git.server.url('keep'), { ref: 'refs/heads/docs/new' }))
    expect(git.server.git('keep', 'log', '--format=%s', 'docs/new').trim().split('\n')).toEqual(['Sync from the docs', 'Remote commit'])
  })

  it('writes into repoProjectDirectory (and the root its .gitbook.yaml names), leaving the rest of the repository', async () => {
    const w = await gitWorld()
    await fill(w)
    git.server.createRepo('mono', { 'src/index.ts': 'export {}\n', 'docs/.gitbook.yaml': 'root: ./pages/\n', 'README.md': '# The product\n' })
    await exportSpace(w, body(git.server.url('mono'), { repoProjectDirectory: 'docs/' }))
    expect((await gitInfo(w)).body.operation.state).toBe('success')
    expect(git.server.git('mono', 'ls-tree', '-r', '--name-only', 'main').trim().split('\n')).toEqual([
      'README.md',
      'docs/.gitbook.yaml',
      'docs/pages/.gitbook/assets/dot.png',
      'docs/pages/README.md',
      'docs/pages/SUMMARY.md',
      'docs/pages/guide/README.md',
      'docs/pages/guide/step-one.md',
      'src/index.ts',
    ])
    expect(git.server.git('mono', 'show', 'main:README.md')).toBe('# The product\n')
  })

  it('refuses to push over a branch that moved since the last sync, unless forced (a non-fast-forward)', async () => {
    const w = await gitWorld()
    await fill(w)
    git.server.createRepo('moved')
    await exportSpace(w, body(git.server.url('moved')))
    const ours = git.server.git('moved', 'rev-parse', 'main').trim()
    const theirs = git.server.commit('moved', { 'theirs.md': '# Theirs\n' }, { message: 'Their change' })
    await exportSpace(w, body(git.server.url('moved'), { commitMessage: 'Over it' }))
    expect((await gitInfo(w)).body.operation.error).toMatch(/moved since the last sync .*force/)
    expect(git.server.git('moved', 'rev-parse', 'main').trim()).toBe(theirs)
    // Forced: the space's content goes on from the commit it last synced with; theirs leaves the branch.
    await call(w.api, w.tokens.ada, 'PATCH', `/v1/spaces/${w.space.id}`, { title: 'Docs!' })
    await exportSpace(w, body(git.server.url('moved'), { commitMessage: 'Over it', force: true }))
    expect((await gitInfo(w)).body.operation.state).toBe('success')
    expect(git.server.git('moved', 'rev-parse', 'main').trim()).toBe(ours)
    expect(git.server.git('moved', 'log', '--format=%s', 'main').trim()).toBe('Sync from the docs')
  })

  it('an import of the export gives the same tree, titles and bodies', async () => {
    const w = await gitWorld()
    await fill(w)
    git.server.createRepo('trip')
    await exportSpace(w, body(git.server.url('trip')))
    const other = await w.api.fixtures.createSpace(w.org.id, { title: 'Copy' })
    await importRepo({ ...w, space: other }, { url: git.server.url('trip'), ref: 'refs/heads/main' })
    const pages = async (id: string) => (await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${id}/content/pages`)).body.pages
    const strip = (list: Array<Record<string, unknown>>): unknown =>
      list.map((p) => ({ path: p.path, title: p.title, description: p.description, markdown: p.markdown, pages: strip(p.pages as never) }))
    expect(strip(await pages(other.id))).toEqual(strip(await pages(w.space.id)))
  })
})

describe('a request without `ref`', () => {
  it('syncs with the default branch the remote names when the job runs; another branch than the last sync is another target', async () => {
    const w = await gitWorld()
    git.server.createRepo('moving-head', { 'README.md': '# Home\n', 'SUMMARY.md': '* [Home](README.md)\n' })
    git.server.commit('moving-head', { 'README.md': '# Elsewhere\n', 'SUMMARY.md': '* [Elsewhere](README.md)\n' }, { branch: 'next' })
    const url = git.server.url('moving-head')
    await importRepo(w, { url })
    expect((await gitInfo(w)).body.operation).toMatchObject({ state: 'success' })
    const row = () => w.api.system((ctx) => ctx.tx.get('gitSyncs', w.space.id))
    expect(row()).toMatchObject({ ref: 'refs/heads/main', commit: git.server.git('moving-head', 'rev-parse', 'main').trim() })
    // The remote's default branch becomes `next`: its head is not the commit the space synced with
    // on `main`, and the export is no "branch moved" refusal: it compares with nothing of `main`.
    git.server.git('moving-head', 'symbolic-ref', 'HEAD', 'refs/heads/next')
    await exportSpace(w, { url, commitMessage: 'To the new default' })
    expect((await gitInfo(w)).body.operation).toMatchObject({ state: 'success', direction: 'export' })
    expect(row()?.ref).toBe('refs/heads/next')
    expect(git.server.git('moving-head', 'log', '-1', '--format=%s', 'next').trim()).toBe('To the new default')
    expect(git.server.git('moving-head', 'log', '-1', '--format=%s', 'main').trim()).toBe('Remote commit')
  })
})
