import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { createDemoState } from '../demo.js'
import type { StateDocumentInput } from '../domains/seed-input.js'
import { SqliteUnavailableError } from '../sqlite/driver.js'
import { SqliteFormatError } from '../sqlite/layout.js'
import { StorageError } from '../storage/errors.js'
import { SeedOverDataError, serve, ServeError, type RunningServer } from './serve.js'

/**
 * The command line: `docs-content-api serve [--port 4000] [--host 127.0.0.1] [--seed state.json]
 * [--data dir | --database postgres://... [--blobs dir]] [--cors] [--base-url URL] [--admin-token T] [--allow-private-network] [--log text|json | --quiet] [--journal]
 * [--no-admin] [--admin-api-token T]`,
 * `docs-content-api demo-seed [--admin-token T]` (the demo data as a state document, to edit and serve
 * with --seed), and `--version`. Node-only (the package's `bin`); it needs no dev dependency (`--data`
 * needs the optional peer better-sqlite3, `--database` the optional peer pg, each loaded only then).
 */

const HELP = `Usage: docs-content-api <command> [options]

Commands:
  serve        Serve the API over HTTP (in memory, in a data directory, or in PostgreSQL
               shared by several processes), with the demo data or a seed
  demo-seed    Print the demo data as a state document (JSON), to edit and pass to --seed
  pull         Read an organization through the official API (GitBook's, or another
               docs-content-api) and print it as a state document, to pass to --seed

Options of serve:
  --port <n>       Port to listen on (0: a free one)          [default: 4000, or $PORT]
  --host <host>    Interface to listen on                     [default: 127.0.0.1, or $HOST]
  --seed <file>    A state document (what api.dump() writes)  [default: the demo data]
  --data <dir>     Keep the state in <dir> (SQLite and files; needs better-sqlite3),
                   found there again after a restart; the seed goes in only when
                   <dir> holds nothing yet                    [default: in memory]
  --database <url> Keep the state in PostgreSQL (postgres://user:pass@host:port/db;
                   needs pg), shared by every process started on the same
                   database: run several behind one address. The seed goes in
                   only when the database holds nothing yet   [default: in memory]
  --blobs <dir>    With --database: the directory of the files' bytes, shared by
                   every process on the database      [default: ./docs-content-api-blobs]
  --cors           Answer cross-origin requests (browsers)
  --base-url <url> Base URL in resource URLs (absolute, http or https)
                                                              [default: http://localhost:<port>]
  --admin-token <t> The demo admin's token: with the demo data only (not with
                   --seed, nor a data directory or database that already holds data)
                                                              [default: random, or $DEMO_TOKEN]
  --allow-private-network
                   Let files by URL, OpenAPI spec URLs and Git Sync reach private
                   and loopback addresses (a server on this machine or network);
                   otherwise every host name is resolved and refused when one of
                   its addresses is not public
                                        [or $DOCS_CONTENT_API_ALLOW_PRIVATE_NETWORK=1]
  --no-admin       Do not serve the control plane (/_admin/: reset, snapshots,
                   state, journal, faults; see docs/guide/control-plane.md)
  --admin-api-token <t>
                   The control plane's admin token (16+ characters)
                              [default: random, or $DOCS_CONTENT_API_ADMIN_TOKEN]
  --clock <iso|now> A clock that stands still at that date-time until the control
                   plane sets or advances it (/_admin/clock)  [default: the real time]
  --journal        Keep the request journal (the last 1000 requests and their
                   bodies: GET /_admin/journal); off, it keeps nothing, which
                   spares memory under load
  --log <format>   A line per request on stdout: text, or json (JSON lines)
                                                              [default: text]
  --quiet          No line per request

Options of demo-seed:
  --admin-token <t> The demo admin's token in the printed state [default: random, or $DEMO_TOKEN]

Options of pull (progress, warnings and the new token on stderr):
  --endpoint <url> The API to read (e.g. https://api.gitbook.com)   [required]
  --token <token>  A token of a member of the organization           [required]
  --org <id>       The organization to read   [default: the token's only one]

  -h, --help       This help
  -v, --version    The version
`

export interface CliIo {
  out(text: string): void
  err(text: string): void
  env: Record<string, string | undefined>
}

/** Thrown for a usage mistake: printed with the help, exit code 2. */
class UsageError extends Error {}

const OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  seed: { type: 'string' },
  data: { type: 'string' },
  database: { type: 'string' },
  blobs: { type: 'string' },
  cors: { type: 'boolean' },
  'base-url': { type: 'string' },
  'admin-token': { type: 'string' },
  'allow-private-network': { type: 'boolean' },
  'no-admin': { type: 'boolean' },
  'admin-api-token': { type: 'string' },
  clock: { type: 'string' },
  endpoint: { type: 'string' },
  token: { type: 'string' },
  org: { type: 'string' },
  log: { type: 'string' },
  quiet: { type: 'boolean' },
  journal: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const

