import { GitSyncError } from './errors.js'
import type { GitHttpClient } from './git-http.js'
import { createMemoryFs, type MemoryFs } from './memory-fs.js'
import { receivePack } from './pack/receive-pack.js'
import { fetchPack } from './pack/upload-pack.js'
import { lazyModule } from '../../core/lazy.js'

/** The pack indexer (with pako and @noble/hashes' SHA-1), loaded when a job first fetches a branch, not when the package is imported. */
const packIndexer = lazyModule('the Git pack indexer (pako, @noble/hashes)', () => import('./pack/index-pack.js'))

/**
 * A repository in memory for one Git Sync job, through isomorphic-git: the remote's branch
 * fetched (its snapshot, or its history when an export must find an older commit), files read
 * from a commit's tree, and on export new blobs, trees and a commit written and pushed.
 *
 * isomorphic-git is loaded when a job first needs it, not with the library: it relies on a global
 * `Buffer` (Node, Bun, Deno and Workers with Node compatibility have one), so a runtime without
 * it still runs every other operation, and a Git Sync job there fails with the reason recorded.
 */
type Git = typeof import('isomorphic-git')
let loaded: Promise<Git> | undefined
const loadGit = (): Promise<Git> => (loaded ??= import('isomorphic-git').then((m) => ((m as unknown as { default?: Git }).default ?? m) as Git))

/** A file of a tree: its blob and mode. */
export interface TreeFile {
  oid: string
  mode: string
}

export interface Signature {
  name: string
  email: string
  /** Seconds since the epoch. */
  timestamp: number
}

const GITDIR = '/repo.git'

/**
 * The last tree each repository listed or wrote, with its files (GitRepo.listFiles) and the tree
 * of each of its folders ('' the root, `a/b`): writeFiles writes again only the folders on the way
 * to a file that changed, and takes every other folder's tree from here.
 */
interface Listing {
  tree: string
  files: ReadonlyMap<string, TreeFile>
  folders: ReadonlyMap<string, string>
}
const listings = new WeakMap<MemoryFs, Listing>()

/**
 * Trees the repository holds, by their entries (treeKey): writeFiles writes only the folders whose
 * entries changed (an export of one edited page of a 1,000-page repository writes two trees, not
 * all of them). Bounded per repository; kept with it (repo-cache.ts).
 */
const knownTrees = new WeakMap<MemoryFs, Map<string, string>>()
const MAX_KNOWN_TREES = 10_000
/** isomorphic-git's cache of each repository (GitRepo.cache). */
const gitCaches = new WeakMap<MemoryFs, object>()
type TreeEntry = { mode: string; path: string; oid: string; type: 'blob' | 'tree' | 'commit' }
const treeKey = (entries: readonly TreeEntry[]): string =>
  entries
    .map((e) => `${e.mode} ${e.path}\0${e.oid}`)
    .sort()
    .join('\n')

export class GitRepo {
  private constructor(
    private readonly git: Git,
    private readonly fs: MemoryFs,
    private readonly http: GitHttpClient,
    readonly url: string,
  ) {}

  /** A repository over `http`: a new one, or `kept`, one an earlier job of the space opened for the same remote (repo-cache.ts). */
  static async open(http: GitHttpClient, url: string, kept?: MemoryFs): Promise<GitRepo> {
    const git = await loadGit()
    if (kept) return new GitRepo(git, kept, http, url)
    const fs = createMemoryFs()
    await git.init({ fs, gitdir: GITDIR, bare: true, defaultBranch: 'main' })
    // A fetch records the remote's refs under refs/remotes/origin: it needs the remote configured.
    await git.addRemote({ fs, gitdir: GITDIR, remote: 'origin', url })
    return new GitRepo(git, fs, http, url)
  }

  /** Its object store, to keep for the space's next job. */
  get store(): MemoryFs {
    return this.fs
  }

