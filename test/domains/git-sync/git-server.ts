import { execFileSync, fork, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * A smart-HTTP Git server for tests: `git http-backend` (CGI) behind `node:http` on 127.0.0.1, on
 * a free port, serving bare repositories under a temporary folder, push (receive-pack) enabled.
 * With `auth`, every request needs that basic-auth user and password (401 otherwise), so a test
 * proves the credentials of a URL reached the server. Every Authorization header seen is kept in
 * `authorizations` and every path in `requests`.
 *
 * With `childProcess`, the HTTP side runs in a process of its own (git-server-child.ts), so that the
 * server's work (spawning `git http-backend` for every request) is not counted in this process's
 * CPU time (the benchmarks: the server stands for GitHub); `requests` and `authorizations` stay empty then.
 */
export interface GitServer {
  /** `http://127.0.0.1:<port>` */
  readonly base: string
  readonly root: string
  /** The URL of a repository (`name.git`), with the credentials when the server has them. */
  url(name: string, withAuth?: boolean): string
  /** Create a bare repository, optionally filled with `files` (and `symlinks`: path → target) in one commit on `branch`. */
  createRepo(
    name: string,
    files?: Record<string, string | Uint8Array>,
    options?: { branch?: string; message?: string; symlinks?: Record<string, string> },
  ): string
  /** Commit `files` and `symlinks` (path → target; and remove `remove`) on `branch` of a repository, as another user would. */
  commit(
    name: string,
    files: Record<string, string | Uint8Array>,
    options?: { branch?: string; message?: string; remove?: string[]; symlinks?: Record<string, string> },
  ): string
  /** Run git in a bare repository (`git log`, `git show`...) and return stdout. */
  git(name: string, ...args: string[]): string
  readonly requests: string[]
  readonly authorizations: string[]
  close(): Promise<void>
}

const GIT_ENV = {
  GIT_AUTHOR_NAME: 'Remote User',
  GIT_AUTHOR_EMAIL: 'remote@example.test',
  GIT_COMMITTER_NAME: 'Remote User',
  GIT_COMMITTER_EMAIL: 'remote@example.test',
  GIT_CONFIG_NOSYSTEM: '1',
  HOME: tmpdir(),
}

function run(cwd: string, args: string[], input?: string): string {
  return execFileSync('git', args, { cwd, env: { ...process.env, ...GIT_ENV }, input, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
}

export async function startGitServer(options: { auth?: { user: string; password: string }; childProcess?: boolean } = {}): Promise<GitServer> {
  const root = mkdtempSync(join(tmpdir(), 'git-server-'))
  const requests: string[] = []
  const authorizations: string[] = []
  let port: number
  let stop: () => Promise<void>
  if (options.childProcess) {
    const child = fork(fileURLToPath(new URL('./git-server-child.ts', import.meta.url)), [root, JSON.stringify(options.auth ?? null)], {
      execArgv: ['--import', 'tsx'],
      stdio: 'inherit',
    })
    port = await new Promise<number>((done, fail) => {
      child.once('message', (m) => done((m as { port: number }).port))
      child.once('exit', (code) => fail(new Error(`the git server process exited (${code})`)))
    })
    stop = () =>
      new Promise<void>((done) => {
        child.once('exit', () => done())
        child.kill()
      })
  } else {
    const server = createCgiServer(root, options.auth, requests, authorizations)
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
    port = (server.address() as AddressInfo).port
    stop = () =>
      new Promise<void>((done) => {
        server.closeAllConnections()
        server.close(() => done())
      })
  }
  const base = `http://127.0.0.1:${port}`
  const bare = (name: string) => join(root, `${name}.git`)

  const commit: GitServer['commit'] = (name, files, opts = {}) => {
    const branch = opts.branch ?? 'main'
    const work = mkdtempSync(join(tmpdir(), 'git-work-'))
    try {
      run(work, ['init', '-q', '-b', branch])
      run(work, ['remote', 'add', 'origin', bare(name)])
      const has = run(bare(name), ['for-each-ref', '--format=%(refname)', `refs/heads/${branch}`]).trim() !== ''
      if (has) {
        run(work, ['fetch', '-q', 'origin', branch])
        run(work, ['checkout', '-q', '-B', branch, `origin/${branch}`])
      }
      for (const path of opts.remove ?? []) rmSync(join(work, path), { recursive: true, force: true })
      for (const [path, content] of Object.entries(files)) {
        mkdirSync(dirname(join(work, path)), { recursive: true })
        writeFileSync(join(work, path), content)
      }
      for (const [path, target] of Object.entries(opts.symlinks ?? {})) {
        mkdirSync(dirname(join(work, path)), { recursive: true })
        symlinkSync(target, join(work, path))
      }
      run(work, ['add', '-A'])
      run(work, ['commit', '-q', '--allow-empty', '-m', opts.message ?? 'Remote commit'])
      run(work, ['push', '-q', 'origin', `${branch}:refs/heads/${branch}`])
      return run(work, ['rev-parse', 'HEAD']).trim()
    } finally {
      rmSync(work, { recursive: true, force: true })
    }
  }

  return {
    base,
    root,
    requests,
    authorizations,
    url: (name, withAuth = true) => {
      const auth = withAuth && options.auth ? `${encodeURIComponent(options.auth.user)}:${encodeURIComponent(options.auth.password)}@` : ''
      return `http://${auth}127.0.0.1:${port}/${name}.git`
    },
    createRepo(name, files, opts = {}) {
      mkdirSync(bare(name), { recursive: true })
      run(bare(name), ['init', '-q', '--bare', '-b', opts.branch ?? 'main'])
      run(bare(name), ['config', 'http.receivepack', 'true'])
      if (files) commit(name, files, opts)
      return bare(name)
    },
    commit,
    git: (name, ...args) => run(bare(name), args),
    close: async () => {
      await stop()
      rmSync(root, { recursive: true, force: true })
    },
  }
}

/** The HTTP side: `git http-backend` for every request, over the bare repositories under `root`. */
export function createCgiServer(
  root: string,
  auth: { user: string; password: string } | undefined,
  requests: string[] = [],
  authorizations: string[] = [],
): Server {
  const expected = auth ? `Basic ${Buffer.from(`${auth.user}:${auth.password}`).toString('base64')}` : undefined
  const options = { auth }
  const server: Server = createServer((req, res) => handle(req, res))
  function handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    requests.push(`${req.method} ${url.pathname}${url.search}`)
    if (req.headers.authorization) authorizations.push(req.headers.authorization)
    if (expected && req.headers.authorization !== expected) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="git"', 'content-type': 'text/plain' })
      res.end('authentication required')
      return
    }
    const cgi = spawn('git', ['http-backend'], {
      env: {
        ...process.env,
        ...GIT_ENV,
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        REQUEST_METHOD: req.method ?? 'GET',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        REMOTE_USER: options.auth?.user ?? 'anonymous',
        REMOTE_ADDR: '127.0.0.1',
        GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
        HTTP_CONTENT_ENCODING: String(req.headers['content-encoding'] ?? ''),
      },
    })
    req.pipe(cgi.stdin)
    const chunks: Buffer[] = []
    cgi.stdout.on('data', (c: Buffer) => chunks.push(c))
    cgi.stderr.resume()
    cgi.on('close', () => {
      const out = Buffer.concat(chunks)
      const split = out.indexOf('\r\n\r\n') >= 0 ? out.indexOf('\r\n\r\n') : out.indexOf('\n\n')
      const sep = out.indexOf('\r\n\r\n') >= 0 ? 4 : 2
      if (split < 0) {
        res.writeHead(500)
        res.end()
        return
      }
      let status = 200
      const headers: Record<string, string> = {}
      for (const line of out.subarray(0, split).toString('utf8').split(/\r?\n/)) {
        const colon = line.indexOf(':')
        if (colon < 0) continue
        const name = line.slice(0, colon).trim()
        const value = line.slice(colon + 1).trim()
        if (name.toLowerCase() === 'status') status = Number(value.split(' ')[0])
        else headers[name] = value
      }
      res.writeHead(status, headers)
      res.end(out.subarray(split + sep))
    })
  }
  return server
}
