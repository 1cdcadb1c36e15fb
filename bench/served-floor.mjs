// The floor of the served measures (bench/served.ts): a bare node:http server answering the bytes
// the API answered for the same requests, recorded before timing, from a Map by path, after a
// bearer check. Nothing else: no routing table, no parsing, no validation, no journal.
// `node bench/served-floor.mjs <answers.json>`: { token, answers: { [path]: { status, contentType, body } } }.
// Prints `listening <port>` once it listens (on 127.0.0.1, a free port).
import { createServer } from 'node:http'
import { readFileSync } from 'node:fs'
import { Buffer } from 'node:buffer'
import process from 'node:process'

const { token, answers } = JSON.parse(readFileSync(process.argv[2], 'utf8'))
const bearer = `Bearer ${token}`
const byPath = new Map()
for (const [path, { status, contentType, body }] of Object.entries(answers)) {
  const bytes = Buffer.from(body)
  byPath.set(path, { status, headers: { 'content-type': contentType, 'content-length': bytes.length }, bytes })
}
const unauthorized = Buffer.from('{"error":{"code":401,"message":"Unauthorized"}}')
const notFound = Buffer.from('{"error":{"code":404,"message":"Not found"}}')

const server = createServer((req, res) => {
  if (req.headers.authorization !== bearer) {
    res.writeHead(401, { 'content-type': 'application/json', 'content-length': unauthorized.length }).end(unauthorized)
    return
  }
  const answer = byPath.get(req.url)
  if (!answer) res.writeHead(404, { 'content-type': 'application/json', 'content-length': notFound.length }).end(notFound)
  else res.writeHead(answer.status, answer.headers).end(answer.bytes)
})
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${server.address().port}\n`))
process.on('SIGINT', () => process.exit(0))
process.on('SIGTERM', () => process.exit(0))
