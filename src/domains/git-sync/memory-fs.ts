/**
 * An in-memory file system with the promise API isomorphic-git asks of an `fs` (readFile,
 * writeFile, mkdir, rmdir, unlink, stat, lstat, readdir, readlink, symlink), on web standards
 * only. Each Git Sync job gets its own; a small one may be kept for the space's next job (repo-cache.ts).
 *
 * Why not memfs: it implements Node's whole `fs` on top of Node's `buffer`, `path`, `events` and
 * `stream` modules, so bundling it into the runtime-neutral library would pull Node built-ins (or
 * polyfills) in. isomorphic-git's own LightningFS needs IndexedDB. A git directory needs files and
 * folders, nothing more: a map of paths is enough.
 *
 * Bytes are not copied in or out: a repository's pack is as large as the repository, and each copy
 * of it counted (an import of a 30 MiB asset held three while storing it: test/domains/git-sync/import-memory.test.ts). A file keeps the bytes
 * written (isomorphic-git writes a buffer and never changes it after), and a read answers the
 * file's ArrayBuffer, which isomorphic-git wraps in a Buffer without copying (its `read` makes a
 * Buffer of what `readFile` answers: a copy of a Uint8Array, a view of an ArrayBuffer) and only
 * reads. So the pack it keeps in its cache for the job is the file itself, not a second pack.
 */

interface Node {
  readonly kind: 'file' | 'dir' | 'symlink'
  /** A file's bytes: the whole of their ArrayBuffer (readFile answers it). */
  data?: Uint8Array<ArrayBuffer>
  target?: string
  mtimeMs: number
  readonly ino: number
}

class FsError extends Error {
  readonly code: 'ENOENT' | 'EEXIST' | 'ENOTDIR' | 'ENOTEMPTY' | 'EISDIR'
  private constructor(code: FsError['code'], path: string) {
    super(`${code}: ${path}`)
    this.code = code
  }

  /**
   * Without a stack: isomorphic-git asks for paths that are not there all the time (a loose
   * object before its pack), and capturing a stack for each miss was a tenth of an export's time.
   */
  static of(code: FsError['code'], path: string): FsError {
    const limit = Error.stackTraceLimit
    Error.stackTraceLimit = 0
    try {
      return new FsError(code, path)
    } finally {
      Error.stackTraceLimit = limit
    }
  }
}

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/** A path as a list of names: `/a//b/./c/` → `/a/b/c` (isomorphic-git passes absolute or relative paths alike). */
function normalize(path: string): string {
  const parts: string[] = []
  for (const part of String(path).split('/')) {
    if (part === '' || part === '.') continue
    if (part === '..') parts.pop()
    else parts.push(part)
  }
  return `/${parts.join('/')}`
}

const parentOf = (path: string): string => path.slice(0, path.lastIndexOf('/')) || '/'

function stats(node: Node) {
  const size = node.kind === 'file' ? node.data!.byteLength : node.kind === 'symlink' ? node.target!.length : 0
  const mode = node.kind === 'file' ? 0o100644 : node.kind === 'dir' ? 0o040755 : 0o120000
  return {
    type: node.kind,
    mode,
    size,
    ino: node.ino,
    mtimeMs: node.mtimeMs,
    ctimeMs: node.mtimeMs,
    uid: 1,
    gid: 1,
    dev: 1,
    isFile: () => node.kind === 'file',
    isDirectory: () => node.kind === 'dir',
    isSymbolicLink: () => node.kind === 'symlink',
  }
}

export interface MemoryFs {
  promises: {
    /** The file's text, or its bytes as the ArrayBuffer the file holds (not a copy: never change it). */
    readFile(path: string, options?: { encoding?: string } | string): Promise<ArrayBuffer | string>
    writeFile(path: string, data: Uint8Array | string, options?: unknown): Promise<void>
    mkdir(path: string, options?: unknown): Promise<void>
    rmdir(path: string, options?: unknown): Promise<void>
    unlink(path: string): Promise<void>
    stat(path: string): Promise<ReturnType<typeof stats>>
    lstat(path: string): Promise<ReturnType<typeof stats>>
    readdir(path: string): Promise<string[]>
    readlink(path: string): Promise<string>
    symlink(target: string, path: string): Promise<void>
  }
  /** The bytes its files hold (what keeping it costs). */
  bytes(): number
  /**
   * Give the memory back: every file gone, a file grown in place (a fetched pack: pack/upload-pack.ts)
   * shrunk to nothing at once (the collector does not count such memory, so it would wait). For a
   * repository no job will read again.
   */
  release(): void
}

