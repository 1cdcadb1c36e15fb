import { GitBookAPIError } from '@gitbook/api'
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
  it('`ref` (and `commitMessage` on export) are required, as the official schemas and the reference say: a body without them is a 400 naming the field', async () => {
    // Both documents require them (the reference: `ref` req, `commitMessage` req); when either stops
    // doing so, this fails, and a missing ref should then take the remote's default branch.
    expect(resolveOfficial({ $ref: '#/components/schemas/ImportGitRepository' }).required).toEqual(['url', 'ref'])
    expect(resolveOfficial({ $ref: '#/components/schemas/ExportToGitRepository' }).required).toEqual(['url', 'ref', 'commitMessage'])
    const w = await gitWorld()
    const base = `/v1/spaces/${w.space.id}/git`
    const url = git.server.url('anything')
    expect((await call(w.api, w.tokens.ada, 'POST', `${base}/import`, { url })).body.error.message).toContain('Invalid request: body field `ref`: is required')
    expect((await call(w.api, w.tokens.ada, 'POST', `${base}/export`, { url, ref: 'refs/heads/main' })).body.error.message).toContain(
      'Invalid request: body field `commitMessage`: is required',
    )
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