/** Levenshtein distance: how many letters to add, remove or change to turn a into b. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const next = [i]
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
    row = next
  }
  return row[b.length]!
}

/** An unknown option, said with the known one closest to it (when one is close). */
function unknownOption(option: string): UsageError {
  const name = option.replace(/^-+/, '').split('=')[0]!
  let best: string | undefined
  let bestDistance = Infinity
  for (const known of Object.keys(OPTIONS)) {
    const d = distance(name, known)
    if (d < bestDistance) [best, bestDistance] = [known, d]
  }
  const close = best !== undefined && bestDistance <= Math.max(2, Math.floor(name.length / 3))
  return new UsageError(`unknown option ${option}${close ? `; did you mean --${best}?` : ''}`)
}

/** The package's version, from its package.json: next to src/ (run from the sources) or dist/ (the built command). */
export function packageVersion(): string {
  for (const relative of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(fileURLToPath(new URL(relative, import.meta.url)), 'utf8')) as { name?: string; version?: string }
      if (pkg.name === 'docs-content-api' && pkg.version) return pkg.version
    } catch {
      // not this one
    }
  }
  return 'unknown'
}

function baseUrlOf(value: string | undefined): string | undefined {
  if (value === undefined) return undefined
  const said = `--base-url ${value}: must be an absolute http or https URL (e.g. https://docs.example.com/api)`
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new UsageError(said)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(said)
  if (url.search || url.hash) throw new UsageError(`--base-url ${value}: must have no query or fragment`)
  return value
}

/** An environment switch: 1, true or yes is on. */
const envFlag = (value: string | undefined) => value !== undefined && /^(1|true|yes|on)$/i.test(value.trim())

function readSeed(file: string): StateDocumentInput {
  let text: string
  try {
    text = readFileSync(resolve(file), 'utf8')
  } catch (error) {
    throw new UsageError(`--seed ${file}: ${(error as Error).message}`)
  }
  try {
    return JSON.parse(text) as StateDocumentInput
  } catch (error) {
    throw new UsageError(`--seed ${file}: not JSON (${(error as Error).message})`)
  }
}

/** `--database`: a postgres:// (or postgresql://) URL. */
function databaseOf(value: string | undefined): string | undefined {
  if (value === undefined) return undefined
  let url: URL | undefined
  try {
    url = new URL(value)
  } catch {
    // said below
  }
  if (!url || (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:'))
    throw new UsageError(`--database: must be a PostgreSQL URL, postgres://user:password@host:port/database (got ${databaseLabelOf(value)})`)
  return value
}

/** A value of --database as an error may repeat it: without a password. */
function databaseLabelOf(value: string): string {
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*):[^@/]*@/i, '$1:***@')
}

function portOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined
  if (!/^[0-9]+$/.test(value) || Number(value) > 65535) throw new UsageError(`--port ${value}: must be a port number (0..65535)`)
  return Number(value)
}

/** `--clock`: `now` or an ISO 8601 date-time. */
function clockOf(value: string): string {
  if (value !== 'now' && !/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/.test(value))
    throw new UsageError(`--clock ${value}: must be now or an ISO 8601 date-time (e.g. 2026-01-01T00:00:00Z)`)
  if (Number.isNaN(new Date(value === 'now' ? Date.now() : value).getTime())) throw new UsageError(`--clock ${value}: not a date`)
  return value
}

/** The control plane's options: on unless --no-admin, with the token given (16+ characters) or a random one. */
function adminOf(off: boolean | undefined, token: string | undefined): { admin: boolean; adminApiToken?: string } {
  if (off) return { admin: false }
  if (token !== undefined && token.length < 16) throw new UsageError('--admin-api-token: must be at least 16 characters')
  return { admin: true, ...(token !== undefined && { adminApiToken: token }) }
}

