import { connect, createServer, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'

/**
 * A TCP proxy in front of a test server that, once armed, drops one kept-alive connection: the
 * next request sent on a connection that already carried an answer finds the socket closed, as
 * when a server (or a load balancer) dropped an idle connection the client still holds. That
 * request never reaches the server.
 */
export interface DroppingProxy {
  /** `http://127.0.0.1:<port>` */
  readonly base: string
  /** Drop the next request that reuses a connection. */
  arm(): void
  /** How many requests were dropped. */
  readonly dropped: number
  close(): Promise<void>
}

export async function startDroppingProxy(target: string): Promise<DroppingProxy> {
  const { hostname, port } = new URL(target)
  let armed = false
  let dropped = 0
  const sockets = new Set<Socket>()
  const server = createServer((client) => {
    const upstream = connect(Number(port), hostname)
    sockets.add(client).add(upstream)
    let answered = false
    const end = () => {
      client.destroy()
      upstream.destroy()
      sockets.delete(client)
      sockets.delete(upstream)
    }
    upstream.on('data', (chunk) => {
      answered = true
      client.write(chunk)
    })
    client.on('data', (chunk) => {
      if (armed && answered) {
        armed = false
        dropped++
        end()
        return
      }
      upstream.write(chunk)
    })
    for (const socket of [client, upstream]) {
      socket.on('error', end)
      socket.on('close', end)
    }
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arm: () => void (armed = true),
    get dropped() {
      return dropped
    },
    close: () =>
      new Promise<void>((done) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => done())
      }),
  }
}
