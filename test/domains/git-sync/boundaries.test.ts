import { describe, expect, it } from 'vitest'
import { call } from '../../helpers.js'
import { exportSpace, gitInfo, gitWorld, importRepo, pageLines, pageMarkdown, type GitWorld, useGitServer } from './helpers.js'

/**
 * Boundaries (docs/behaviour/git-sync.md "Boundaries"): with repoProjectDirectory nothing outside
 * the project folder is read; names Git refuses are refused by the API and renamed by an export.
 */

const git = useGitServer()
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='
const png = () => Uint8Array.from(Buffer.from(PNG, 'base64'))

describe('git sync: the project folder is the boundary of what an import reads', () => {
  it('a SUMMARY.md entry out of the project folder is a page without content; an asset out of it stays a URL', async () => {
    const w = await gitWorld()
    git.server.createRepo('bounded', {
      'secret/creds.md': '# Credentials\n\nTOKEN=hunter2\n',
      'secret/.gitbook/assets/key.png': png(),
      'docs/README.md': '# Welcome\n\n![Key](../secret/.gitbook/assets/key.png)\n\n![Dot](.gitbook/assets/dot.png)\n',
      'docs/.gitbook/assets/dot.png': png(),
      'docs/SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Creds](../secret/creds.md)\n  * [Inside](inside.md)\n',
      'docs/inside.md': '# Inside\n\nText.\n',
    })
    await importRepo(w, { url: git.server.url('bounded'), ref: 'refs/heads/main', repoProjectDirectory: 'docs' })
    expect((await gitInfo(w)).body.operation.state).toBe('success')
    expect(await pageLines(w, w.space.id)).toEqual(['welcome: Welcome', 'creds: Creds', 'creds/inside: Inside'])
    expect(await pageMarkdown(w, w.space.id, 'creds')).not.toContain('hunter2')
    const files = await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${w.space.id}/content/files`)
    expect(files.body.items.map((f: { name: string }) => f.name)).toEqual(['dot.png'])
    expect(await pageMarkdown(w, w.space.id, 'welcome')).toContain('../secret/.gitbook/assets/key.png')
  })

  it('.gitbook.yaml structure.readme and structure.summary out of the project folder fail the import, naming the key', async () => {
    for (const [key, yaml] of [
      ['structure.readme', 'structure:\n  readme: ../secret/creds.md\n'],
      ['structure.summary', 'structure:\n  summary: ../../SUMMARY.md\n'],
    ] as const) {
      const w = await gitWorld()
      const name = `bounded-${key.replace('.', '-')}`
      git.server.createRepo(name, {
        'secret/creds.md': '# Credentials\n\nTOKEN=hunter2\n',
        'SUMMARY.md': '* [Creds](secret/creds.md)\n',
        'docs/.gitbook.yaml': yaml,
        'docs/README.md': '# Welcome\n',
      })
      await importRepo(w, { url: git.server.url(name), ref: 'refs/heads/main', repoProjectDirectory: 'docs' })
      const op = (await gitInfo(w)).body.operation
      expect(op.state).toBe('failure')
      expect(op.error).toContain(`\`${key}\` must name a file inside the project folder`)
    }
  })
})

