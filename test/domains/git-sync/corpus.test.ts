import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { call } from '../../helpers.js'
import { grouped } from './corpus/grouped.js'
import { handbook } from './corpus/handbook.js'
import { monorepo } from './corpus/monorepo.js'
import { vendorApi } from './corpus/vendor-api.js'
import { exportSpace, gitInfo, gitWorld, importRepo, type GitWorld, useGitServer } from './helpers.js'

/**
 * Repositories in the styles real Git Sync repositories are written in (corpus/: written for the
 * tests), each imported then exported back to its branch: with no edit in between nothing is
 * written (no commit); with one page edited, that page's file alone changes, and in it only the
 * part that was edited (docs/behaviour/git-sync.md, "Round trips").
 */
const git = useGitServer()

const CORPUS: Array<{ name: string; files: Record<string, string | Uint8Array>; dir?: string; title: string; edit: string; keep: string[] }> = [
  // `edit`: the page file edited; `keep`: text of that file, written in its own style, that must survive the edit.
  {
    name: 'vendor-api',
    files: vendorApi,
    title: 'Vendor API',
    edit: 'README.md',
    keep: [
      '<!-- AUTOMATICALLY GENERATED, DO NOT MODIFY -->',
      '__Vendor API__',
      '#### Deep heading',
      '|:------|:-------:|---------:|',
      '[guide]: getting-started.md',
      '* two\n    * nested _deeper_',
    ],
  },
  { name: 'handbook', files: handbook, title: 'Onboarding', edit: 'onboarding/README.md', keep: ['3. Get a laptop\n4. Get accounts\n'] },
  { name: 'grouped', files: grouped, title: 'Reference', edit: 'merge-queue/reference.md', keep: ['|--------:|'] },
  {
    name: 'monorepo',
    files: monorepo,
    dir: 'docs',
    title: 'Deploy',
    edit: 'docs/content/deploy.md',
    keep: ['{% code title="deploy.sh" %}', '{% file src=".gitbook/assets/diagram.png" %}'],
  },
]

const target = (url: string, dir?: string) => ({ url, ref: 'refs/heads/main', ...(dir && { repoProjectDirectory: dir }) })
const body = (w: GitWorld, url: string, dir?: string) => ({ ...target(url, dir), commitMessage: 'Sync' })

async function synced(name: string, files: Record<string, string | Uint8Array>, dir?: string) {
  const w = await gitWorld()
  git.server.createRepo(name, files)
  const url = git.server.url(name, true)
  expect((await importRepo(w, target(url, dir))).status).toBe(204)
  expect((await gitInfo(w)).body.operation).toMatchObject({ state: 'success', direction: 'import' })
  return { w, url, head: () => git.server.git(name, 'rev-parse', 'main').trim() }
}

/** Edit the page titled `title` through a merged change request: the first paragraph's first text gets a word more. */
async function editFirstParagraph(w: GitWorld, title: string) {
  const pages = (await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${w.space.id}/content/pages`)).body.pages
  const find = (list: Array<{ id: string; title: string; pages: never[] }>): { id: string } | undefined =>
    list.find((p) => p.title === title) ?? list.map((p) => find(p.pages)).find(Boolean)
  const page = await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${w.space.id}/content/page/${find(pages)!.id}`)
  expect(page.status).toBe(200)
  const document = structuredClone(page.body.document)
  const paragraph = document.nodes.find((n: { type: string }) => n.type === 'paragraph')
  const text = paragraph.nodes.find((n: { object: string }) => n.object === 'text')
  text.leaves[0].text = `Edited: ${text.leaves[0].text}`
  const base = `/v1/spaces/${w.space.id}/change-requests`
  const cr = await call(w.api, w.tokens.ada, 'POST', base, { subject: 'Edit' })
  const edit = await call(w.api, w.tokens.ada, 'POST', `${base}/${cr.body.id}/content?compat=false`, {
    changes: [{ operation: 'update_page', page: page.body.id, document: { document } }],
  })
  expect(edit.status).toBe(200)
  expect((await call(w.api, w.tokens.ada, 'POST', `${base}/${cr.body.id}/merge`)).status).toBe(200)
}