  /**
   * isomorphic-git's cache of parsed pack indexes and loaded packfiles, kept with the repository
   * (repo-cache.ts keeps it between a space's jobs): without it every object read loads the
   * packfile again (a copy of it, twice), so reading a repository cost its objects times its pack
   * (a real docs repository did not import in time: bench/README.md); kept, an export after an
   * import does not parse the pack's index again. The pack itself is the file system's bytes, not a copy.
   */
  private get cache(): object {
    let cache = gitCaches.get(this.fs)
    if (!cache) gitCaches.set(this.fs, (cache = {}))
    return cache
  }

  private get base() {
    return { fs: this.fs, gitdir: GITDIR, cache: this.cache }
  }

  /**
   * The branch to sync with (`ref`, or when none is asked the remote's own default branch:
   * undefined when it names none), the commit it points at (undefined when the remote has no such
   * branch), and where a new branch starts from (the default branch, else the remote's first one).
   * The default branch is the one the remote's HEAD names (its `symref`), else, from a server that
   * does not say it, the branch HEAD's commit is (`main`, then `master` among several), as
   * `git clone` guesses it.
   */
  async remoteRefs(ref?: string): Promise<{ ref?: string; head?: string; defaultBranch?: string }> {
    const info = await this.git.getRemoteInfo2({ http: this.http, url: this.url, protocolVersion: 1 })
    const refs = info.refs ?? []
    this.advertised = { refs: new Map(refs.map((r) => [r.ref, r.oid])), capabilities: new Set(Object.keys(info.capabilities ?? {})) }
    const branches = refs.filter((r) => r.ref.startsWith('refs/heads/'))
    const remoteHead = refs.find((r) => r.ref === 'HEAD')
    const symref = remoteHead?.target
    const sameCommit = branches.filter((r) => r.oid === remoteHead?.oid).map((r) => r.ref)
    const announced =
      symref?.startsWith('refs/heads/') && branches.some((r) => r.ref === symref)
        ? symref
        : (['refs/heads/main', 'refs/heads/master'].find((b) => sameCommit.includes(b)) ?? sameCommit[0])
    const wanted = ref ?? announced
    const head = wanted !== undefined ? branches.find((r) => r.ref === wanted)?.oid : undefined
    const defaultBranch = announced ?? branches[0]?.ref
    return { ...(wanted !== undefined && { ref: wanted }), ...(head !== undefined && { head }), ...(defaultBranch !== undefined && { defaultBranch }) }
  }

  /** The packs this job fetched, with where their whole objects are: readBlob reads a blob of them into one buffer of its size. */
  private readonly fetched: Array<{ pack: Uint8Array; whole: Map<string, { start: number; size: number }> }> = []

  /** What the remote's upload-pack advertised (remoteRefs): its branches' commits and its capabilities. */
  private advertised: { refs: Map<string, string>; capabilities: Set<string> } | undefined

