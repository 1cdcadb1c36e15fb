import { describe, expect, it } from 'vitest'
import { call } from '../../helpers.js'
import { exportSpace, gitInfo, gitWorld, importRepo, useGitServer } from './helpers.js'

/**
 * Reusable contents in Git Sync, as GitBook lays them out (docs/behaviour/git-sync.md): each a
 * markdown file of `.gitbook/includes/` (its title in the frontmatter), a page including one with
 * `{% include "<relative path>" %}`.
 */
const git = useGitServer()

const SUPPORT = `---
title: Need help?
---

Write to **the support team**.
`
const REPO = {
  'README.md': '# Welcome\n\nHello.\n\n{% include ".gitbook/includes/support.md" %}\n',
  'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Setup](guide/setup.md)\n',
  'guide/setup.md': '# Setup\n\n{% include "../.gitbook/includes/support.md" %}\n\n{% include "../.gitbook/includes/missing.md" %}\n',
  '.gitbook/includes/support.md': SUPPORT,
}

type Node = { type: string; data?: { ref?: { reusableContent?: string } }; nodes?: Array<{ leaves?: Array<{ text: string }> }> }

describe('Git Sync: reusable contents', () => {
  it('imports .gitbook/includes/ files as reusable contents and `{% include %}` as their blocks; an export with nothing changed makes no commit', async () => {
    const w = await gitWorld()
    git.server.createRepo('includes', REPO)
    await importRepo(w, { url: git.server.url('includes'), ref: 'refs/heads/main' })
    expect((await gitInfo(w)).body.operation.state).toBe('success')
    const rev = (await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${w.space.id}/content`)).body
    expect(rev.reusableContents).toEqual([
      { id: expect.any(String), title: 'Need help?', document: expect.any(String), git: { oid: expect.any(String), path: '.gitbook/includes/support.md' } },
    ])
    const id = rev.reusableContents[0].id
    const doc = (await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${w.space.id}/revisions/${rev.id}/reusable-contents/${id}/document`)).body
    expect(JSON.stringify(doc)).toContain('the support team')
    const readme = (await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${w.space.id}/content/path/welcome`)).body.document.nodes as Node[]
    expect(readme.at(-1)).toMatchObject({ type: 'reusable-content', data: { ref: { kind: 'reusable-content', reusableContent: id } } })
    const setup = (await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${w.space.id}/content/path/setup`)).body.document.nodes as Node[]
    expect(setup[0]).toMatchObject({ type: 'reusable-content', data: { ref: { reusableContent: id } } })
    // An include of a file the repository lacks stays its text.
    expect(setup[1]).toMatchObject({ type: 'paragraph' })
    expect(setup[1]!.nodes![0]!.leaves![0]!.text).toBe('{% include "../.gitbook/includes/missing.md" %}')

    const head = git.server.git('includes', 'rev-parse', 'main').trim()
    await exportSpace(w, { url: git.server.url('includes'), ref: 'refs/heads/main', commitMessage: 'Nothing' })
    expect((await gitInfo(w)).body.operation).toMatchObject({ state: 'success', commit: head })

    // Renamed in a change request, then exported: the same file, its title changed; the pages' includes as they were.
    const cr = (await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${w.space.id}/change-requests`, { subject: 'Rename' })).body
    await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${w.space.id}/change-requests/${cr.id}/content`, {
      changes: [{ operation: 'update_reusable_content', reusableContent: id, title: 'Support' }],
    })
    await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${w.space.id}/change-requests/${cr.id}/merge`)
    await exportSpace(w, { url: git.server.url('includes'), ref: 'refs/heads/main', commitMessage: 'Rename' })
    expect((await gitInfo(w)).body.operation.state).toBe('success')
    expect(git.server.git('includes', 'show', 'main:.gitbook/includes/support.md')).toBe(SUPPORT.replace('Need help?', 'Support'))
    expect(git.server.git('includes', 'show', 'main:guide/setup.md')).toContain('{% include "../.gitbook/includes/support.md" %}')
    // Imported again: the same reusable content (its id kept through the sync's record).
    await importRepo(w, { url: git.server.url('includes'), ref: 'refs/heads/main' })
    const again = (await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${w.space.id}/content`)).body
    expect(again.reusableContents).toEqual([expect.objectContaining({ id, title: 'Support' })])
  })

  it('exports a space made through the API: its reusable contents as include files, included by relative path', async () => {
    const w = await gitWorld()
    const base = `/v1/spaces/${w.space.id}/change-requests`
    const cr = (await call(w.api, w.tokens.ada, 'POST', base, { subject: 'Write' })).body
    const block = { object: 'block', type: 'reusable-content', isVoid: true, data: { ref: { kind: 'reusable-content', reusableContent: 'p' } } }
    const res = await call(w.api, w.tokens.ada, 'POST', `${base}/${cr.id}/content`, {
      changes: [
        { operation: 'insert_reusable_content', title: 'Prerequisites', ref: 'p', document: { markdown: '- Node.js 20\n- An account' } },
        { operation: 'insert_page', title: 'Welcome', document: { markdown: 'Hi.' } },
        { operation: 'insert_page', title: 'Install', document: { document: { object: 'document', data: {}, nodes: [block] } } },
      ],
    })
    expect(res.status).toBe(200)
    await call(w.api, w.tokens.ada, 'POST', `${base}/${cr.id}/merge`)
    git.server.createRepo('out', { 'other.txt': 'kept' })
    await exportSpace(w, { url: git.server.url('out'), ref: 'refs/heads/main', commitMessage: 'Export' })
    expect((await gitInfo(w)).body.operation.state).toBe('success')
    expect(git.server.git('out', 'show', 'main:.gitbook/includes/prerequisites.md')).toBe('---\ntitle: Prerequisites\n---\n\n- Node.js 20\n- An account\n')
    expect(git.server.git('out', 'show', 'main:install.md')).toBe('# Install\n\n{% include ".gitbook/includes/prerequisites.md" %}\n')
  })
})
