import { GitBookAPI } from '@gitbook/api'
import { SignJWT } from 'jose'
import { describe, expect, it } from 'vitest'
import { BASE, call, resolveUrl } from '../../helpers.js'
import { expectOfficialResponse } from '../../conformance/official.js'
import { exportSpace, gitInfo, gitWorld, importRepo, type GitWorld, useGitServer } from './helpers.js'

/**
 * `.gitbook.yaml`'s redirects (docs/behaviour/git-sync.md "Redirects"): the space's redirects on
 * import, answered by published URL resolution (docs/behaviour/published.md), written back on
 * export only where they changed.
 */

const git = useGitServer()

const CONFIG = `# The docs of the product
root: ./

structure:
  readme: README.md # the first page

redirects:
  old/install: ./guide/install.md # renamed in 2024
  Legacy/Start: getting-started.md
  gone: nowhere.md
`

const REPO = {
  '.gitbook.yaml': CONFIG,
  'README.md': '# Welcome\n\nHello.\n',
  'SUMMARY.md':
    '# Table of contents\n\n* [Welcome](README.md)\n* [Getting started](getting-started.md)\n* [Guide](guide/README.md)\n  * [Install](guide/install.md)\n',
  'getting-started.md': '# Getting started\n\nStart here.\n',
  'guide/README.md': '# Guide\n\nThe guide.\n',
  'guide/install.md': '# Install\n\nRun it.\n',
}

const body = (url: string, extra: Record<string, unknown> = {}) => ({ url, ref: 'refs/heads/main', commitMessage: 'Sync from the docs', ...extra })

async function importedSite(w: GitWorld, repo: string) {
  git.server.createRepo(repo, REPO)
  const res = await importRepo(w, { url: git.server.url(repo), ref: 'refs/heads/main' })
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300)
  expect((await gitInfo(w)).body.operation.state).toBe('success')
  const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs', spaces: [w.space.id], published: true })
  return { site, gb: new GitBookAPI({ endpoint: BASE, serviceBinding: { fetch: w.api.fetch } }).urls }
}

