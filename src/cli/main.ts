import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { createDemoState } from '../demo.js'
import type { StateDocument } from '../state/seed.js'
import { SqliteUnavailableError } from '../sqlite/driver.js'
import { SqliteFormatError } from '../sqlite/layout.js'
import { StorageError } from '../storage/errors.js'
import { SeedOverDataError, serve, type RunningServer } from './serve.js'

/**
 * The command line: `docs-content-api serve [--port 4000] [--host 127.0.0.1] [--seed state.json]
 * [--data dir] [--cors] [--base-url URL] [--allow-private-network]`, and `docs-content-api demo-seed` (the demo data as a state document,
 * to edit and serve with --seed). Node-only (the package's `bin`); it needs no dev dependency (`--data`
 * needs the optional peer better-sqlite3, loaded only then).
 */

const HELP = `Usage: docs-content-api <command> [options]

Commands:
  serve        Serve the API over HTTP (in memory, or kept in a data directory), with the demo data or a seed
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
  --cors           Answer cross-origin requests (browsers)
  --base-url <url> Base URL in resource URLs                  [default: http://localhost:<port>]
  --admin-token <t> The demo admin's token (when the demo data is loaded)
                                                               [default: random, or $DEMO_TOKEN]
  --allow-private-network
                   Let files by URL, OpenAPI spec URLs and Git Sync reach private
                   and loopback addresses (a server on this machine or network);
                   otherwise every host name is resolved and refused when one of
                   its addresses is not public

Options of pull (progress, warnings and the new token on stderr):
  --endpoint <url> The API to read (e.g. https://api.gitbook.com)   [required]
  --token <token>  A token of a member of the organization           [required]
  --org <id>       The organization to read   [default: the token's only one]

  -h, --help       This help
`

export interface CliIo {
  out(text: string): void
  err(text: string): void
  env: Record<string, string | undefined>
}

/** Thrown for a usage mistake: printed with the help, exit code 2. */
class UsageError extends Error {}

function readSeed(file: string): StateDocument {
  let text: string
  try {
    text = readFileSync(resolve(file), 'utf8')
  } catch (error) {
    throw new UsageError(`--seed ${file}: ${(error as Error).message}`)
  }
  try {
    return JSON.parse(text) as StateDocument
  } catch (error) {
    throw new UsageError(`--seed ${file}: not JSON (${(error as Error).message})`)
  }
}

function portOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined
  if (!/^[0-9]+$/.test(value) || Number(value) > 65535) throw new UsageError(`--port ${value}: must be a port number (0..65535)`)
  return Number(value)
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
        endpoint: { type: 'string' },
        token: { type: 'string' },
        org: { type: 'string' },
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
    const running = await serve({
      port: portOf(values.port ?? io.env.PORT) ?? 4000,
      host: values.host ?? io.env.HOST,
      seed: values.seed === undefined ? undefined : readSeed(values.seed),
      cors: values.cors ?? false,
      baseUrl: values['base-url'],
      adminToken: values['admin-token'] ?? io.env.DEMO_TOKEN,
      data: values.data,
      allowPrivateNetwork: values['allow-private-network'] ?? false,
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
