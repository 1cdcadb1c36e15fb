import { chmodSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseReport } from '../../../src/domains/git-sync/pack/receive-pack.js'
import { call } from '../../helpers.js'
import { exportSpace, gitInfo, gitWorld, importRepo, type GitWorld, useGitServer } from './helpers.js'

/**
 * An export's push (git-repo.ts pushFastForward, receive-pack.ts): a commit on top of the branch's
 * head goes out with the objects it added and nothing else, as one compare-and-swap of the ref;
 * the remote's refusals (a hook, a moved branch) come back in its words.
 */
const git = useGitServer()

function files(pages: number): Record<string, string> {
  const out: Record<string, string> = { 'README.md': '# Start\n\nFirst.\n' }
  const summary = ['# Table of contents', '', '* [Start](README.md)']
  for (let n = 1; n < pages; n++) {
    out[`part-${n % 3}/page-${n}.md`] = `# Page ${n}\n\nText of page ${n}.\n`
    summary.push(`* [Page ${n}](part-${n % 3}/page-${n}.md)`)
  }
  out['SUMMARY.md'] = `${summary.join('\n')}\n`
  return out
}

async function editPage(w: GitWorld, path: string, markdown: string) {
  const page = (await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${w.space.id}/content/path/${path}`)).body
  const base = `/v1/spaces/${w.space.id}/change-requests`
  const cr = (await call(w.api, w.tokens.ada, 'POST', base, { subject: 'Edit' })).body
  await call(w.api, w.tokens.ada, 'POST', `${base}/${cr.id}/content?compat=false`, {
    changes: [{ operation: 'update_page', page: page.id, document: { markdown } }],
  })
  expect((await call(w.api, w.tokens.ada, 'POST', `${base}/${cr.id}/merge`)).status).toBe(200)
}

/** Loose objects of a bare repository (receive-pack unpacks a small pack into loose objects). */
const looseObjects = (repo: string) => Number(/^count: (\d+)$/m.exec(git.server.git(repo, 'count-objects', '-v'))![1])

describe('an export pushes', () => {
  it('the objects its commit added and nothing more: the commit, the trees on the way to the file, the file', async () => {
    const w = await gitWorld()
    git.server.createRepo('few', files(12))
    git.server.git('few', 'repack', '-a', '-d', '-q')
    const body = { url: git.server.url('few'), ref: 'refs/heads/main' }
    await importRepo(w, body)
    const before = looseObjects('few')
    const head = git.server.git('few', 'rev-parse', 'main').trim()
    await editPage(w, 'page-4', 'A new body.')
    expect((await exportSpace(w, { ...body, commitMessage: 'Edit' })).status).toBe(204)
    expect((await gitInfo(w)).body.operation.state).toBe('success')
    // One commit on top of the head, changing page-4's file only.
    expect(git.server.git('few', 'rev-parse', 'main^').trim()).toBe(head)
    expect(git.server.git('few', 'diff', '--name-only', 'main^', 'main').trim()).toBe('part-1/page-4.md')
    expect(git.server.git('few', 'show', 'main:part-1/page-4.md')).toBe('# Page 4\n\nA new body.\n')
    // Four objects came: the commit, the root tree, part-1's tree, the page's blob.
    expect(looseObjects('few') - before).toBe(4)
    expect(git.server.git('few', 'fsck', '--strict', '--no-progress')).toBe('')
  })

  it('a new folder whole, and a second export on top of the first', async () => {
    const w = await gitWorld()
    git.server.createRepo('grow', files(4))
    const body = { url: git.server.url('grow'), ref: 'refs/heads/main' }
    await importRepo(w, body)
    const base = `/v1/spaces/${w.space.id}/change-requests`
    const cr = (await call(w.api, w.tokens.ada, 'POST', base, { subject: 'New' })).body
    await call(w.api, w.tokens.ada, 'POST', `${base}/${cr.id}/content?compat=false`, {
      changes: [
        { operation: 'insert_page', title: 'Topic', ref: 'topic', document: { markdown: 'About.' } },
        { operation: 'insert_page', title: 'Detail', into: 'topic', document: { markdown: 'More.' } },
      ],
    })
    await call(w.api, w.tokens.ada, 'POST', `${base}/${cr.id}/merge`)
    await exportSpace(w, { ...body, commitMessage: 'New' })
    expect((await gitInfo(w)).body.operation.state).toBe('success')
    expect(git.server.git('grow', 'show', 'main:topic/detail.md')).toBe('# Detail\n\nMore.\n')
    await editPage(w, 'topic/detail', 'Changed.')
    await exportSpace(w, { ...body, commitMessage: 'Again' })
    expect((await gitInfo(w)).body.operation.state).toBe('success')
    expect(git.server.git('grow', 'log', '--format=%s', 'main').trim().split('\n').slice(0, 2)).toEqual(['Again', 'New'])
    expect(git.server.git('grow', 'fsck', '--strict', '--no-progress')).toBe('')
  })

  it('and a refusal by the remote (a hook) fails the operation in the remote words, the branch unchanged', async () => {
    const w = await gitWorld()
    const bare = git.server.createRepo('hooked', files(4))
    const body = { url: git.server.url('hooked'), ref: 'refs/heads/main' }
    await importRepo(w, body)
    const hook = join(bare, 'hooks', 'pre-receive')
    writeFileSync(hook, '#!/bin/sh\necho "main is protected" >&2\nexit 1\n')
    chmodSync(hook, 0o755)
    const head = git.server.git('hooked', 'rev-parse', 'main').trim()
    await editPage(w, 'page-1', 'Refused.')
    await exportSpace(w, { ...body, commitMessage: 'Edit' })
    const op = (await gitInfo(w)).body.operation
    expect(op.state).toBe('failure')
    expect(op.error).toMatch(/the remote refused the push to the branch "main": pre-receive hook declined/)
    expect(git.server.git('hooked', 'rev-parse', 'main').trim()).toBe(head)
  })
})

describe('the push report', () => {
  const pkt = (s: string) => `${(Buffer.byteLength(s) + 4).toString(16).padStart(4, '0')}${s}`
  const band = (n: number, s: string) => pkt(`${String.fromCharCode(n)}${s}`)
  const bytes = (s: string) => new TextEncoder().encode(s)

  it('reads report-status plain or in band 1 of a side band, a refusal with its reason', () => {
    expect(parseReport(bytes(`${pkt('unpack ok\n')}${pkt('ok refs/heads/main\n')}0000`), false)).toEqual({ ok: true })
    const inner = `${pkt('unpack ok\n')}${pkt('ng refs/heads/main fetch first\n')}0000`
    expect(parseReport(bytes(`${band(2, 'remote: working\n')}${band(1, inner)}0000`), true)).toEqual({ ok: false, error: 'fetch first' })
    expect(parseReport(bytes(`${pkt('unpack index-pack abnormal exit\n')}0000`), false)).toEqual({ ok: false, error: 'index-pack abnormal exit' })
    expect(parseReport(bytes(`${band(3, 'disk full\n')}0000`), true)).toEqual({ ok: false, error: 'disk full' })
    expect(parseReport(bytes('0000'), false)).toEqual({ ok: false, error: 'the remote sent no report of the push' })
    expect(() => parseReport(bytes('00zz'), false)).toThrow(/malformed pkt-line/)
  })
})
