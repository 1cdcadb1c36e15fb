import { describe, expect, it } from 'vitest'
import { call } from '../../helpers.js'
import { gitInfo, gitWorld, importRepo, pageLines, pageMarkdown, PASSWORD, useGitServer } from './helpers.js'

const git = useGitServer()
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64')

const SUMMARY = `# Table of contents

* [Introduction](README.md)
* [Getting started](getting-started/README.md)
  * [Install](getting-started/install.md)
  * [Configure](getting-started/configure.md)

## Reference

* [API](reference/api.md)
`

const REPO = {
  'README.md': '# Welcome\n\nHello **world**. See [install](getting-started/install.md#steps).\n',
  'SUMMARY.md': SUMMARY,
  'getting-started/README.md': '---\ndescription: Start here\nicon: rocket\n---\n\n# Getting started\n\nFirst steps.\n',
  'getting-started/install.md': '# Install\n\n## Steps\n\n![Logo](../.gitbook/assets/logo.png)\n\nBack to [the start](../README.md).\n',
  'getting-started/configure.md': '# Configure\n\n```yaml\nkey: value\n```\n',
  'reference/api.md': '# API\n\n| Name | Type |\n| --- | --- |\n| id | string |\n',
  '.gitbook/assets/logo.png': PNG,
  '.gitbook/assets/unused.png': PNG,
  'not-in-summary.md': '# Ignored\n',
}

