import type { Job } from '../context.js'
import type { FileRow } from '../content/rows.js'
import { inspectFile, loadFileInspection } from '../content/file-info.js'
import { findRevision } from '../content/revision.js'
import { applyImport, type PreparedAsset } from './apply-import.js'
import { GitSyncError } from './errors.js'
import type { TreeFile } from './git-repo.js'
import { gitSyncJob, type OperationRef } from './job.js'
import { basename } from './layout/paths.js'
import { offloadedReader } from './gitbook/tasks.js'
import { readContent } from './layout/read.js'
import { current, succeed } from './model.js'
import { renderedSum, renderRevision } from './layout/write.js'

export interface ImportTarget {
  /** The branch; without it, the remote's default branch. */
  ref?: string
  projectDirectory?: string
  /** `repoCommitURL`: the commit's URL is this prefix and its id. */
  commitUrl?: string
}

const sameBytes = (a: Uint8Array | undefined, b: Uint8Array): boolean => a !== undefined && a.byteLength === b.byteLength && a.every((x, i) => x === b[i])

/**
 * Import: the branch's last commit fetched, its content read in the Git Sync layout, the assets
 * it references put in the blob port (or matched with main's files), then one transaction makes
 * the revision (apply-import.ts). The blobs put are removed again when that step fails or the
 * operation was replaced meanwhile.
 */
export function importJob(op: OperationRef, target: ImportTarget): Job {
  return gitSyncJob(op, async (job) => {
    const { env, repo, stage } = job
    const { ref, head } = await job.branch(target.ref)
    if (!head) throw new GitSyncError(`the repository has no branch "${ref.slice('refs/heads/'.length)}" (ref ${ref})`)
    // The space's last job may have left the commit among the repository's objects (repo-cache.ts).
    if (!(await repo.has(head))) await repo.fetchBranch(ref)
    await stage('config_check')
    const files = await repo.listFiles(await repo.commitTree(head))
    const decoder = new TextDecoder()
    const content = await readContent(
      {
        files,
        text: async (path) => decoder.decode(await repo.readBlob(files.get(path)!.oid)),
        // Page files are read off the event loop (worker threads in a served API).
        readMarkdown: offloadedReader((markdown, takeTitle) => env.offload.run('readGitbookMarkdown', { markdown, takeTitle })),
      },
      target.projectDirectory,
    )
    await stage('content_process')

    // Main's files, to reuse one with the same bytes instead of storing them again; and the file
    // the last sync wrote or read at each path, which stays that file (its id and name) while its bytes are the same.
    const { mainFiles, recorded } = await env.transaction((ctx) => {
      const space = ctx.tx.get('spaces', op.space)
      const main = space && findRevision(ctx.tx, space, space.revision)
      const tree = current(ctx, op.space, op.operation)?.tree
      const byPath = new Map<string, FileRow>()
      for (const { path, file } of tree?.files ?? []) {
        const row = ctx.tx.get('files', file)
        if (row?.space === op.space) byPath.set(path, row)
      }
      return { mainFiles: (main?.files ?? []).map((id) => ctx.tx.get('files', id)).filter((f): f is FileRow => f !== undefined), recorded: byPath }
    })
    const keys: string[] = []
    const release = () => keys.forEach((key) => env.blobs.delete(key))
    try {
      const assets: PreparedAsset[] = []
      if (content.assets.size > 0) await loadFileInspection()
      for (const [path, file] of content.assets as Map<string, TreeFile>) {
        const bytes = await repo.readBlob(file.oid)
        const name = basename(path)
        const mine = recorded.get(path)
        const same = (f: FileRow) => f.git?.oid === file.oid || (f.size === bytes.byteLength && sameBytes(env.blobs.get(f.blob)?.bytes, bytes))
        const reuse =
          (mine && same(mine) ? mine : undefined) ??
          mainFiles.find((f) => f.git?.oid === file.oid && f.name === name) ??
          mainFiles.find((f) => f.name === name && f.size === bytes.byteLength && sameBytes(env.blobs.get(f.blob)?.bytes, bytes))
        if (reuse) {
          assets.push({ path, oid: file.oid, name, contentType: reuse.contentType, size: reuse.size, reuse: reuse.id })
          continue
        }
        const facts = inspectFile(bytes, { name })
        // The bytes read are the store's from here on: an in-memory store keeps them, not a copy.
        const blob = env.blobs.put(bytes, facts.contentType, undefined, { owned: true })
        keys.push(blob)
        assets.push({
          path,
          oid: file.oid,
          name,
          contentType: facts.contentType,
          size: facts.size,
          blob,
          ...(facts.dimensions && { dimensions: facts.dimensions }),
        })
      }
      const message = await repo.commitMessage(head)
      await stage('finalize')
      const applied = await env.transaction((ctx) => {
        const row = current(ctx, op.space, op.operation)
        if (!row || row.operation.state !== 'running') return false
        const { revision, tree } = applyImport(ctx, row, content, assets, {
          oid: head,
          message,
          ref,
          ...(target.commitUrl !== undefined && { url: `${target.commitUrl.replace(/\/+$/, '')}/${head}` }),
        })
        // What the content now gives at each path an export writes, with the blob the branch holds
        // there: an export with no change in between keeps every file as it is (export-job.ts).
        if (!row.operation.standalone) {
          const rendered = renderRevision(ctx, revision, content.root, content.config, tree)
          tree.texts = [...rendered.text].map(([path, rendering]) => {
            const file = files.get(path)
            return { path, sum: renderedSum(rendering), ...(file && file.mode !== '160000' && { oid: file.oid }) }
          })
        }
        succeed(ctx, row, { commit: head, revision: revision.id, tree, ...(!row.operation.standalone && { mainRevision: revision.id }) })
        return true
      })
      if (!applied) release()
    } catch (error) {
      release()
      throw error
    }
  })
}