export function createMemoryFs(): MemoryFs {
  let inodes = 0
  const nodes = new Map<string, Node>([['/', { kind: 'dir', mtimeMs: 0, ino: inodes++ }]])

  const get = (path: string): Node => {
    const node = nodes.get(path)
    if (node) return node
    // A missing parent that is a file is ENOTDIR, as on a disk.
    for (let p = parentOf(path); p !== '/'; p = parentOf(p)) if (nodes.get(p)?.kind === 'file') throw FsError.of('ENOTDIR', path)
    throw FsError.of('ENOENT', path)
  }
  const parentDir = (path: string): void => {
    const parent = nodes.get(parentOf(path))
    if (!parent) throw FsError.of('ENOENT', path)
    if (parent.kind !== 'dir') throw FsError.of('ENOTDIR', path)
  }
  const follow = (path: string): Node => {
    let node = get(path)
    for (let hops = 0; node.kind === 'symlink' && hops < 40; hops++)
      node = get(normalize(node.target!.startsWith('/') ? node.target! : `${parentOf(path)}/${node.target}`))
    return node
  }
  const children = (path: string): string[] => {
    const prefix = path === '/' ? '/' : `${path}/`
    const out: string[] = []
    for (const key of nodes.keys()) if (key !== '/' && key.startsWith(prefix) && !key.slice(prefix.length).includes('/')) out.push(key.slice(prefix.length))
    return out
  }

  return {
    release: () => {
      for (const node of nodes.values()) {
        const buffer = node.data?.buffer as (ArrayBuffer & { resizable?: boolean; resize?(n: number): void }) | undefined
        if (buffer?.resizable) buffer.resize!(0)
      }
      nodes.clear()
      nodes.set('/', { kind: 'dir', mtimeMs: 0, ino: inodes++ })
    },
    bytes: () => {
      let total = 0
      for (const node of nodes.values()) total += node.data?.byteLength ?? 0
      return total
    },
    promises: {
      async readFile(path, options) {
        const node = follow(normalize(path))
        if (node.kind === 'dir') throw FsError.of('EISDIR', path)
        const encoding = typeof options === 'string' ? options : options?.encoding
        return encoding === 'utf8' || encoding === 'utf-8' ? decoder.decode(node.data) : node.data!.buffer
      },
      async writeFile(path, data) {
        const p = normalize(path)
        parentDir(p)
        if (nodes.get(p)?.kind === 'dir') throw FsError.of('EISDIR', path)
        // Kept as written when the bytes are a whole ArrayBuffer (a pack: as large as the
        // repository); a view into a larger one (a small Buffer of Node's pool) is copied, small.
        const bytes =
          typeof data === 'string'
            ? encoder.encode(data)
            : data.byteOffset === 0 && data.byteLength === data.buffer.byteLength && data.buffer instanceof ArrayBuffer
              ? (data as Uint8Array<ArrayBuffer>)
              : new Uint8Array(data)
        nodes.set(p, { kind: 'file', data: bytes, mtimeMs: Date.now(), ino: inodes++ })
      },
      async mkdir(path) {
        const p = normalize(path)
        if (nodes.has(p)) throw FsError.of('EEXIST', path)
        parentDir(p)
        nodes.set(p, { kind: 'dir', mtimeMs: Date.now(), ino: inodes++ })
      },
      async rmdir(path) {
        const p = normalize(path)
        const node = get(p)
        if (node.kind !== 'dir') throw FsError.of('ENOTDIR', path)
        if (children(p).length > 0) throw FsError.of('ENOTEMPTY', path)
        nodes.delete(p)
      },
      async unlink(path) {
        const p = normalize(path)
        if (get(p).kind === 'dir') throw FsError.of('EISDIR', path)
        nodes.delete(p)
      },
      stat: async (path) => stats(follow(normalize(path))),
      lstat: async (path) => stats(get(normalize(path))),
      async readdir(path) {
        const p = normalize(path)
        if (get(p).kind !== 'dir') throw FsError.of('ENOTDIR', path)
        return children(p)
      },
      async readlink(path) {
        const node = get(normalize(path))
        if (node.kind !== 'symlink') throw FsError.of('ENOENT', path)
        return node.target!
      },
      async symlink(target, path) {
        const p = normalize(path)
        if (nodes.has(p)) throw FsError.of('EEXIST', path)
        parentDir(p)
        nodes.set(p, { kind: 'symlink', target, mtimeMs: Date.now(), ino: inodes++ })
      },
    },
  }
}
