// The floor of the served measures (bench/served.ts): a bare node:http server answering, from a Map
// by path, what the API answered for the same requests (recorded before timing), after a bearer
// check. Nothing else: no routing table, no validation, no journal. Two ways to hold an answer:
// `stringify` (the default) keeps it parsed and sends `JSON.stringify` of it, as the in-process
// baseline (bench/baseline.ts) does; `bytes` keeps the bytes and sends them.
// `node bench/served-floor.mjs <answers.json> [stringify|bytes]`, where the file holds
// { token, answers: { [path]: { status, contentType, body } } }. Prints `listening <port>`.
import { createServer } from 'node:http'
import { readFileSync } from 'node:fs'
import { Buffer } from 'node:buffer'
import process from 'node:process'

const { token, answers } = JSON.parse(readFileSync(process.argv[2], 'utf8'))
const bytes = process.argv[3] === 'bytes'
const bearer = `Bearer ${token}`
const byPath = new Map()
for (const [path, { status, contentType, body }] of Object.entries(answers))
  byPath.set(path, { status, contentType, held: bytes ? Buffer.from(body) : JSON.parse(body) })
const send = (res, status, contentType, body) => res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) }).end(body)

const server = createServer((req, res) => {
  if (req.headers.authorization !== bearer) return send(res, 401, 'application/json', '{"error":{"code":401,"message":"Unauthorized"}}')
  const answer = byPath.get(req.url)
  if (!answer) return send(res, 404, 'application/json', '{"error":{"code":404,"message":"Not found"}}')
  send(res, answer.status, answer.contentType, bytes ? answer.held : JSON.stringify(answer.held))
})
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${server.address().port}\n`))
process.on('SIGINT', () => process.exit(0))
process.on('SIGTERM', () => process.exit(0))
