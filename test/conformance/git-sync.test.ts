import { GitBookAPIError, type ExportToGitRepository, type ImportGitRepository } from '@gitbook/api'
import { describe, expect, it } from 'vitest'
import { call } from '../helpers.js'
import { gitWorld, useGitServer } from '../domains/git-sync/helpers.js'
import { expectOfficialError, expectOfficialResponse, resolveOfficial } from './official.js'

/**
 * Git Sync through the official client (`@gitbook/api`, `serviceBinding` to `api.fetch`) against
 * a local Git server, each answer checked against the official response schema.
 */
const git = useGitServer()

describe('conformance: Git Sync through @gitbook/api', () => {
  it("bodies without `ref` and `commitMessage` sync with the remote's default branch, with a default message (docs/behaviour/git-sync.md)", async () => {
    // The official schemas list them as required; tools send bodies without them, and the API takes those too.
    expect(resolveOfficial({ $ref: '#/components/schemas/ImportGitRepository' }).required).toEqual(['url', 'ref'])
    expect(resolveOfficial({ $ref: '#/components/schemas/ExportToGitRepository' }).required).toEqual(['url', 'ref', 'commitMessage'])
    const w = await gitWorld()
    const gb = w.client(w.tokens.ada)
    const s = w.space.id
    // The remote's default branch (its HEAD) is `trunk`; another branch is there too.
    git.server.createRepo('defaults', { 'README.md': '# Home\n', 'SUMMARY.md': '* [Home](README.md)\n' }, { branch: 'trunk' })
    git.server.commit('defaults', { 'README.md': '# Other\n' }, { branch: 'other' })
    const url = git.server.url('defaults')
    expect((await gb.spaces.importGitRepository(s, { url } as ImportGitRepository)).status).toBe(204)
    await w.api.idle()
    const imported = await gb.spaces.getSpaceGitInfo(s)
    expectOfficialResponse('getSpaceGitInfo', 200, imported.data)
    expect(imported.data.operation).toMatchObject({ state: 'success', direction: 'import' })
    const trunk = git.server.git('defaults', 'rev-parse', 'trunk').trim()
    expect((await gb.spaces.getCurrentRevision(s)).data.git).toMatchObject({ oid: trunk, ref: 'refs/heads/trunk' })
    expect(w.api.system((ctx) => ctx.tx.get('gitSyncs', s))?.ref).toBe('refs/heads/trunk')

    await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${s}/change-requests`, { subject: 'x' }).then(async (cr) => {
      await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${s}/change-requests/${cr.body.id}/content`, {
        changes: [{ operation: 'insert_page', title: 'Added', document: { markdown: 'New page' } }],
      })
      expect((await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${s}/change-requests/${cr.body.id}/merge`)).status).toBe(200)
    })
    expect((await gb.spaces.exportToGitRepository(s, { url } as ExportToGitRepository)).status).toBe(204)
    await w.api.idle()
    const exported = await gb.spaces.getSpaceGitInfo(s)
    expectOfficialResponse('getSpaceGitInfo', 200, exported.data)
    expect(exported.data.operation).toMatchObject({ state: 'success', direction: 'export' })
    expect(git.server.git('defaults', 'log', '--format=%s', 'trunk').trim().split('\n')).toEqual(['Export from docs-content-api', 'Remote commit'])
    expect(git.server.git('defaults', 'show', 'trunk:SUMMARY.md')).toContain('[Added]')
    // A blank message is no message: the default too.
    expect((await gb.spaces.exportToGitRepository(s, { url, ref: 'refs/heads/blank', commitMessage: '' })).status).toBe(204)
    await w.api.idle()
    expect(git.server.git('defaults', 'log', '-1', '--format=%s', 'blank').trim()).toBe('Export from docs-content-api')

    // A remote without a default branch (an empty repository) fails the operation, saying what to do.
    git.server.createRepo('empty')
    await gb.spaces.exportToGitRepository(s, { url: git.server.url('empty') } as ExportToGitRepository)
    await w.api.idle()
    const failed = await gb.spaces.getSpaceGitInfo(s)
    expectOfficialResponse('getSpaceGitInfo', 200, failed.data)
    expect(failed.data.operation).toMatchObject({
      state: 'failure',
      error: 'the repository has no default branch (its HEAD names no branch, or it has none yet): give the branch as `ref`',
    })
  })

  it('import, git info, export, the space with gitSync; git info 404 before the first sync', async () => {
    const w = await gitWorld()
    const gb = w.client(w.tokens.ada)
    const s = w.space.id
    const missing = await gb.spaces.getSpaceGitInfo(s).catch((e: unknown) => e)
    expect(missing).toBeInstanceOf(GitBookAPIError)
    expect((missing as GitBookAPIError).code).toBe(404)
    expectOfficialError(404, (await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${s}/git/info`)).body)

    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64')
    git.server.createRepo('official', {
      'README.md': '# Home\n\nHi ![dot](.gitbook/assets/dot.png)',
      'SUMMARY.md': '* [Home](README.md)\n* [Next](next.md)\n',
      'next.md': '# Next\n',
      '.gitbook/assets/dot.png': png,
    })
    const imported = await gb.spaces.importGitRepository(s, {
      url: git.server.url('official'),
      ref: 'refs/heads/main',
      force: false,
      standalone: false,
      timestamp: '2026-03-01T09:00:00.000Z',
    })
    expect(imported.status).toBe(204)
    await w.api.idle()
    const info = await gb.spaces.getSpaceGitInfo(s)
    expectOfficialResponse('getSpaceGitInfo', 200, info.data)
    expect(info.data.operation?.state).toBe('success')

    const space = await gb.spaces.getSpaceById(s)
    expectOfficialResponse('getSpaceById', 200, space.data)
    expect(space.data.gitSync).toEqual(info.data)
    const revision = await gb.spaces.getCurrentRevision(s)
    expectOfficialResponse('getCurrentRevision', 200, revision.data)
    expect(revision.data.git?.ref).toBe('refs/heads/main')
    // Imported pages carry the blob and path they were read from (GitSyncBlob), in the revision and read alone.
    const readmeOid = git.server.git('official', 'rev-parse', 'main:README.md').trim()
    const nextOid = git.server.git('official', 'rev-parse', 'main:next.md').trim()
    expect(revision.data.pages.map((p) => ('git' in p ? p.git : undefined))).toEqual([
      { oid: readmeOid, path: 'README.md' },
      { oid: nextOid, path: 'next.md' },
    ])
    const page = await gb.spaces.getPageByPath(s, 'next')
    expectOfficialResponse('getPageByPath', 200, page.data)
    expect(page.data).toMatchObject({ git: { oid: nextOid, path: 'next.md' } })
    const byId = await gb.spaces.getPageById(s, page.data.id)
    expectOfficialResponse('getPageById', 200, byId.data)
    expect(byId.data).toMatchObject({ git: { oid: nextOid, path: 'next.md' } })
    const files = await gb.spaces.listFiles(s)
    expectOfficialResponse('listFiles', 200, files.data)
    expect(files.data.items[0]?.git?.path).toBe('.gitbook/assets/dot.png')

    const exported = await gb.spaces.exportToGitRepository(s, { url: git.server.url('official'), ref: 'refs/heads/out', commitMessage: 'From the docs' })
    expect(exported.status).toBe(204)
    await w.api.idle()
    const after = await gb.spaces.getSpaceGitInfo(s)
    expectOfficialResponse('getSpaceGitInfo', 200, after.data)
    expect(after.data.operation).toMatchObject({ state: 'success', direction: 'export' })

    // A failed operation is a valid state too.
    await gb.spaces.importGitRepository(s, { url: git.server.url('official'), ref: 'refs/heads/gone' })
    await w.api.idle()
    const failed = await gb.spaces.getSpaceGitInfo(s)
    expectOfficialResponse('getSpaceGitInfo', 200, failed.data)
    expect(failed.data.operation).toMatchObject({ state: 'failure', error: expect.stringContaining('no branch') })
  })
})