async function pageId(w: GitWorld, path: string): Promise<string> {
  const res = await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${w.space.id}/content/path/${path}`)
  expect(res.status).toBe(200)
  return res.body.id
}

describe('git sync: .gitbook.yaml redirects', () => {
  it('become the space redirects: a path with no page answers the redirect to the page URL (case-insensitive); a page at the path, or a site redirect, wins', async () => {
    const w = await gitWorld()
    const { site, gb } = await importedSite(w, 'redirects-resolve')
    const root = site.urls.published!
    const old = await gb.getPublishedContentByUrl({ url: `${root}/old/install` })
    expect(old.status).toBe(200)
    expect(old.data).toEqual({ target: 'content', redirect: `${root}/guide/install` })
    expectOfficialResponse('getPublishedContentByUrl', 200, old.data)
    const posted = await gb.resolvePublishedContentByUrl({ url: `${root}/legacy/start/` })
    expect(posted.data).toEqual({ target: 'content', redirect: `${root}/getting-started` })
    // A destination naming no page of the import was left out: the path resolves as any other.
    expect((await gb.getPublishedContentByUrl({ url: `${root}/gone` })).data).toMatchObject({ pathname: 'gone', space: w.space.id })
    // A page at the path is served, not redirected.
    expect((await gb.getPublishedContentByUrl({ url: `${root}/guide/install` })).data).toMatchObject({ pathname: 'guide/install' })
    // A live site redirect of the same path wins: the content is answered, the renderer then follows the site redirect.
    const created = await call(w.api, w.tokens.ada, 'POST', `/v1/orgs/${w.org.id}/sites/${site.id}/redirects`, {
      source: '/old/install',
      destination: { kind: 'external', url: 'https://example.com/install' },
    })
    expect(created.status).toBe(201)
    expect((await gb.getPublishedContentByUrl({ url: `${root}/old/install` })).data).toMatchObject({ pathname: 'old/install' })
  })

  it('on a visitor-auth site, only a verified visitor token gets the redirect (a forged one learns no page URL)', async () => {
    const w = await gitWorld()
    git.server.createRepo('redirects-auth', REPO)
    await importRepo(w, { url: git.server.url('redirects-auth'), ref: 'refs/heads/main' })
    const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs', spaces: [w.space.id], published: true, visibility: 'visitor-auth' })
    const auth = (await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}/sites/${site.id}/publishing/auth`)).body
    const sign = (key: string) =>
      new SignJWT({ plan: 'pro' })
        .setProtectedHeader({ alg: 'HS256' })
        .setExpirationTime(Math.floor(w.clock.now().getTime() / 1000) + 3600)
        .sign(new TextEncoder().encode(key))
    const url = `${site.urls.published}/old/install`
    const forged = await resolveUrl(w.api, url, { visitor: { jwtToken: await sign('k'.repeat(64)) } })
    expect(forged.status).toBe(401)
    expect(JSON.stringify(forged.body)).not.toContain('guide/install')
    const good = await resolveUrl(w.api, url, { visitor: { jwtToken: await sign(auth.privateKey) } })
    expect(good.status).toBe(200)
    expect(good.body).toEqual({ target: 'content', redirect: `${site.urls.published}/guide/install` })
  })

  it('follow their page: moved and renamed through a change request, the URL and the exported destination follow; the rest of .gitbook.yaml is kept', async () => {
    const w = await gitWorld()
    const { site, gb } = await importedSite(w, 'redirects-follow')
    const root = site.urls.published!
    const install = await pageId(w, 'guide/install')
    const cr = await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${w.space.id}/change-requests`, { subject: 'Move' })
    // To the top, renamed: a page keeps the file the last sync gave it where it can, and the first page is always README.md.
    const moved = await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${w.space.id}/change-requests/${cr.body.id}/content?compat=false`, {
      changes: [{ operation: 'update_page', page: install, into: null, at: 0, slug: 'setup' }],
    })
    expect(moved.status, JSON.stringify(moved.body)).toBe(200)
    expect((await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${w.space.id}/change-requests/${cr.body.id}/merge`)).status).toBe(200)
    // The first page is served at the site-space's URL.
    expect((await gb.getPublishedContentByUrl({ url: `${root}/old/install` })).data).toEqual({ target: 'content', redirect: root })
    await exportSpace(w, body(git.server.url('redirects-follow')))
    expect((await gitInfo(w)).body.operation.state).toBe('success')
    expect(git.server.git('redirects-follow', 'show', 'main:README.md')).toContain('Run it.')
    const yaml = git.server.git('redirects-follow', 'show', 'main:.gitbook.yaml')
    expect(yaml).toBe(CONFIG.replace('old/install: ./guide/install.md # renamed in 2024', 'old/install: README.md # renamed in 2024'))
    // Imported again, the redirect leads to the same page.
    await importRepo(w, { url: git.server.url('redirects-follow'), ref: 'refs/heads/main' })
    expect((await gitInfo(w)).body.operation.state).toBe('success')
    expect((await gb.getPublishedContentByUrl({ url: `${root}/old/install` })).data).toEqual({ target: 'content', redirect: root })
    expect(await pageId(w, 'setup')).toBe(install)
  })

  it('travel with the content through a three-way merge (main moved since the change request was opened) and a space duplication', async () => {
    const w = await gitWorld()
    const { site, gb } = await importedSite(w, 'redirects-merge')
    const base = `/v1/spaces/${w.space.id}/change-requests`
    const edit = async (subject: string, title: string) => {
      const cr = await call(w.api, w.tokens.ada, 'POST', base, { subject })
      const res = await call(w.api, w.tokens.ada, 'POST', `${base}/${cr.body.id}/content?compat=false`, {
        changes: [{ operation: 'insert_page', title, document: { markdown: 'New.' } }],
      })
      expect(res.status).toBe(200)
      return cr.body.id as string
    }
    const first = await edit('First', 'Alpha')
    const second = await edit('Second', 'Beta')
    expect((await call(w.api, w.tokens.ada, 'POST', `${base}/${first}/merge`)).body.result).toBe('merge')
    expect((await call(w.api, w.tokens.ada, 'POST', `${base}/${second}/merge`)).body.result).toBe('merge')
    expect((await gb.getPublishedContentByUrl({ url: `${site.urls.published}/old/install` })).data).toEqual({
      target: 'content',
      redirect: `${site.urls.published}/guide/install`,
    })
    const copy = await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${w.space.id}/duplicate`)
    expect(copy.status, JSON.stringify(copy.body)).toBeLessThan(300)
    const copied = w.api.store.read((tx) => {
      const space = tx.get('spaces', copy.body.id)!
      return tx.get('revisions', space.revision)?.redirects
    })
    const install = await pageId(w, 'guide/install')
    expect(copied).toEqual({ 'old/install': install, 'Legacy/Start': await pageId(w, 'getting-started') })
  })

  it('an unchanged round trip makes no commit and leaves .gitbook.yaml as it was', async () => {
    const w = await gitWorld()
    await importedSite(w, 'redirects-same')
    const before = git.server.git('redirects-same', 'rev-parse', 'main').trim()
    await exportSpace(w, body(git.server.url('redirects-same')))
    expect((await gitInfo(w)).body.operation.state).toBe('success')
    expect(git.server.git('redirects-same', 'rev-parse', 'main').trim()).toBe(before)
    expect(git.server.git('redirects-same', 'show', 'main:.gitbook.yaml')).toBe(CONFIG)
  })

  it('a repository without .gitbook.yaml gets one when the space has redirects (exported elsewhere)', async () => {
    const w = await gitWorld()
    await importedSite(w, 'redirects-source')
    git.server.createRepo('redirects-new', { 'package.json': '{}' })
    await exportSpace(w, body(git.server.url('redirects-new')))
    expect((await gitInfo(w)).body.operation.state).toBe('success')
    expect(git.server.git('redirects-new', 'show', 'main:.gitbook.yaml')).toBe(
      'redirects:\n  old/install: guide/install.md\n  Legacy/Start: getting-started.md\n',
    )
  })
})