  /**
   * Fetch a branch: its last commit only (`depth` 1), or its whole history. The last commit comes
   * through Git Sync's own upload-pack request and indexer (pack/upload-pack.ts, pack/index-pack.ts:
   * about twice the pack at most, where isomorphic-git's fetch held seven times it); the history
   * (a forced export looking for an older commit) through isomorphic-git, which negotiates what
   * the repository already has.
   */
  async fetchBranch(ref: string, options: { history?: boolean } = {}): Promise<void> {
    const branch = ref.replace(/^refs\/heads\//, '')
    const full = `refs/heads/${branch}`
    const oid = this.advertised?.refs.get(full)
    if (!options.history && oid !== undefined && this.advertised) {
      const { pack, shallow } = await fetchPack(this.http, this.url, oid, this.advertised.capabilities)
      const { idx, packSha, objects, whole } = await (await packIndexer.load()).indexPack(pack)
      if (objects.get(oid) !== 'commit') throw new GitSyncError(`the remote did not send the commit ${oid.slice(0, 7)} of the branch "${branch}"`)
      const fs = this.fs.promises
      await fs.writeFile(`${GITDIR}/objects/pack/pack-${packSha}.pack`, pack)
      await fs.writeFile(`${GITDIR}/objects/pack/pack-${packSha}.idx`, idx)
      if (shallow.length > 0) {
        const known = await fs.readFile(`${GITDIR}/shallow`, 'utf8').then(
          (text) => String(text).split('\n'),
          () => [],
        )
        const lines = [...new Set([...known, ...shallow].filter((l) => /^[0-9a-f]{40}$/.test(l)))]
        await fs.writeFile(`${GITDIR}/shallow`, `${lines.join('\n')}\n`)
      }
      await this.git.writeRef({ ...this.base, ref: `refs/remotes/origin/${branch}`, value: oid, force: true })
      this.fetched.push({ pack, whole })
      return
    }
    await this.git.fetch({
      ...this.base,
      http: this.http,
      remote: 'origin',
      ref: branch,
      remoteRef: branch,
      singleBranch: true,
      tags: false,
      ...(options.history ? {} : { depth: 1 }),
    })
  }

  /** The commit a branch fetched from the remote points at. */
  async resolve(ref: string): Promise<string> {
    return this.git.resolveRef({ ...this.base, ref: `refs/remotes/origin/${ref.replace(/^refs\/heads\//, '')}` })
  }

  /** Whether the object is here (a commit fetched with the history, say). */
  async has(oid: string): Promise<boolean> {
    try {
      await this.git.readObject({ ...this.base, oid, format: 'deflated' })
      return true
    } catch {
      return false
    }
  }

  async commitTree(oid: string): Promise<string> {
    return (await this.git.readCommit({ ...this.base, oid })).commit.tree
  }

  async commitMessage(oid: string): Promise<string> {
    return (await this.git.readCommit({ ...this.base, oid })).commit.message.trim()
  }

  /**
   * Every file of a tree, by path, recursively: blobs, links and submodules (mode 160000: an export
   * writes them back as they are). The last tree listed or written is remembered with the
   * repository (kept between a space's jobs: repo-cache.ts), so an export after an import or an
   * export reads no tree of a large repository again.
   */
  async listFiles(tree: string): Promise<ReadonlyMap<string, TreeFile>> {
    const known = listings.get(this.fs)
    if (known?.tree === tree) return known.files
    const out = new Map<string, TreeFile>()
    const folders = new Map<string, string>()
    const visit = async (oid: string, folder: string): Promise<void> => {
      const { tree: entries } = await this.git.readTree({ ...this.base, oid })
      this.knowTree(entries as TreeEntry[], oid)
      folders.set(folder, oid)
      for (const entry of entries) {
        const path = folder === '' ? entry.path : `${folder}/${entry.path}`
        if (entry.type === 'tree') await visit(entry.oid, path)
        else out.set(path, { oid: entry.oid, mode: entry.mode })
      }
    }
    await visit(tree, '')
    listings.set(this.fs, { tree, files: out, folders })
    return out
  }

  /** Remember a tree the repository holds by its entries (knownTrees). */
  private knowTree(entries: readonly TreeEntry[], oid: string): void {
    let trees = knownTrees.get(this.fs)
    if (!trees) knownTrees.set(this.fs, (trees = new Map()))
    if (trees.size >= MAX_KNOWN_TREES) trees.clear()
    trees.set(treeKey(entries), oid)
  }

  async readBlob(oid: string): Promise<Uint8Array> {
    // A blob stored whole in a pack this job fetched: inflated straight into a buffer of its size
    // (isomorphic-git inflates into parts and joins them: a large asset held three times for a moment).
    for (const { pack, whole } of this.fetched) {
      const at = whole.get(oid)
      // Loaded: this pack was indexed by it.
      if (at) return packIndexer.get().readWhole(pack, at.start, at.size)
    }
    return (await this.git.readBlob({ ...this.base, oid })).blob
  }

  async writeBlob(bytes: Uint8Array): Promise<string> {
    return this.git.writeBlob({ ...this.base, blob: bytes })
  }

  /**
   * Write the trees of a set of files (path → blob), bottom up; returns the root tree. The set is
   * the caller's to give away (it becomes the repository's last listing). Against the last listing,
   * only the folders on the way to a file added, removed or changed are written; the others keep
   * their trees (an export of one page of a 1,000-page repository writes two trees and looks at no other).
   */
  async writeFiles(files: ReadonlyMap<string, TreeFile>): Promise<string> {
    const last = listings.get(this.fs)
    // Folders whose trees differ from the last listing's: every folder of a path added, removed or changed.
    const changed = new Set<string>()
    const touch = (path: string) => {
      for (let at = path.lastIndexOf('/'); at > 0; at = path.lastIndexOf('/', at - 1)) {
        const folder = path.slice(0, at)
        if (changed.has(folder)) return
        changed.add(folder)
      }
      changed.add('')
    }
    if (last) {
      for (const [path, file] of files) {
        const was = last.files.get(path)
        if (was?.oid !== file.oid || was.mode !== file.mode) touch(path)
      }
      for (const path of last.files.keys()) if (!files.has(path)) touch(path)
    }
    const unchanged = (folder: string): string | undefined => (last && !changed.has(folder) ? last.folders.get(folder) : undefined)
    interface Dir {
      files: Map<string, TreeFile>
      dirs: Map<string, Dir>
    }
    const root: Dir = { files: new Map(), dirs: new Map() }
    const dirs = new Map<string, Dir>([['', root]])
    const dirOf = (folder: string): Dir => {
      let dir = dirs.get(folder)
      if (!dir) {
        const slash = folder.lastIndexOf('/')
        const parent = dirOf(slash < 0 ? '' : folder.slice(0, slash))
        parent.dirs.set(folder.slice(slash + 1), (dir = { files: new Map(), dirs: new Map() }))
        dirs.set(folder, dir)
      }
      return dir
    }
    for (const [path, file] of files) {
      const slash = path.lastIndexOf('/')
      const folder = slash < 0 ? '' : path.slice(0, slash)
      // A file of a folder that did not change: the folder keeps its tree (write below), only its name is needed.
      if (last && !changed.has(folder)) {
        if (!dirs.has(folder)) dirOf(folder)
        continue
      }
      dirOf(folder).files.set(path.slice(slash + 1), file)
    }
    // The new listing's folders: the last one's, but those that changed (written again below, or gone).
    const folders = new Map(last?.folders)
    for (const folder of changed) folders.delete(folder)
    const write = async (dir: Dir, folder: string): Promise<string> => {
      const kept = unchanged(folder)
      if (kept !== undefined) return kept
      const tree: TreeEntry[] = []
      for (const [name, sub] of dir.dirs)
        tree.push({ mode: '040000', path: name, oid: await write(sub, folder === '' ? name : `${folder}/${name}`), type: 'tree' })
      for (const [name, file] of dir.files) tree.push({ mode: file.mode, path: name, oid: file.oid, type: file.mode === '160000' ? 'commit' : 'blob' })
      const key = treeKey(tree)
      let oid = knownTrees.get(this.fs)?.get(key)
      if (oid === undefined) {
        oid = await this.git.writeTree({ ...this.base, tree })
        this.knowTree(tree, oid)
      }
      folders.set(folder, oid)
      return oid
    }
    const tree = await write(root, '')
    listings.set(this.fs, { tree, files, folders })
    return tree
  }

  async writeCommit(commit: { tree: string; parents: string[]; message: string; author: Signature; committer: Signature }): Promise<string> {
    const sig = (s: Signature) => ({ name: s.name, email: s.email, timestamp: s.timestamp, timezoneOffset: 0 })
    return this.git.writeCommit({
      ...this.base,
      commit: { tree: commit.tree, parent: commit.parents, message: commit.message, author: sig(commit.author), committer: sig(commit.committer) },
    })
  }

  /**
   * Push a commit to a branch of the remote (`force`: even when it does not descend from the
   * remote's head). A refusal is a GitSyncError saying why in words (isomorphic-git's own text
   * lists refs), above all the branch moving between the fetch and the push.
   */
  async push(oid: string, ref: string, force: boolean, head?: string): Promise<void> {
    if (!force && head !== undefined && (await this.pushFastForward(oid, ref, head))) return
    const local = 'refs/heads/docs-content-api-export'
    const branch = ref.replace(/^refs\/heads\//, '')
    await this.git.writeRef({ ...this.base, ref: local, value: oid, force: true })
    let result: Awaited<ReturnType<Git['push']>>
    try {
      result = await this.git.push({ ...this.base, http: this.http, url: this.url, ref: local, remoteRef: ref, force })
    } catch (error) {
      const code = (error as { code?: string }).code
      if (code === 'PushRejectedError' || code === 'GitPushError') {
        const detail =
          code === 'GitPushError'
            ? ((error as { data?: { result?: { refs?: Record<string, { error?: string }> } } }).data?.result?.refs?.[ref]?.error ?? '')
            : 'not a fast-forward'
        throw pushRefused(branch, detail)
      }
      throw error
    }
    const status = result.refs?.[ref]
    if (!result.ok || (status && !status.ok)) throw pushRefused(branch, status?.error ?? result.error ?? '')
  }

  /**
   * A commit whose parent is the branch's head `head` pushed with exactly the objects it added
   * (receive-pack.ts): those of its tree not in the head's, found by reading only the folders
   * that differ. False when the remote cannot take such a push (no report-status): the caller
   * pushes the way isomorphic-git does. A branch no longer at `head` is refused, not overwritten.
   */
  private async pushFastForward(oid: string, ref: string, head: string): Promise<boolean> {
    const { commit } = await this.git.readCommit({ ...this.base, oid })
    if (commit.parent.length !== 1 || commit.parent[0] !== head) return false
    const info = await this.git.getRemoteInfo2({ http: this.http, url: this.url, forPush: true, protocolVersion: 1 })
    const capabilities = new Set(Object.keys(info.capabilities ?? {}))
    if (!capabilities.has('report-status')) return false
    const branch = ref.replace(/^refs\/heads\//, '')
    if ((info.refs ?? []).find((r) => r.ref === ref)?.oid !== head) throw pushRefused(branch, 'fetch first')
    const oids = [oid, ...(await this.treeChanges(commit.tree, await this.commitTree(head)))]
    const { packfile } = await this.git.packObjects({ ...this.base, oids })
    const report = await receivePack(this.http, this.url, { ref, old: head, next: oid, pack: packfile! }, capabilities)
    if (!report.ok) throw pushRefused(branch, report.error ?? '')
    return true
  }

  /** The trees and blobs of `tree` that `before` does not hold at the same place (both trees themselves read, and the folders that differ). */
  private async treeChanges(tree: string, before: string | undefined): Promise<string[]> {
    const out: string[] = []
    const walk = async (oid: string, old: string | undefined): Promise<void> => {
      if (oid === old) return
      out.push(oid)
      const { tree: entries } = await this.git.readTree({ ...this.base, oid })
      const previous =
        old === undefined
          ? new Map<string, TreeEntry>()
          : new Map((await this.git.readTree({ ...this.base, oid: old })).tree.map((e) => [e.path, e as TreeEntry]))
      for (const entry of entries) {
        const was = previous.get(entry.path)
        if (was?.oid === entry.oid) continue
        if (entry.type === 'tree') await walk(entry.oid, was?.type === 'tree' ? was.oid : undefined)
        // A submodule's commit lives in another repository: never sent.
        else if (entry.type === 'blob') out.push(entry.oid)
      }
    }
    await walk(tree, before)
    return out
  }
}

/**
 * The remote refused a push: the branch moved after the export read it (another push got there
 * first), or it was not a fast-forward, or a hook or protection rule said no (the remote's words).
 */
function pushRefused(branch: string, detail: string): GitSyncError {
  const reason = detail.trim()
  if (reason === '' || /failed to update ref|fetch first|non-fast-forward|not a fast-forward|stale info/i.test(reason)) {
    return new GitSyncError(
      `the remote refused the push: the branch "${branch}" moved while the export ran (another push reached it first); nothing was overwritten: import its changes, or export again`,
    )
  }
  return new GitSyncError(`the remote refused the push to the branch "${branch}": ${reason}`)
}
