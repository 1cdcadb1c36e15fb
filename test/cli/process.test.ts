import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type AddressInfo, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { build } from 'esbuild'
import { afterEach, describe, expect, it } from 'vitest'

/** The command line in a child process, as a person runs it (src/cli/bin.ts through tsx). */

const root = resolve(import.meta.dirname, '../..')
const bin = join(root, 'src/cli/bin.ts')
const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version

const children: ChildProcess[] = []
const servers: Server[] = []
afterEach(async () => {
  // Each child leads its own process group: a failed test kills npm's children (the server) too.
  for (const child of children.splice(0)) {
    try {
      process.kill(-child.pid!, 'SIGKILL')
    } catch {
      // The group is gone already.
    }
  }
  for (const server of servers.splice(0)) await new Promise((done) => server.close(done))
})

/** Spawn `command args` in the repository; its output as it comes, and its exit. */
function start(command: string, args: string[], env: Record<string, string> = {}) {
  const proc = spawn(command, args, { cwd: root, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } })
  children.push(proc)
  let out = ''
  let err = ''
  proc.stdout!.on('data', (chunk) => (out += chunk))
  proc.stderr!.on('data', (chunk) => (err += chunk))
  // Once every process writing to the pipes is gone (npm's child too), with the exit code of `proc`.
  const closed = (stream: NodeJS.ReadableStream) => new Promise((done) => stream.once('close', done))
  const ended = Promise.all([new Promise<number | null>((done) => proc.once('exit', (code) => done(code))), closed(proc.stdout!), closed(proc.stderr!)]).then(
    ([code]) => ({ code, out, err }),
  )
  /** Resolves once stdout holds `text`. */
  const printed = (text: string) =>
    new Promise<string>((done, fail) => {
      const check = () => {
        if (!out.includes(text)) return
        proc.stdout!.off('data', check)
        done(out)
      }
      proc.stdout!.on('data', check)
      check()
      void ended.then(() => fail(new Error(`exited before printing ${JSON.stringify(text)}:\n${out}\n${err}`)))
    })
  return { proc, ended, printed, out: () => out }
}

const cli = (args: string[], env: Record<string, string> = {}) => start(process.execPath, ['--import', 'tsx', bin, ...args], env)

describe('cli: the command in a child process', () => {
  it('a port in use says so and suggests --port 0', async () => {
    const taken = createServer()
    servers.push(taken)
    await new Promise<void>((done) => taken.listen(0, '127.0.0.1', done))
    const { port } = taken.address() as AddressInfo
    const { code, err } = await cli(['serve', '--port', String(port)]).ended
    expect(err).toBe(
      `docs-content-api: port ${port} is in use (on 127.0.0.1): stop what listens there, or pick another with --port <n> (--port 0: a free one)\n`,
    )
    expect(code).toBe(1)
  }, 120_000)

  it('an unknown option names the closest one and prints the help; --version prints the version', async () => {
    const typo = await cli(['serve', '--prot', '4000']).ended
    expect(typo.code).toBe(2)
    expect(typo.err).toMatch(/^docs-content-api: unknown option --prot; did you mean --port\?\n\nUsage: docs-content-api <command>/)
    const far = await cli(['serve', '--frobnicate']).ended
    expect(far.err).toMatch(/^docs-content-api: unknown option --frobnicate\n\nUsage:/)
    const shown = await cli(['--version']).ended
    expect(shown).toMatchObject({ code: 0, out: `${version}\n`, err: '' })
  }, 120_000)

  it('--version from the built command too (dist/cli.js: one folder below package.json, as tsup lays it out)', async () => {
    // A bundle as tsup makes it, in a folder of its own at the top of the repository (dist/ may hold a build of another tree).
    const dist = mkdtempSync(join(root, '.tmp-dist-'))
    try {
      await build({
        entryPoints: [bin],
        bundle: true,
        platform: 'node',
        format: 'esm',
        packages: 'external',
        outfile: join(dist, 'cli.js'),
        logLevel: 'silent',
      })
      const shown = await start(process.execPath, [join(dist, 'cli.js'), '--version']).ended
      expect(shown).toMatchObject({ code: 0, out: `${version}\n`, err: '' })
    } finally {
      rmSync(dist, { recursive: true, force: true })
    }
  }, 120_000)

  it('--data naming a file says it is not a directory', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'cli-proc-')), 'state.json')
    writeFileSync(file, '{}')
    const { code, err } = await cli(['serve', '--port', '0', '--data', file]).ended
    expect(err).toBe(`docs-content-api: --data ${file}: ${file} is a file, not a directory\n`)
    expect(code).toBe(1)
  }, 120_000)

  it('SIGTERM closes the server and exits 0; a request line is logged before', async () => {
    const server = cli(['serve', '--port', '0'])
    const banner = await server.printed('Ctrl+C to stop.')
    const url = /^docs-content-api on (\S+)/.exec(banner)![1]!
    expect((await fetch(`${url}/v1/orgs`)).status).toBe(401)
    await server.printed('GET /v1/orgs 401')
    server.proc.kill('SIGTERM')
    const { code, out } = await server.ended
    expect(out).toContain('\nSIGTERM: closing the server\n')
    expect(code).toBe(0)
  }, 120_000)

  it('npm start: a SIGTERM to npm closes the server (npm passes it to a shell that does not pass it on)', async () => {
    const npm = start('npm', ['start', '--', '--port', '0', '--quiet'])
    const banner = await npm.printed('Ctrl+C to stop.')
    const url = /^docs-content-api on (\S+)/m.exec(banner)![1]!
    npm.proc.kill('SIGTERM')
    // The pipes close once the server's process is gone too.
    const { out } = await npm.ended
    expect(out).toContain('SIGTERM (npm stopped): closing the server')
    await expect(fetch(`${url}/v1/orgs`)).rejects.toThrow()
  }, 120_000)
})