describe('import', () => {
  it('reads SUMMARY.md, README.md, frontmatter, titles, links and assets into a new revision of main', async () => {
    const w = await gitWorld()
    git.server.createRepo('basic', REPO)
    const res = await importRepo(w, { url: git.server.url('basic'), ref: 'refs/heads/main' })
    expect(res.status).toBe(204)
    const info = await gitInfo(w)
    expect(info.body.operation).toMatchObject({ state: 'success', direction: 'import' })
    expect(await pageLines(w, w.space.id)).toEqual([
      'welcome: Welcome',
      'getting-started: Getting started',
      'getting-started/install: Install',
      'getting-started/configure: Configure',
      'reference: Reference (group)',
      'reference/api: API',
    ])
    const install = await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${w.space.id}/content/path/getting-started/install`)
    const files = await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${w.space.id}/content/files`)
    // Every asset of the content folder's .gitbook/assets/ becomes a file (referenced or not), with its dimensions and where it came from.
    expect(files.body.items).toEqual([
      expect.objectContaining({
        name: 'logo.png',
        contentType: 'image/png',
        dimensions: { width: 1, height: 1 },
        git: { oid: expect.any(String), path: '.gitbook/assets/logo.png' },
      }),
      expect.objectContaining({ name: 'unused.png', git: { oid: expect.any(String), path: '.gitbook/assets/unused.png' } }),
    ])
    const image = install.body.document.nodes.find((n: { type: string }) => n.type === 'images')
    expect(image.nodes[0].data.ref).toEqual({ kind: 'file', file: files.body.items[0].id })
    const welcome = await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${w.space.id}/content/path/welcome`)
    const link = welcome.body.document.nodes[0].nodes.find((n: { type?: string }) => n.type === 'link')
    expect(link.data.ref).toEqual({ kind: 'anchor', anchor: 'steps', page: install.body.id })
    const start = await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${w.space.id}/content/path/getting-started`)
    expect(start.body).toMatchObject({ description: 'Start here', icon: 'rocket' })
    expect(await pageMarkdown(w, w.space.id, 'getting-started/configure')).toBe('```yaml\nkey: value\n```\n')
    // The revision names the commit it came from.
    const head = git.server.git('basic', 'rev-parse', 'main').trim()
    const revision = await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${w.space.id}/content`)
    expect(revision.body).toMatchObject({ type: 'edits', git: { oid: head, message: 'Remote commit', createdByGitBook: false, ref: 'refs/heads/main' } })
    expect(info.body.operation.commit).toBe(head)
    expect(info.body.operation.revision).toBe(revision.body.id)
  })

  it('keeps page ids for pages whose path did not change, and leaves out pages no longer there', async () => {
    const w = await gitWorld()
    git.server.createRepo('stable', { 'README.md': '# Home\n', 'a.md': '# A\n\nOne', 'b.md': '# B\n' })
    await importRepo(w, { url: git.server.url('stable'), ref: 'refs/heads/main' })
    const before = (await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${w.space.id}/content/pages`)).body.pages
    git.server.commit('stable', { 'a.md': '# A\n\nTwo', 'c.md': '# C\n' }, { remove: ['b.md'] })
    await importRepo(w, { url: git.server.url('stable'), ref: 'refs/heads/main' })
    const after = (await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${w.space.id}/content/pages`)).body.pages
    expect(after.map((p: { path: string }) => p.path)).toEqual(['home', 'a', 'c'])
    expect(after[0].id).toBe(before[0].id)
    expect(after[1].id).toBe(before[1].id)
    expect(before.map((p: { id: string }) => p.id)).not.toContain(after[2].id)
    expect(await pageMarkdown(w, w.space.id, 'a')).toBe('Two\n')
  })

  it('without SUMMARY.md, folders and files give the tree; .gitbook.yaml and repoProjectDirectory say where to read', async () => {
    const w = await gitWorld()
    git.server.createRepo('folders', {
      'package.json': '{}',
      'docs/.gitbook.yaml': 'root: ./content/\nstructure:\n  readme: intro.md\n',
      'docs/content/intro.md': '# Intro\n',
      'docs/content/guides/README.md': '# Guides\n',
      'docs/content/guides/b-second.md': '# Second\n',
      'docs/content/guides/a-first.md': 'No heading',
      'docs/content/zeta/deep.md': '# Deep\n',
    })
    await importRepo(w, { url: git.server.url('folders'), ref: 'refs/heads/main', repoProjectDirectory: 'docs' })
    expect((await gitInfo(w)).body.operation.state).toBe('success')
    expect(await pageLines(w, w.space.id)).toEqual([
      'intro: Intro',
      'guides: Guides',
      'guides/a-first: A first',
      'guides/b-second: Second',
      'zeta: Zeta',
      'zeta/deep: Deep',
    ])
  })

  it('standalone makes a revision without touching main; git info names it', async () => {
    const w = await gitWorld()
    git.server.createRepo('alone', { 'README.md': '# Alone\n' })
    const main = (await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${w.space.id}`)).body.revision
    await importRepo(w, { url: git.server.url('alone'), ref: 'refs/heads/main', standalone: true })
    const info = (await gitInfo(w)).body
    expect(info.operation.state).toBe('success')
    expect((await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${w.space.id}`)).body.revision).toBe(main)
    const rev = await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${w.space.id}/revisions/${info.operation.revision}`)
    expect(rev.body.pages.map((p: { title: string }) => p.title)).toEqual(['Alone'])
  })

  it('failures show in git info and leave the content as it was: unknown branch, no repository, bad credentials, unreachable', async () => {
    const w = await gitWorld()
    git.server.createRepo('fails', { 'README.md': '# One\n' })
    await importRepo(w, { url: git.server.url('fails'), ref: 'refs/heads/main' })
    const before = w.api.dump()
    const expectFailure = async (body: Record<string, unknown>, error: RegExp) => {
      expect((await importRepo(w, body)).status).toBe(204)
      const info = (await gitInfo(w)).body
      expect(info.operation).toMatchObject({ state: 'failure', direction: 'import', startedAt: '2026-03-01T10:00:00.000Z' })
      expect(info.operation.error).toMatch(error)
      expect(JSON.stringify(info)).not.toContain(PASSWORD)
      expect(await pageLines(w, w.space.id)).toEqual(['one: One'])
      expect(w.api.dump().revisions).toEqual(before.revisions)
    }
    await expectFailure({ url: git.server.url('fails'), ref: 'refs/heads/nope' }, /no branch "nope"/)
    await expectFailure({ url: git.server.url('missing'), ref: 'refs/heads/main' }, /no repository|HTTP 404|not a Git repository/)
    await expectFailure({ url: git.server.url('fails').replace(PASSWORD, 'wrong-password'), ref: 'refs/heads/main' }, /refused the credentials \(HTTP 401\)/)
    expect((await gitInfo(w)).body.installationStatus).toBe('unauthenticated')
    await expectFailure({ url: 'http://127.0.0.1:1/x.git', ref: 'refs/heads/main' }, /could not reach/)
    git.server.createRepo('badyaml', { '.gitbook.yaml': 'root: [', 'README.md': '# X\n' })
    await expectFailure({ url: git.server.url('badyaml'), ref: 'refs/heads/main' }, /\.gitbook\.yaml is not valid YAML/)
  })

  it('does not replace local changes unless forced; an older timestamp is ignored', async () => {
    const w = await gitWorld()
    git.server.createRepo('local', { 'README.md': '# Home\n' })
    await importRepo(w, { url: git.server.url('local'), ref: 'refs/heads/main', timestamp: '2026-03-01T09:00:00Z' })
    // A local edit (a merged change request) after the sync.
    const cr = await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${w.space.id}/change-requests`, { subject: 'Edit' })
    await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${w.space.id}/change-requests/${cr.body.id}/content`, {
      changes: [{ operation: 'insert_page', title: 'Local', document: { markdown: 'Mine' } }],
    })
    await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${w.space.id}/change-requests/${cr.body.id}/merge`)
    git.server.commit('local', { 'other.md': '# Other\n' })
    await importRepo(w, { url: git.server.url('local'), ref: 'refs/heads/main', timestamp: '2026-03-01T09:30:00Z' })
    expect((await gitInfo(w)).body.operation.error).toMatch(/changes made after the last sync/)
    expect(await pageLines(w, w.space.id)).toEqual(['home: Home', 'local: Local'])
    // Older than the last applied: nothing happens at all.
    const before = w.api.dump()
    expect((await importRepo(w, { url: git.server.url('local'), ref: 'refs/heads/main', force: true, timestamp: '2026-03-01T08:00:00Z' })).status).toBe(204)
    expect(w.api.dump()).toEqual(before)
    await importRepo(w, { url: git.server.url('local'), ref: 'refs/heads/main', force: true, timestamp: '2026-03-01T09:45:00Z' })
    expect((await gitInfo(w)).body.operation.state).toBe('success')
    expect(await pageLines(w, w.space.id)).toEqual(['home: Home', 'other: Other'])
  })
})
