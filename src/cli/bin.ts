// The `docs-content-api` command (package.json `bin`): runs the command line and, for `serve`,
// keeps serving until SIGINT or SIGTERM.
import { runCli, type CliIo } from './main.js'

const io: CliIo = { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t), env: process.env }
const result = await runCli(process.argv.slice(2), io).catch((error: unknown) => {
  io.err(`docs-content-api: ${(error as Error).stack ?? String(error)}\n`)
  return 1
})
if (typeof result === 'number') process.exitCode = result
else {
  let stopping = false
  const stop = (signal: string) => {
    if (stopping) return
    stopping = true
    io.out(`\n${signal}: closing the server\n`)
    result.close().then(
      () => process.exit(0),
      (error) => {
        io.err(`${String(error)}\n`)
        process.exit(1)
      },
    )
  }
  process.on('SIGINT', () => stop('SIGINT'))
  process.on('SIGTERM', () => stop('SIGTERM'))
  // Under `npm start`, npm passes a SIGTERM to the shell it ran the script in, which exits without
  // passing it on: this process is left to another parent. Its parent gone, it closes as on SIGTERM.
  // Only under npm: a server started with nohup or & outlives its shell on purpose.
  if (process.env.npm_lifecycle_event !== undefined) {
    const parent = process.ppid
    setInterval(() => {
      if (process.ppid !== parent) stop('SIGTERM (npm stopped)')
    }, 250).unref()
  }
}
