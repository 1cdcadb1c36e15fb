import { afterAll, beforeAll } from 'vitest'
import { call, createWorld, type World } from '../../helpers.js'
import { startGitServer, type GitServer } from './git-server.js'

/** Credentials the test server requires: they must reach it, and appear nowhere else. */
export const USER = 'alice-sync-user'
export const PASSWORD = 'pw-9f2c-secret-token'

/** A Git server for the file's tests, started on a free port before them and stopped after. */
export function useGitServer(): { readonly server: GitServer } {
  const holder = {} as { server: GitServer }
  beforeAll(async () => {
    holder.server = await startGitServer({ auth: { user: USER, password: PASSWORD } })
  })
  afterAll(async () => {
    await holder.server?.close()
  })
  return holder
}

/** A world whose API may reach the loopback server, with a space to sync. */
export async function gitWorld() {
  const w = await createWorld({ allowPrivateNetwork: true })
  const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Docs' })
  return { ...w, space }
}

export type GitWorld = Awaited<ReturnType<typeof gitWorld>>

/** Start an import and wait for its job. */
export async function importRepo(w: World & { space: { id: string } }, body: Record<string, unknown>, token = w.tokens.ada) {
  const res = await call(w.api, token, 'POST', `/v1/spaces/${w.space.id}/git/import`, body)
  await w.api.idle()
  return res
}

export async function exportSpace(w: World & { space: { id: string } }, body: Record<string, unknown>, token = w.tokens.ada) {
  const res = await call(w.api, token, 'POST', `/v1/spaces/${w.space.id}/git/export`, body)
  await w.api.idle()
  return res
}

export const gitInfo = (w: World & { space: { id: string } }, token = w.tokens.ada) => call(w.api, token, 'GET', `/v1/spaces/${w.space.id}/git/info`)

/** The pages of main as `path: title` lines, depth first. */
export async function pageLines(w: World, spaceId: string): Promise<string[]> {
  const res = await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${spaceId}/content/pages`)
  const out: string[] = []
  const visit = (pages: Array<{ path: string; title: string; type: string; pages: unknown[] }>) => {
    for (const p of pages) {
      out.push(`${p.path}: ${p.title}${p.type === 'group' ? ' (group)' : ''}`)
      visit(p.pages as never)
    }
  }
  visit(res.body.pages)
  return out
}

/** A page's body as markdown, by path. */
export async function pageMarkdown(w: World, spaceId: string, path: string): Promise<string> {
  const res = await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${spaceId}/content/path/${path}?format=markdown`)
  if (res.status !== 200) throw new Error(`no page ${path}: ${res.status}`)
  return res.body.markdown
}
