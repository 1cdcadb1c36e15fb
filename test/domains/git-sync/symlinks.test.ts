import { describe, expect, it } from 'vitest'
import { call } from '../../helpers.js'
import { exportSpace, gitInfo, gitWorld, importRepo, pageLines, useGitServer } from './helpers.js'

/**
 * Symbolic links of a repository (blobs of mode 120000) are never read, whatever their name
 * (docs/behaviour/git-sync.md): not as pages, assets, SUMMARY.md entries, `.gitbook.yaml` or
 * includes; an export leaves them as they are.
 */
const git = useGitServer()
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64')

/** `mode oid` of each path of a branch. */
const tree = (repo: string, branch: string) =>
  new Map(
    git.server
      .git(repo, 'ls-tree', '-r', branch)
      .trim()
      .split('\n')
      .map((line) => {
        const [meta, path] = line.split('\t')
        const [mode, , oid] = meta!.split(' ')
        return [path!, `${mode} ${oid}`]
      }),
  )

describe('symbolic links in a repository', () => {
  it('are skipped on import (pages, assets, SUMMARY.md entries, .gitbook.yaml, includes) and kept as they are on export', async () => {
    const w = await gitWorld()
    git.server.createRepo(
      'links',
      {
        'README.md': '# Home\n\n![Logo](.gitbook/assets/logo.png)\n\n![Linked](.gitbook/assets/linked.png)\n',
        'SUMMARY.md': '* [Home](README.md)\n* [Secret](secret.md)\n* [Guide](guide.md)\n',
        'guide.md': '# Guide\n\nThe guide.\n',
        'elsewhere.yaml': 'root: ./nowhere/\n',
        '.gitbook/assets/logo.png': PNG,
      },
      {
        symlinks: {
          // Named like a page, pointing outside the repository.
          'secret.md': '../../../etc/passwd',
          '.gitbook/assets/linked.png': 'logo.png',
          '.gitbook.yaml': 'elsewhere.yaml',
          '.gitbook/includes/shared.md': '../../guide.md',
        },
      },
    )
    const before = tree('links', 'main')
    expect(before.get('secret.md')).toMatch(/^120000 /)
    await importRepo(w, { url: git.server.url('links'), ref: 'refs/heads/main' })
    expect((await gitInfo(w)).body.operation).toMatchObject({ state: 'success', direction: 'import' })
    expect(await pageLines(w, w.space.id)).toEqual(['home: Home', 'guide: Guide'])
    const files = (await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${w.space.id}/content/files`)).body.items
    expect(files.map((f: { name: string }) => f.name)).toEqual(['logo.png'])
    const revision = (await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${w.space.id}/content`)).body
    expect(revision.reusableContents ?? []).toEqual([])

    // An export with a change commits; the links stay, byte for byte and as links.
    const s = `/v1/spaces/${w.space.id}`
    const cr = (await call(w.api, w.tokens.ada, 'POST', `${s}/change-requests`, { subject: 'Add' })).body
    await call(w.api, w.tokens.ada, 'POST', `${s}/change-requests/${cr.id}/content`, {
      changes: [{ operation: 'insert_page', title: 'Added', document: { markdown: 'New.' } }],
    })
    expect((await call(w.api, w.tokens.ada, 'POST', `${s}/change-requests/${cr.id}/merge`)).status).toBe(200)
    await exportSpace(w, { url: git.server.url('links'), ref: 'refs/heads/main', commitMessage: 'Added a page' })
    expect((await gitInfo(w)).body.operation).toMatchObject({ state: 'success', direction: 'export' })
    expect(git.server.git('links', 'log', '-1', '--format=%s', 'main').trim()).toBe('Added a page')
    const after = tree('links', 'main')
    for (const path of ['secret.md', '.gitbook/assets/linked.png', '.gitbook.yaml', '.gitbook/includes/shared.md'])
      expect(after.get(path), path).toBe(before.get(path))
  })
})