/**
 * Run the command line; resolves with the running server for `serve` (the caller keeps the
 * process alive and closes it), or with an exit code.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<RunningServer | number> {
  try {
    let parsed
    try {
      parsed = parseArgs({ args: [...argv], allowPositionals: true, options: OPTIONS })
    } catch (error) {
      const option = /^Unknown option '([^']+)'/.exec((error as Error).message)?.[1]
      if ((error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option) throw unknownOption(option)
      throw error
    }
    const { values, positionals } = parsed
    if (values.version) {
      io.out(`${packageVersion()}\n`)
      return 0
    }
    const [command, ...rest] = positionals
    if (values.help || command === undefined) {
      io.out(HELP)
      return values.help ? 0 : 2
    }
    if (rest.length > 0) throw new UsageError(`unexpected argument: ${rest[0]}`)
    // Which of the two set the admin token, to name it when it is refused.
    const adminToken = values['admin-token'] ?? (io.env.DEMO_TOKEN || undefined)
    const tokenFrom = values['admin-token'] !== undefined ? '--admin-token' : 'DEMO_TOKEN'
    if (command === 'demo-seed') {
      io.out(`${JSON.stringify((await createDemoState({ adminToken })).state, null, 2)}\n`)
      return 0
    }
    if (command === 'pull') {
      if (values.endpoint === undefined) throw new UsageError('pull: --endpoint <url> is required')
      if (values.token === undefined) throw new UsageError('pull: --token <token> is required')
      if (!URL.canParse(values.endpoint)) throw new UsageError(`--endpoint ${values.endpoint}: must be a URL (e.g. https://api.gitbook.com)`)
      const { pull, PullError, PullUsageError } = await import('./pull.js')
      try {
        const { state, problem } = await pull({ endpoint: values.endpoint, token: values.token, org: values.org, log: (line) => io.err(`${line}\n`) })
        io.out(`${JSON.stringify(state, null, 2)}\n`)
        if (problem === undefined) return 0
        io.err(`docs-content-api: pull: the state was printed, but docs-content-api does not load it as it is: ${problem}\n`)
        return 1
      } catch (error) {
        if (error instanceof PullUsageError) throw new UsageError(`pull: ${error.message}`)
        if (error instanceof PullError) {
          io.err(`docs-content-api: pull: ${error.message}\n`)
          return 1
        }
        throw error
      }
    }
    if (command !== 'serve') throw new UsageError(`unknown command: ${command}`)
    if (values.log !== undefined && values.log !== 'text' && values.log !== 'json') throw new UsageError(`--log ${values.log}: must be text or json`)
    if (values.quiet && values.log !== undefined) throw new UsageError('--quiet and --log: one or the other (--quiet writes no line per request)')
    if (values.data !== undefined && values.database !== undefined)
      throw new UsageError(
        '--data and --database: one or the other (--data keeps the state in a SQLite file for one process; --database in PostgreSQL, shared by several)',
      )
    if (values.blobs !== undefined && values.database === undefined)
      throw new UsageError('--blobs: only with --database (a data directory keeps its files in <dir>/blobs)')
    const database = databaseOf(values.database)
    const seed = values.seed === undefined ? undefined : readSeed(values.seed)
    let running: RunningServer
    try {
      running = await serve({
        port: portOf(values.port ?? io.env.PORT) ?? 4000,
        host: values.host ?? io.env.HOST,
        seed,
        cors: values.cors ?? false,
        baseUrl: baseUrlOf(values['base-url']),
        adminToken,
        data: values.data,
        ...(database !== undefined && { database }),
        ...(values.blobs !== undefined && { blobs: values.blobs }),
        allowPrivateNetwork: values['allow-private-network'] ?? envFlag(io.env.DOCS_CONTENT_API_ALLOW_PRIVATE_NETWORK),
        log: values.quiet ? false : ((values.log as 'text' | 'json' | undefined) ?? 'text'),
        logTo: (line) => io.out(line),
        journal: values.journal ?? false,
        ...adminOf(values['no-admin'], values['admin-api-token'] ?? io.env.DOCS_CONTENT_API_ADMIN_TOKEN),
        ...(values.clock !== undefined && { clock: clockOf(values.clock) }),
      })
    } catch (error) {
      // The admin token refused: named as it was given (the option, or the environment variable).
      if (error instanceof SeedOverDataError && error.message.startsWith('the admin token')) {
        throw new SeedOverDataError(`${tokenFrom}${error.message.slice('the admin token'.length)}`)
      }
      throw error
    }
    io.out(`${running.banner()}\n`)
    const tokens = running.api.store.read((tx) => tx.all('tokens').length)
    if (tokens === 0) io.err('docs-content-api: warning: the state holds no token: every request will be answered 401 (add `tokens` to the seed)\n')
    return running
  } catch (error) {
    if (error instanceof UsageError || error instanceof SeedOverDataError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`docs-content-api: ${(error as Error).message}\n\n${HELP}`)
      return 2
    }
    if (error instanceof ServeError) {
      io.err(`docs-content-api: ${error.message}\n`)
      return 1
    }
    // A seed the API refuses says which row and field; a data directory that cannot be opened
    // (in use, of a newer version, not writable, full, better-sqlite3 missing) says why: that is all the user needs.
    if (
      (error as { status?: number }).status === 400 ||
      error instanceof SqliteFormatError ||
      error instanceof SqliteUnavailableError ||
      StorageError.isStorageError(error)
    ) {
      io.err(`docs-content-api: ${(error as Error).message}\n`)
      return 1
    }
    throw error
  }
}