describe('Git Sync round trips on repositories of many styles', () => {
  for (const repo of CORPUS) {
    it(`${repo.name}: an unchanged round trip writes nothing; an edit changes only its part of its file`, async () => {
      const { w, url, head } = await synced(repo.name, repo.files, repo.dir)
      const imported = head()
      const asked = git.server.requests.length
      expect((await exportSpace(w, body(w, url, repo.dir))).status).toBe(204)
      // The repository the import fetched is still at hand: the export downloads nothing (repo-cache.ts).
      expect(git.server.requests.slice(asked).filter((r) => r.startsWith('POST') && r.includes('git-upload-pack'))).toEqual([])
      expect((await gitInfo(w)).body.operation).toMatchObject({ state: 'success', direction: 'export' })
      expect(head()).toBe(imported)

      await editFirstParagraph(w, repo.title)
      expect((await exportSpace(w, body(w, url, repo.dir))).status).toBe(204)
      expect((await gitInfo(w)).body.operation).toMatchObject({ state: 'success', direction: 'export' })
      const edited = head()
      expect(edited).not.toBe(imported)
      expect(git.server.git(repo.name, 'diff', '--name-only', imported, edited).trim().split('\n')).toEqual([repo.edit])
      // One line out, one line in: the paragraph edited.
      expect(git.server.git(repo.name, 'diff', '--numstat', imported, edited).trim()).toBe(`1\t1\t${repo.edit}`)
      const after = git.server.git(repo.name, 'show', `${edited}:${repo.edit}`)
      for (const kept of repo.keep) expect(after).toContain(kept)
      expect(after).toContain('Edited: ')

      // And again with nothing changed since: nothing written.
      expect((await exportSpace(w, body(w, url, repo.dir))).status).toBe(204)
      expect(head()).toBe(edited)
    })
  }
})

describe('submodules', () => {
  it('a submodule of the repository (a gitlink) is never read, and an export keeps it', async () => {
    const name = 'with-submodule'
    git.server.createRepo(name, { 'README.md': '# Docs\n\nHello.\n', 'SUMMARY.md': '# Table of contents\n\n* [Docs](README.md)\n' })
    // A gitlink entry `vendor/lib` (mode 160000) added with plumbing, as `git submodule add` leaves it in the tree.
    const bare = git.server.git.bind(git.server, name)
    const listing = bare('ls-tree', 'main')
    const gitlink = `160000 commit ${'a'.repeat(40)}\tvendor-lib\n`
    const tree = execFileSync('git', ['mktree'], { cwd: `${git.server.root}/${name}.git`, input: listing + gitlink, encoding: 'utf8' }).trim()
    const commit = execFileSync('git', ['commit-tree', tree, '-p', 'main', '-m', 'Add a submodule'], {
      cwd: `${git.server.root}/${name}.git`,
      encoding: 'utf8',
      env: { ...process.env, GIT_AUTHOR_NAME: 'R', GIT_AUTHOR_EMAIL: 'r@r.test', GIT_COMMITTER_NAME: 'R', GIT_COMMITTER_EMAIL: 'r@r.test' },
    }).trim()
    bare('update-ref', 'refs/heads/main', commit)
    const w = await gitWorld()
    const url = git.server.url(name, true)
    expect((await importRepo(w, target(url))).status).toBe(204)
    expect((await gitInfo(w)).body.operation).toMatchObject({ state: 'success' })
    expect((await exportSpace(w, body(w, url))).status).toBe(204)
    expect((await gitInfo(w)).body.operation).toMatchObject({ state: 'success', direction: 'export' })
    expect(bare('rev-parse', 'main').trim()).toBe(commit)
    await editFirstParagraph(w, 'Docs')
    expect((await exportSpace(w, body(w, url))).status).toBe(204)
    expect(bare('ls-tree', 'main', 'vendor-lib').trim()).toBe(gitlink.trim())
  })
})
