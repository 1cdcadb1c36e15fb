import type { Context } from '../context.js'
import type { Job } from '../context.js'
import type { GitSyncTree } from './rows.js'
import { findRevision } from '../content/revision.js'
import { GitSyncError } from './errors.js'
import type { Signature, TreeFile } from './git-repo.js'
import { gitSyncJob, type OperationRef } from './job.js'
import { join } from './layout/paths.js'
import { readConfig } from './layout/read.js'
import { pageText, renderedSum, renderRevision } from './layout/write.js'
import { writeRedirects } from './layout/redirects.js'
import { current, succeed } from './model.js'

export interface ExportTarget {
  /** The branch; without it, the remote's default branch. */
  ref?: string
  projectDirectory?: string
  commitMessage: string
  /** The revision to write (main when the export was requested). */
  revision: string
  force: boolean
  standalone: boolean
  author: { name: string; email: string }
}

const short = (oid: string) => oid.slice(0, 7)

/**
 * Export: the branch's head fetched (its history too when a forced export goes back to the last
 * synced commit), the revision written in the Git Sync layout over the head's files (the sync's own
 * files, as its record names them, replaced or removed; every other file kept byte for byte), one commit when anything changed,
 * pushed. The branch is created when missing. Without `force`, a branch that moved since the last
 * sync is not overwritten: its changes would be lost (a non-fast-forward).
 */
