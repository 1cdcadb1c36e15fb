import type { AddressInfo } from 'node:net'
import { createCgiServer } from './git-server.js'

/** git-server.ts's HTTP side in a process of its own (`startGitServer({ childProcess: true })`): argv root and auth; sends its port. */
const [root, auth] = process.argv.slice(2)
const server = createCgiServer(root!, JSON.parse(auth ?? 'null') ?? undefined)
server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port }))
process.on('SIGTERM', () => process.exit(0))
// The parent gone (its IPC channel closed): no server left behind.
process.on('disconnect', () => process.exit(0))
