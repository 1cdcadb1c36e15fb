import { describe, expect, it } from 'vitest'
import { call } from '../../helpers.js'
import { exportSpace, gitInfo, gitWorld, importRepo, type GitWorld, useGitServer } from './helpers.js'

/**
 * The sync's record of the files it read and wrote: an export replaces or removes only those and
 * keeps every other file of the repository byte for byte (nothing changed: no commit); pages keep
 * their ids by the file they were read from; files keep their ids and names through an export
 * and an import, referenced or not.
 */
const git = useGitServer()
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='
const PNG2 = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAAEUlEQVR42mNk+M9QzwAEjDAGACCDAv8cI7IoAAAAAElFTkSuQmCC'

const sync = (repo: string, extra: Record<string, unknown> = {}) => ({ url: git.server.url(repo), ref: 'refs/heads/main', ...extra })
const head = (repo: string) => git.server.git(repo, 'rev-parse', 'main').trim()
const pages = async (w: GitWorld, space = w.space.id) =>
  (await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${space}/content/pages`)).body.pages as Array<{
    id: string
    path: string
    title: string
    pages: unknown[]
  }>

async function edit(w: GitWorld, changes: unknown[]) {
  const base = `/v1/spaces/${w.space.id}/change-requests`
  const cr = await call(w.api, w.tokens.ada, 'POST', base, { subject: 'Edit' })
  const res = await call(w.api, w.tokens.ada, 'POST', `${base}/${cr.body.id}/content?compat=false`, { changes })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  expect((await call(w.api, w.tokens.ada, 'POST', `${base}/${cr.body.id}/merge`)).status).toBe(200)
}

const CODE_REPO = {
  'README.md': '# Product\n\nIntro\n',
  'SUMMARY.md': '* [Product](README.md)\n* [Guide](guide.md)\n',
  'guide.md': '# Guide\n\n- one\n- two\n',
  'CHANGELOG.md': '# Changelog\n\n## 1.0.0\n',
  'CONTRIBUTING.md': '# Contributing\n',
  'src/lib/README.md': '# lib internals\n',
  'src/index.ts': 'export {}\n',
  'docs/.gitbook/assets/elsewhere.png': Buffer.from(PNG, 'base64'),
}

describe('the files an export owns', () => {
  it('after an import, an export with nothing changed makes no commit, and a change touches only the pages it changes', async () => {
    const w = await gitWorld()
    git.server.createRepo('code', CODE_REPO)
    await importRepo(w, sync('code'))
    expect((await pages(w)).map((p) => p.path)).toEqual(['product', 'guide'])
    const imported = head('code')
    await exportSpace(w, sync('code', { commitMessage: 'Nothing' }))
    expect((await gitInfo(w)).body.operation).toMatchObject({ state: 'success', commit: imported })
    expect(head('code')).toBe(imported)

    const [, guide] = await pages(w)
    await edit(w, [
      { operation: 'delete_page', page: guide!.id },
      { operation: 'insert_page', title: 'Install', document: { markdown: 'Run it.' } },
    ])
    await exportSpace(w, sync('code', { commitMessage: 'Changed' }))
    expect((await gitInfo(w)).body.operation.state).toBe('success')
    expect(git.server.git('code', 'diff', '--name-status', imported, 'main').trim().split('\n')).toEqual(['M\tSUMMARY.md', 'D\tguide.md', 'A\tinstall.md'])
    for (const path of ['README.md', 'CHANGELOG.md', 'CONTRIBUTING.md', 'src/lib/README.md', 'src/index.ts']) {
      expect(git.server.git('code', 'show', `main:${path}`)).toBe(CODE_REPO[path as keyof typeof CODE_REPO])
    }
  })

  it('an export that never synced with the branch (an empty space here) removes nothing', async () => {
    const w = await gitWorld()
    git.server.createRepo('untouched', CODE_REPO)
    const before = git.server.git('untouched', 'ls-tree', '-r', 'main')
    await exportSpace(w, sync('untouched', { commitMessage: 'Empty' }))
    expect((await gitInfo(w)).body.operation.state).toBe('success')
    const after = git.server.git('untouched', 'ls-tree', '-r', 'main')
    // Every file is still there with the same blob; only the (empty) SUMMARY.md changed.
    expect(after.split('\n').filter((l) => !l.endsWith('\tSUMMARY.md'))).toEqual(before.split('\n').filter((l) => !l.endsWith('\tSUMMARY.md')))
  })
})

describe('ids through the record', () => {
  it('the first page keeps its id when its title changes in Git (matched by the file it was read from)', async () => {
    const w = await gitWorld()
    git.server.createRepo('title', { 'README.md': '# Welcome\n\nHi\n', 'guide.md': '# Guide\n' })
    await importRepo(w, sync('title'))
    const before = await pages(w)
    expect(before.map((p) => p.path)).toEqual(['welcome', 'guide'])
    git.server.commit('title', { 'README.md': '# Welcome to Acme\n\nHi\n', 'guide.md': '# The guide\n' })
    await importRepo(w, sync('title'))
    const after = await pages(w)
    expect(after.map((p) => [p.path, p.title])).toEqual([
      ['welcome-to-acme', 'Welcome to Acme'],
      ['guide', 'The guide'],
    ])
    expect(after.map((p) => p.id)).toEqual(before.map((p) => p.id))
  })

  it('an export then an import keeps files (ids and names, two of one name, unreferenced ones) and URL links as they are', async () => {
    const w = await gitWorld()
    await edit(w, [
      {
        operation: 'insert_files',
        files: [
          { name: 'dot.png', contentType: 'image/png', base64: PNG, ref: 'a' },
          { name: 'dot.png', contentType: 'image/png', base64: PNG2, ref: 'b' },
          { name: 'notes.txt', contentType: 'text/plain', base64: Buffer.from('unreferenced').toString('base64'), ref: 'c' },
        ],
      },
      { operation: 'insert_page', title: 'Home', document: { markdown: '![one](./a) ![two](./b)\n\nSee [setup](./guide#setup).' } },
      { operation: 'insert_page', title: 'Guide', ref: 'guide', document: { markdown: 'Guide' } },
      { operation: 'insert_page', title: 'Step', into: 'guide', document: { markdown: 'Step' } },
    ])
    const files = async (space = w.space.id) =>
      (await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${space}/content/files`)).body.items.map((f: { id: string; name: string }) => [f.id, f.name])
    const home = async (space = w.space.id) => (await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${space}/content/path/home`)).body.document
    const filesBefore = await files()
    const homeBefore = await home()
    const pagesBefore = await pages(w)
    git.server.createRepo('files')
    await exportSpace(w, sync('files', { commitMessage: 'Out' }))
    expect(git.server.git('files', 'ls-tree', '-r', '--name-only', 'main').trim().split('\n')).toEqual([
      '.gitbook/assets/dot (2).png',
      '.gitbook/assets/dot.png',
      '.gitbook/assets/notes.txt',
      'README.md',
      'SUMMARY.md',
      'guide/README.md',
      'guide/step.md',
    ])
    // The repository changes, then the space imports it back: same files, ids and names; the URL link is still a URL.
    git.server.commit('files', { 'guide/step.md': '# Step\n\nStep, changed in Git\n' })
    await importRepo(w, sync('files'))
    expect((await gitInfo(w)).body.operation.state).toBe('success')
    expect(await files()).toEqual(filesBefore)
    expect(await home()).toEqual(homeBefore)
    expect((await pages(w)).map((p) => p.id)).toEqual(pagesBefore.map((p) => p.id))
    const link = JSON.stringify(homeBefore)
    expect(link).toContain('"url":"./guide#setup"')

    // Into a new space: every file comes (the unreferenced one too), under the names the repository gives them.
    const copy = { ...w, space: await w.api.fixtures.createSpace(w.org.id, { title: 'Copy' }) }
    await importRepo(copy, sync('files'))
    expect((await files(copy.space.id)).map((f: string[]) => f[1]).sort()).toEqual(['dot (2).png', 'dot.png', 'notes.txt'])
    expect(JSON.stringify(await home(copy.space.id))).toContain('"url":"./guide#setup"')
  })
})
