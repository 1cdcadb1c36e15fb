import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { createDemoState } from '../demo.js'
import type { StateDocumentInput } from '../domains/seed-input.js'
import { SqliteUnavailableError } from '../sqlite/driver.js'
import { SqliteFormatError } from '../sqlite/layout.js'
import { StorageError } from '../storage/errors.js'
import { SeedOverDataError, serve, type RunningServer } from './serve.js'

/**
 * The command line: `docs-content-api serve [--port 4000] [--host 127.0.0.1] [--seed state.json]
 * [--data dir] [--cors] [--base-url URL] [--allow-private-network] [--no-admin] [--admin-api-token T]`, and `docs-content-api demo-seed` (the demo data as a state document,
 * to edit and serve with --seed). Node-only (the package's `bin`); it needs no dev dependency (`--data`
 * needs the optional peer better-sqlite3, loaded only then).
 */

const HELP = `Usage: docs-content-api <command> [options]

Commands:
  serve        Serve the API over HTTP (in memory, or kept in a data directory), with the demo data or a seed
  demo-seed    Print the demo data as a state document (JSON), to edit and pass to --seed

Options of serve:
  --port <n>       Port to listen on (0: a free one)          [default: 4000, or $PORT]
  --host <host>    Interface to listen on                     [default: 127.0.0.1, or $HOST]
  --seed <file>    A state document (what api.dump() writes)  [default: the demo data]
  --data <dir>     Keep the state in <dir> (SQLite and files; needs better-sqlite3),
                   found there again after a restart; the seed goes in only when
                   <dir> holds nothing yet                    [default: in memory]
  --cors           Answer cross-origin requests (browsers)
  --base-url <url> Base URL in resource URLs                  [default: http://localhost:<port>]
  --admin-token <t> The demo admin's token (when the demo data is loaded)
                                                               [default: random, or $DEMO_TOKEN]
  --allow-private-network
                   Let files by URL, OpenAPI spec URLs and Git Sync reach private
                   and loopback addresses (a server on this machine or network);
                   otherwise every host name is resolved and refused when one of
                   its addresses is not public
  --no-admin       Do not serve the control plane (/_admin/: reset, snapshots,
                   state, journal, faults; see docs/guide/control-plane.md)
  --admin-api-token <t>
                   The control plane's admin token (16+ characters)
                              [default: random, or $DOCS_CONTENT_API_ADMIN_TOKEN]

  -h, --help       This help
`

export interface CliIo {
  out(text: string): void
  err(text: string): void
  env: Record<string, string | undefined>
}

/** Thrown for a usage mistake: printed with the help, exit code 2. */
class UsageError extends Error {}

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

function portOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined
  if (!/^[0-9]+$/.test(value) || Number(value) > 65535) throw new UsageError(`--port ${value}: must be a port number (0..65535)`)
  return Number(value)
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
    const { values, positionals } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        seed: { type: 'string' },
        data: { type: 'string' },
        cors: { type: 'boolean' },
        'base-url': { type: 'string' },
        'admin-token': { type: 'string' },
        'allow-private-network': { type: 'boolean' },
        'no-admin': { type: 'boolean' },
        'admin-api-token': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    })
    const [command, ...rest] = positionals
    if (values.help || command === undefined) {
      io.out(HELP)
      return values.help ? 0 : 2
    }
    if (rest.length > 0) throw new UsageError(`unexpected argument: ${rest[0]}`)
    if (command === 'demo-seed') {
      io.out(`${JSON.stringify((await createDemoState()).state, null, 2)}\n`)
      return 0
    }
    if (command !== 'serve') throw new UsageError(`unknown command: ${command}`)
    const running = await serve({
      port: portOf(values.port ?? io.env.PORT) ?? 4000,
      host: values.host ?? io.env.HOST,
      seed: values.seed === undefined ? undefined : readSeed(values.seed),
      cors: values.cors ?? false,
      baseUrl: values['base-url'],
      adminToken: values['admin-token'] ?? io.env.DEMO_TOKEN,
      data: values.data,
      allowPrivateNetwork: values['allow-private-network'] ?? false,
      ...adminOf(values['no-admin'], values['admin-api-token'] ?? io.env.DOCS_CONTENT_API_ADMIN_TOKEN),
    })
    io.out(`${running.banner()}\n`)
    return running
  } catch (error) {
    if (error instanceof UsageError || error instanceof SeedOverDataError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`docs-content-api: ${(error as Error).message}\n\n${HELP}`)
      return 2
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
