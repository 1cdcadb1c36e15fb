import { describe, expect, it } from 'vitest'
import { createDocsApi } from '../../../src/index.js'
import { call, createWorld, expectError } from '../../helpers.js'
import { exportSpace, gitInfo, gitWorld, importRepo, PASSWORD, USER, useGitServer } from './helpers.js'

const git = useGitServer()
const basicAuth = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`

describe('requests', () => {
  it('answers 400 naming the field and the rule, and changes nothing', async () => {
    const w = await gitWorld()
    const path = `/v1/spaces/${w.space.id}/git/import`
    const before = w.api.dump()
    const cases: Array<[unknown, string]> = [
      [{ ref: 'refs/heads/main' }, '`url`: is required'],
      [{ url: 'https://example.com/a.git', ref: 5 }, '`ref`: must be a string'],
      [{ url: 'https://example.com/a.git', ref: 'main' }, '`ref`: must be a branch ref of the form "refs/heads/<branch>"'],
      [{ url: 'https://example.com/a.git', ref: 'refs/tags/v1' }, '`ref`: must be a branch ref'],
      [{ url: 'not a url', ref: 'refs/heads/main' }, '`url`: not a valid URL'],
      [{ url: 'ftp://example.com/a.git', ref: 'refs/heads/main' }, 'only http and https URLs'],
      [{ url: 'https://example.com/a.git', ref: 'refs/heads/main', force: 'yes' }, '`force`: must be a boolean'],
      [{ url: 'https://example.com/a.git', ref: 'refs/heads/main', timestamp: 'yesterday' }, '`timestamp`: must be an ISO 8601 date-time'],
      [{ url: 'https://example.com/a.git', ref: 'refs/heads/main', repoProjectDirectory: '../up' }, '`repoProjectDirectory`: must stay inside the repository'],
      [{ url: 'https://example.com/a.git', ref: 'refs/heads/main', extra: 1 }, 'extra'],
    ]
    for (const [body, message] of cases) expectError(await call(w.api, w.tokens.ada, 'POST', path, body), 400, message)
    // Branch names git refuses (git check-ref-format --branch), each said once.
    for (const ref of [
      'refs/heads/',
      'refs/heads/-x',
      'refs/heads/@',
      'refs/heads/HEAD',
      'refs/heads/a..b',
      'refs/heads/a/.b',
      'refs/heads/x.lock',
      'refs/heads/a//b',
      'refs/heads/a.',
      'refs/heads/a@{1}',
      'refs/heads/a b',
      'refs/heads/a~1',
    ]) {
      const res = await call(w.api, w.tokens.ada, 'POST', path, { url: 'https://example.com/a.git', ref })
      expectError(res, 400, '`ref`: must be a branch ref of the form "refs/heads/<branch>"')
      expect(res.body.error.message.split('must be a branch ref').length, `${ref}: ${res.body.error.message}`).toBe(2)
    }
    expectError(
      await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${w.space.id}/git/export`, { url: 'https://example.com/a.git', commitMessage: ['x'] }),
      400,
      '`commitMessage`: must be a string',
    )
    await w.api.idle()
    expect(w.api.dump()).toEqual(before)
  })

  it('refuses private and loopback remotes unless allowPrivateNetwork', async () => {
    const w = await createWorld()
    const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Docs' })
    const res = await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/git/import`, {
      url: `http://${USER}:${PASSWORD}@127.0.0.1:9/x.git`,
      ref: 'refs/heads/main',
    })
    expectError(res, 400, '127.0.0.1 is a loopback address')
    expect(JSON.stringify(res.body)).not.toContain(PASSWORD)
  })

  it('permissions: editors trigger (POLICY.space.triggerGitSync), readers 403, outsiders 404, no token 401', async () => {
    const w = await gitWorld()
    for (const op of ['import', 'export']) {
      const body = { url: 'https://example.com/a.git', ref: 'refs/heads/main', ...(op === 'export' && { commitMessage: 'x' }) }
      expectError(await call(w.api, w.tokens.rita, 'POST', `/v1/spaces/${w.space.id}/git/${op}`, body), 403, '')
      expectError(await call(w.api, w.tokens.olga, 'POST', `/v1/spaces/${w.space.id}/git/${op}`, body), 404, '')
      expectError(await call(w.api, undefined, 'POST', `/v1/spaces/${w.space.id}/git/${op}`, body), 401, '')
    }
    expectError(await gitInfo(w, w.tokens.olga), 404, '')
    expectError(await call(w.api, w.tokens.rita, 'DELETE', `/v1/spaces/${w.space.id}/git/legacy-installation`), 403, '')
  })

  it('git info: 404 until the first sync; the space says the same in `gitSync`; the legacy delete disconnects (204, also again)', async () => {
    const w = await gitWorld()
    expectError(await gitInfo(w), 404, 'no Git Sync yet')
    expect((await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${w.space.id}`)).body).not.toHaveProperty('gitSync')
    git.server.createRepo('info', { 'README.md': '# Hi\n' })
    await importRepo(w, {
      url: git.server.url('info'),
      ref: 'refs/heads/main',
      gitInfo: { provider: 'gitlab', url: 'https://gitlab.example.com/acme/info/-/tree/main' },
    })
    const info = await gitInfo(w)
    expect(info.body).toEqual({
      installationId: expect.any(String),
      installationProvider: 'gitlab',
      installationStatus: 'active',
      repoName: 'info',
      url: 'https://gitlab.example.com/acme/info/-/tree/main',
      operationTimeout: 300000,
      updatedAt: '2026-03-01T10:00:00.000Z',
      operation: {
        state: 'success',
        direction: 'import',
        startedAt: '2026-03-01T10:00:00.000Z',
        endedAt: '2026-03-01T10:00:00.000Z',
        commit: expect.any(String),
        revision: expect.any(String),
      },
    })
    expect((await gitInfo(w, w.tokens.rita)).status).toBe(200)
    const space = await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${w.space.id}`)
    expect(space.body.gitSync).toEqual(info.body)
    const listed = await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}/spaces`)
    expect(listed.body.items.find((s: { id: string }) => s.id === w.space.id).gitSync).toEqual(info.body)
    for (let i = 0; i < 2; i++) expect((await call(w.api, w.tokens.ada, 'DELETE', `/v1/spaces/${w.space.id}/git/legacy-installation`)).status).toBe(204)
    expectError(await gitInfo(w), 404, '')
    expect(await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${w.space.id}/content/pages`).then((r) => r.body.pages.length)).toBe(1)
  })

  it('a plain URL sync answers every field the official schema requires, with the URL without credentials', async () => {
    const w = await gitWorld()
    git.server.createRepo('plain', { 'README.md': '# Hi\n' })
    await importRepo(w, { url: git.server.url('plain'), ref: 'refs/heads/main' })
    const info = (await gitInfo(w)).body
    expect(info).toMatchObject({ installationProvider: 'github', installationStatus: 'active', repoName: 'plain', url: git.server.url('plain', false) })
  })

  it('credentials reach the server and appear in no response, journal entry, stored row or message', async () => {
    const w = await gitWorld()
    git.server.createRepo('secret', { 'README.md': '# Hi\n' })
    const url = git.server.url('secret')
    expect(url).toContain(PASSWORD)
    const seen = git.server.authorizations.length
    await importRepo(w, { url, ref: 'refs/heads/main', repoTreeURL: `https://${USER}:${PASSWORD}@example.com/tree` })
    await exportSpace(w, { url, ref: 'refs/heads/main', commitMessage: 'Out' })
    await importRepo(w, { url: url.replace('secret.git', 'nothing.git'), ref: 'refs/heads/main' })
    expect(git.server.authorizations.slice(seen).every((a) => a === basicAuth)).toBe(true)
    expect(git.server.authorizations.length).toBeGreaterThan(seen)
    await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${w.space.id}`)
    const everything = JSON.stringify([w.api.journal.entries, w.api.dump(), (await gitInfo(w)).body])
    expect(everything).toContain('secret.git')
    expect(everything).not.toContain(PASSWORD)
    expect(everything).not.toContain(USER)
    const journaled = w.api.journal.find({ operationId: 'importGitRepository' })[0]!
    expect(journaled.requestBody).toMatchObject({ url: git.server.url('secret', false), ref: 'refs/heads/main' })
  })

  it('the journal keeps no credential however the body writes it (escaped slashes, quotes in the password, \\u0040)', async () => {
    const w = await createWorld()
    const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Docs' })
    const bodies = [
      '{"url":"https:\\/\\/alice:pw-escaped-slash-1@git.example.com\\/acme\\/docs.git","ref":"refs\\/heads\\/main"}',
      JSON.stringify({ url: "https://alice:pa'ss-apostrophe-2@git.example.com/acme/docs.git", ref: 'refs/heads/main' }),
      JSON.stringify({ url: 'https://alice:pa"ss-quote-3@git.example.com/acme/docs.git', ref: 'refs/heads/main' }),
      '{"url":"https://alice:pw-at-escaped-4\\u0040git.example.com/acme/docs.git","ref":"refs/heads/main"}',
      JSON.stringify({
        url: 'https://git.example.com/acme/docs.git',
        ref: 'refs/heads/main',
        repoTreeURL: 'https://bob:tree-secret-5@git.example.com/tree',
        gitInfo: { url: 'https://carl:info-secret-6@gitlab.example.com/x' },
      }),
      JSON.stringify({
        url: 'https://alice:pw-unknown-field-7@git.example.com/acme/docs.git',
        ref: 'refs/heads/main',
        extra: 'see https://dan:extra-secret-8@example.com/x',
      }),
      '{"url": "https://alice:pw-not-json-9@git.example.com/a.git", ',
    ]
    for (const body of bodies) await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/git/import`, body)
    await w.api.idle()
    const journaled = JSON.stringify(w.api.journal.find({ operationId: 'importGitRepository' }).map((e) => e.requestBody))
    for (const secret of [
      'pw-escaped-slash-1',
      'ss-apostrophe-2',
      'ss-quote-3',
      'pw-at-escaped-4',
      'tree-secret-5',
      'info-secret-6',
      'pw-unknown-field-7',
      'extra-secret-8',
      'pw-not-json-9',
      'alice',
      'bob',
      'carl',
      'dan',
    ]) {
      expect(journaled, secret).not.toContain(secret)
    }
    // The rest of each body is kept as sent.
    const [first] = w.api.journal.find({ operationId: 'importGitRepository' })
    expect(first!.requestBody).toEqual({ url: 'https://git.example.com/acme/docs.git', ref: 'refs/heads/main' })
    expect(journaled).toContain('https://git.example.com/tree')
  })

  it('a space locked for edits refuses a non-standalone import (403)', async () => {
    const w = await gitWorld()
    await call(w.api, w.tokens.ada, 'PATCH', `/v1/spaces/${w.space.id}`, { editMode: 'locked' })
    expectError(
      await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${w.space.id}/git/import`, { url: 'https://example.com/a.git', ref: 'refs/heads/main' }),
      403,
      'locked',
    )
  })

  it('a state document keeps a Git Sync (an operation left running loads as failed) and refuses a bad one', async () => {
    const w = await gitWorld()
    git.server.createRepo('dump', { 'README.md': '# Hi\n' })
    await importRepo(w, { url: git.server.url('dump'), ref: 'refs/heads/main' })
    const doc = w.api.dump()
    expect(createDocsApi({ seed: doc }).dump().gitSyncs).toEqual(doc.gitSyncs)
    const running = { ...doc, gitSyncs: doc.gitSyncs!.map((r) => ({ ...r, operation: { ...r.operation, state: 'running' as const } })) }
    expect(createDocsApi({ seed: running }).dump().gitSyncs![0]!.operation).toMatchObject({
      state: 'failure',
      error: expect.stringContaining('was interrupted'),
    })
    const bad = { ...doc, gitSyncs: [{ ...doc.gitSyncs![0]!, id: 'nope', space: 'nope' }] }
    expect(() => createDocsApi({ seed: bad })).toThrow(/gitSyncs\[0\]/)
  })
})
