import { startGitServer, type GitServer } from '../test/domains/git-sync/git-server.js'
import { createDocsApi, type DocsApi } from '../src/index.js'
import { compare, type StagedOp } from './harness.js'
import type { Result } from './measures.js'
import { BASE } from './world.js'

/**
 * The Git Sync measures (issue 21): a repository in GitBook's layout served by `git http-backend`
 * on 127.0.0.1 (test/domains/git-sync/git-server.ts), pages in folders of 100 listed by SUMMARY.md,
 * written in several styles (frontmatter, an HTML comment before the title, `*` lists, an aligned
 * table, `__bold__`). CPU time of this process per operation, an operation being the request and
 * its job (`api.idle()`); the git server runs in a process of its own, its work not counted (it
 * stands for GitHub: spawning `git http-backend` in this process once cost a third of a small export).
 *
 * (u) `git-export-unchanged`: on one space synced with a repository of 1,000 pages, an import of
 * the branch and an export back to it with nothing changed (which writes nothing), alternating;
 * the result is the export's cost over the import's.
 * (v) `git-export-edit`: two spaces synced with repositories of 10 and of 1,000 pages; per
 * operation, untimed, one page's body edited through a merged change request; timed, the export
 * (one commit changing that page's file); the result is the cost at 1,000 pages over that at 10.
 */

function pageText(n: number): string {
  const styles = [
    `---\ndescription: Page ${n}\n---\n\n<!-- AUTOMATICALLY GENERATED, DO NOT MODIFY -->\n\n# Page ${n}\n\nThis is page ${n}, about __topic ${n}__.\n\n* first\n* second\n    * nested\n`,
    `# Page ${n}\n\n| Name | Value |\n|:-----|------:|\n| a    |     1 |\n| b    |     2 |\n\nSee [the start](../README.md).\n`,
    `# Page ${n}\n\n#### Details\n\nText with _emphasis_ and \`code\`.\n\n~~~js\nconsole.log(${n})\n~~~\n`,
  ]
  return `${styles[n % styles.length]}\nClosing paragraph ${n}: some more words, so that the page reads like a short page of documentation.\n`
}

function repoFiles(pages: number): Record<string, string> {
  const files: Record<string, string> = { 'README.md': '# Start\n\nThe first page.\n' }
  const summary = ['# Table of contents', '', '* [Start](README.md)']
  for (let n = 1; n < pages; n++) {
    const path = `section-${Math.floor(n / 100)}/page-${n}.md`
    files[path] = pageText(n)
    summary.push(`* [Page ${n}](${path})`)
  }
  files['SUMMARY.md'] = `${summary.join('\n')}\n`
  return files
}

/** CPU milliseconds per operation, from operations per CPU second. */
const perOp = (rate: number) => `${(1000 / rate).toFixed(0)} ms`

interface SyncedSpace {
  api: DocsApi
  token: string
  space: string
  body: { url: string; ref: string }
  /** Page ids of the space, the readme left out. */
  pages: string[]
}

async function call(s: SyncedSpace, method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await s.api.fetch(
    new Request(`${BASE}/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    }),
  )
  const text = await res.text()
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`)
  return text ? JSON.parse(text) : undefined
}

async function sync(s: SyncedSpace, direction: 'import' | 'export'): Promise<void> {
  await call(s, 'POST', `/spaces/${s.space}/git/${direction}`, direction === 'export' ? { ...s.body, commitMessage: 'Bench' } : s.body)
  await s.api.idle()
  const info = (await call(s, 'GET', `/spaces/${s.space}/git/info`)) as { operation: { state: string; error?: string } }
  if (info.operation.state !== 'success') throw new Error(`git ${direction}: ${info.operation.state} ${info.operation.error ?? ''}`)
}

async function syncedSpace(server: GitServer, pages: number): Promise<SyncedSpace> {
  const name = `bench-${pages}-${Math.random().toString(36).slice(2)}`
  server.createRepo(name, repoFiles(pages))
  const api = createDocsApi({ baseUrl: BASE, allowPrivateNetwork: true })
  const user = await api.fixtures.createUser({ displayName: 'Bench', email: 'bench@bench.test' })
  const token = await api.fixtures.createToken(user.id)
  const org = await api.fixtures.createOrganization({ title: 'Bench', members: [{ user: user.id, role: 'admin' }] })
  const space = await api.fixtures.createSpace(org.id, { title: 'Docs' })
  const s: SyncedSpace = { api, token, space: space.id, body: { url: server.url(name), ref: 'refs/heads/main' }, pages: [] }
  await sync(s, 'import')
  const tree = (await call(s, 'GET', `/spaces/${s.space}/content/pages`)) as { pages: Array<{ id: string }> }
  s.pages = tree.pages.slice(1).map((p) => p.id)
  if (s.pages.length !== pages - 1) throw new Error(`the import made ${s.pages.length + 1} pages, not ${pages}`)
  return s
}

export async function gitExportUnchangedMeasure(): Promise<Result> {
  const server = await startGitServer({ childProcess: true })
  try {
    const s = await syncedSpace(server, 1_000)
    const head = () =>
      server
        .git(
          s.body.url
            .split('/')
            .pop()!
            .replace(/\.git$/, ''),
          'rev-parse',
          'main',
        )
        .trim()
    const before = head()
    const { rates, ratio } = await compare({ import: () => sync(s, 'import'), export: () => sync(s, 'export') }, { warmup: 1, perRound: 1, rounds: 7 })
    if (head() !== before) throw new Error('an unchanged export wrote a commit')
    // Cost is time per operation: the export's over the import's is the import's rate over the export's.
    return {
      api: `${perOp(rates.export!)} an export`,
      reference: `${perOp(rates.import!)} an import`,
      value: ratio,
      shown: ratio.toFixed(2),
      met: ratio <= 1.2,
    }
  } finally {
    await server.close()
  }
}

/** One page's body edited through a merged change request (untimed), then the export (timed). */
function editThenExport(s: SyncedSpace): StagedOp {
  return {
    prepare: async (i) => {
      const page = s.pages[(i * 7) % s.pages.length]!
      const cr = (await call(s, 'POST', `/spaces/${s.space}/change-requests`, { subject: `Edit ${i}` })) as { id: string }
      await call(s, 'POST', `/spaces/${s.space}/change-requests/${cr.id}/content?compat=false`, {
        changes: [{ operation: 'update_page', page, document: { markdown: `Edited ${i}.\n\nA new body for this page.\n` } }],
      })
      await call(s, 'POST', `/spaces/${s.space}/change-requests/${cr.id}/merge`)
    },
    run: () => sync(s, 'export'),
  }
}

export async function gitExportEditMeasure(): Promise<Result> {
  const server = await startGitServer({ childProcess: true })
  try {
    const small = await syncedSpace(server, 10)
    const large = await syncedSpace(server, 1_000)
    const { rates, ratio } = await compare({ small: editThenExport(small), large: editThenExport(large) }, { warmup: 2, perRound: 2, rounds: 9 })
    return {
      api: `${perOp(rates.large!)} @1k`,
      reference: `${perOp(rates.small!)} @10`,
      value: ratio,
      shown: ratio.toFixed(2),
      met: ratio <= 1.5,
    }
  } finally {
    await server.close()
  }
}