describe('git sync: names Git refuses', () => {
  async function openCr(w: GitWorld) {
    const cr = await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${w.space.id}/change-requests`, { subject: 'Names' })
    return (changes: unknown[]) => call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${w.space.id}/change-requests/${cr.body.id}/content?compat=false`, { changes })
  }

  it('are refused as a page slug or a file name written through the API (400 naming the field and the rule)', async () => {
    const w = await gitWorld()
    const edit = await openCr(w)
    const rule = 'must not be a name Git refuses as a path segment'
    for (const [change, field] of [
      [{ operation: 'insert_page', title: 'Repo', slug: '.git', document: { markdown: 'x' } }, 'changes[0].slug'],
      [{ operation: 'insert_page', title: 'Repo', slug: '.GIT', document: { markdown: 'x' } }, 'changes[0].slug'],
      [{ operation: 'insert_page', title: 'Repo', slug: 'GIT~1', document: { markdown: 'x' } }, 'changes[0].slug'],
      [{ operation: 'insert_page', title: 'Repo', slug: '.git..', document: { markdown: 'x' } }, 'changes[0].slug'],
      [{ operation: 'insert_files', files: [{ name: '.Git', contentType: 'image/png', base64: PNG }] }, 'changes[0].files[0].name'],
    ] as const) {
      const res = await edit([change])
      expect(res.status, JSON.stringify(change)).toBe(400)
      expect(res.body.error.message).toContain(`body field \`${field}\``)
      expect(res.body.error.message).toContain(rule)
    }
    // Through a markdown frontmatter too, and in an update.
    const fm = await edit([{ operation: 'insert_page', title: 'Repo', document: { markdown: '---\nslug: .git\n---\nText' } }])
    expect(fm.status).toBe(400)
    expect(fm.body.error.message).toContain('frontmatter `slug`')
    // An update's slug; the batch fails whole: the page it inserted first is not there either.
    const update = await edit([
      { operation: 'insert_page', title: 'Repo', slug: '.gitbook', ref: 'repo', document: { markdown: 'x' } },
      { operation: 'update_page', page: 'repo', slug: 'git~1' },
    ])
    expect(update.status).toBe(400)
    expect(update.body.error.message).toContain(`body field \`changes[1].slug\`: ${rule}`)
    // Names that only look alike are fine.
    const ok = await edit([{ operation: 'insert_page', title: 'Repo', slug: '.gitbook', document: { markdown: 'x' } }])
    expect(ok.status, JSON.stringify(ok.body)).toBe(200)
  })

  it('a space holding one (seeded directly) exports, the name renamed: `.git` → `dot-git`, `.GIT` → `dot-GIT`', async () => {
    const w = await gitWorld()
    const base = `/v1/spaces/${w.space.id}/change-requests`
    const cr = await call(w.api, w.tokens.ada, 'POST', base, { subject: 'Content' })
    const edit = await call(w.api, w.tokens.ada, 'POST', `${base}/${cr.body.id}/content?compat=false`, {
      changes: [
        { operation: 'insert_files', files: [{ name: 'placeholder.png', contentType: 'image/png', base64: PNG, ref: 'f' }] },
        { operation: 'insert_page', title: 'Welcome', document: { markdown: 'Hello.' } },
        { operation: 'insert_page', title: 'Repo', slug: 'placeholder', ref: 'repo', document: { markdown: '![A file](./f)' } },
        { operation: 'insert_page', title: 'Inside', into: 'repo', document: { markdown: 'Back to [the repo](./repo).' } },
      ],
    })
    expect(edit.status, JSON.stringify(edit.body)).toBe(200)
    expect((await call(w.api, w.tokens.ada, 'POST', `${base}/${cr.body.id}/merge`)).status).toBe(200)
    // Names the API now refuses, as content from before the rule (a state document, an older store) may hold them.
    w.api.store.transaction((tx) => {
      for (const version of tx.all('pageVersions')) if (version.slug === 'placeholder') tx.update('pageVersions', { ...version, slug: '.git' })
      for (const file of tx.all('files')) if (file.name === 'placeholder.png') tx.update('files', { ...file, name: '.GIT' })
    })
    expect(await pageLines(w, w.space.id)).toEqual(['welcome: Welcome', '.git: Repo', '.git/inside: Inside'])
    git.server.createRepo('refused-names', { 'package.json': '{}' })
    await exportSpace(w, { url: git.server.url('refused-names'), ref: 'refs/heads/main', commitMessage: 'Export' })
    expect((await gitInfo(w)).body.operation).toMatchObject({ state: 'success' })
    expect(git.server.git('refused-names', 'ls-tree', '-r', '--name-only', 'main').trim().split('\n')).toEqual([
      '.gitbook/assets/dot-GIT',
      'README.md',
      'SUMMARY.md',
      'dot-git/README.md',
      'dot-git/inside.md',
      'package.json',
    ])
    expect(git.server.git('refused-names', 'show', 'main:dot-git/README.md')).toContain('../.gitbook/assets/dot-GIT')
    expect(git.server.git('refused-names', 'show', 'main:SUMMARY.md')).toContain('[Repo](dot-git/README.md)')
  })
})