export function exportJob(op: OperationRef, target: ExportTarget): Job {
  return gitSyncJob(op, async (job) => {
    const { env, repo, stage, ensureCurrent } = job
    const { ref, head, defaultBranch } = await job.branch(target.ref)
    const branch = ref.slice('refs/heads/'.length)
    // The commit the space last synced with on this repository and branch, read now (jobs run one
    // at a time per space: an export before this one may have pushed since this one was requested).
    const { commit: lastCommit, tree: lastTree } = await env.transaction((ctx) => {
      const row = current(ctx, op.space, op.operation)
      return { commit: row?.commit, tree: row?.tree }
    })
    const moved = head !== undefined && lastCommit !== undefined && head !== lastCommit
    if (moved && !target.force) {
      throw new GitSyncError(
        `the branch "${branch}" moved since the last sync (it is at ${short(head)}, the space last synced with ${short(lastCommit)}): import its changes first, or export with \`force\` to push over them (a non-fast-forward)`,
      )
    }
    // The space's last job may have left the head among the repository's objects (repo-cache.ts).
    if (head && (moved || !(await repo.has(head)))) await repo.fetchBranch(ref, { history: moved })
    // A new branch starts from the remote's default branch (its other files come along), if it has one.
    const start = head === undefined && defaultBranch !== undefined ? await repo.fetchBranch(defaultBranch).then(() => repo.resolve(defaultBranch)) : undefined
    await stage('config_check')
    // A forced export goes on from the commit the space last synced with, when the branch still has it.
    const base = moved && (await repo.has(lastCommit)) ? lastCommit : (head ?? start)
    const baseTree = base ? await repo.commitTree(base) : undefined
    const existing = baseTree ? await repo.listFiles(baseTree) : new Map<string, TreeFile>()
    const decoder = new TextDecoder()
    const config = await readConfig(
      { files: existing, text: async (path) => decoder.decode(await repo.readBlob(existing.get(path)!.oid)) },
      target.projectDirectory ?? '',
    )
    await stage('content_process')

    const rendered = await env.transaction((ctx) => {
      const space = ctx.tx.get('spaces', op.space)
      const rev = space && findRevision(ctx.tx, space, target.revision)
      if (!rev) throw new GitSyncError('the space or its revision no longer exists')
      return { ...renderRevision(ctx, rev, config.root, config, lastTree), redirects: rev.redirects }
    })
    // The sync's own files (what the last sync read or wrote as pages, assets and SUMMARY.md) are
    // replaced or removed; every other file of the branch stays as it is.
    const owned = new Set(
      [...(lastTree?.pages ?? []), ...(lastTree?.files ?? []), ...(lastTree?.reusableContents ?? [])].map((f) => f.path).concat(lastTree?.other ?? []),
    )
    const files = new Map<string, TreeFile>()
    for (const [path, file] of existing) if (!owned.has(path)) files.set(path, file)
    const encoder = new TextEncoder()
    const recorded = new Map((lastTree?.texts ?? []).map((t) => [t.path, t]))
    const texts: NonNullable<GitSyncTree['texts']> = []
    for (const [path, rendering] of rendered.text) {
      const sum = renderedSum(rendering)
      const before = existing.get(path)
      const last = recorded.get(path)
      // The content gives what it gave at the last sync, and the branch holds what it held then:
      // the file stays as it is, byte for byte (a path that had no file stays without one).
      if (last && last.sum === sum && last.oid === before?.oid) {
        if (before) files.set(path, before)
        texts.push(last)
        continue
      }
      // A file of the branch keeps its own formatting: as it is when it already says the same, else
      // rewritten in its style where its parts did not change (layout/compose.ts). Page bodies are
      // written, and compared, off the event loop (worker threads in a served API).
      const written =
        // A symbolic link is never the page's file, whatever its target says (layout/read.ts).
        before !== undefined && before.mode !== '160000' && before.mode !== '120000'
          ? await env.offload.run('gitSyncWriteBack', {
              path,
              existing: decoder.decode(await repo.readBlob(before.oid)),
              root: config.root,
              ...('summary' in rendering
                ? { summary: true as const, next: rendering.text }
                : { summary: false as const, head: rendering.head, body: rendering.body }),
            })
          : 'summary' in rendering
            ? rendering.text
            : pageText(rendering, await env.offload.run('writeGitbookMarkdown', { document: rendering.body }))
      const file = written === null ? before! : { oid: await repo.writeBlob(encoder.encode(written)), mode: '100644' }
      files.set(path, file)
      texts.push({ path, sum, oid: file.oid })
    }
    rendered.tree.texts = texts
    for (const [path, blob] of rendered.assets) {
      const bytes = env.blobs.get(blob)?.bytes
      if (!bytes) throw new GitSyncError(`the bytes of ${path} are missing from the blob store`)
      files.set(path, { oid: await repo.writeBlob(bytes), mode: '100644' })
    }
    // `.gitbook.yaml`'s redirects follow the pages' files; the file is touched only when they differ (layout/redirects.ts).
    const configPath = join(target.projectDirectory ?? '', '.gitbook.yaml')
    // (Both indexes are built only for a space with redirects or a `.gitbook.yaml`: bench (v).)
    const redirects = Object.entries(rendered.redirects ?? {})
    const fileOfPage = redirects.length ? new Map(rendered.tree.pages.map((p) => [p.page, p.path])) : undefined
    const wanted = redirects.flatMap(([source, page]) => {
      const file = fileOfPage?.get(page)
      return file === undefined ? [] : [{ source, file }]
    })
    let pageFiles: Set<string> | undefined
    const isPageFile = (path: string) => (pageFiles ??= new Set([...(lastTree?.pages ?? []), ...rendered.tree.pages].map((p) => p.path))).has(path)
    const configFile = existing.get(configPath)
    const yaml = writeRedirects(configFile && decoder.decode(await repo.readBlob(configFile.oid)), config.root, wanted, isPageFile)
    if (yaml !== undefined) files.set(configPath, { oid: await repo.writeBlob(encoder.encode(yaml)), mode: '100644' })
    await stage('finalize')
    const tree = await repo.writeFiles(files)
    let commit = base
    // Nothing changed: no empty commit.
    if (tree !== baseTree) {
      const signature: Signature = { ...target.author, timestamp: Math.floor(env.now().getTime() / 1000) }
      commit = await repo.writeCommit({ tree, parents: base ? [base] : [], message: target.commitMessage, author: signature, committer: signature })
    }
    if (commit !== head) {
      // A job whose operation was replaced meanwhile never pushes: the newer one writes newer content.
      ensureCurrent()
      await repo.push(commit!, ref, moved, head)
    }
    await env.transaction((ctx) => {
      const row = current(ctx, op.space, op.operation)
      if (row && row.operation.state === 'running')
        succeed(ctx, row, { commit: commit!, revision: target.revision, mainRevision: target.revision, tree: rendered.tree })
      else if (commit !== head) recordPush(ctx, op, { ...target, ref }, commit!, rendered.tree)
    })
  })
}

/**
 * A push that went out while a newer request replaced the operation: the branch now holds the
 * commit, so the sync stands on it (the next export compares the branch with it) though the
 * operation's outcome is not recorded. Only for the same repository, branch and folder, and not
 * for a standalone export, which never moves the sync.
 */
function recordPush(ctx: Context, op: OperationRef, target: ExportTarget & { ref: string }, commit: string, tree: GitSyncTree): void {
  const row = ctx.tx.get('gitSyncs', op.space)
  if (!row || target.standalone || row.url !== op.remote.url || row.ref !== target.ref || row.projectDirectory !== target.projectDirectory) return
  ctx.tx.update('gitSyncs', { ...row, commit, revision: target.revision, tree })
}
