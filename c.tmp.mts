import { spawn } from 'node:child_process'
const WORDS = 'the quick brown fox jumps over the lazy dog while seven wizards quietly judge boxing matches'.split(' ')
function prose(size: number): string { const parts: string[] = []; let length = 0; for (let i = 0; length < size; i++) { const word = WORDS[(i * 7 + (i >> 3)) % WORDS.length]!; const piece = i % 90 === 89 ? `${word}.\n\n` : i % 12 === 11 ? `${word}. ` : `${word} `; parts.push(piece); length += piece.length } return parts.join('') }
const proc = spawn(process.execPath, ['--cpu-prof', '--cpu-prof-dir=/tmp/prof6', '--import', 'tsx', 'src/cli/bin.ts', 'serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] })
let out = ''
await new Promise<void>((r) => proc.stdout!.on('data', (c) => { out += c; if (out.includes('Ctrl+C')) r() }))
const url = /on (http:\/\/\S+)/.exec(out)![1]!, token = /token {2}(\S+) {3}\([^)]*admin/.exec(out)![1]!, org = /organization {2}.* {2}(\S+)\n/.exec(out)![1]!
const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
const call = async (m: string, p: string, b?: unknown) => fetch(`${url}/v1${p}`, { method: m, headers, ...(b !== undefined && { body: typeof b === 'string' ? b : JSON.stringify(b) }) })
const space = (await (await call('GET', `/orgs/${org}/spaces`)).json()).items[0].id
const cr = (await (await call('POST', `/spaces/${space}/change-requests`, {})).json()).id
const body = JSON.stringify({ changes: Array.from({ length: 40 }, (_, i) => ({ operation: 'insert_page', title: `Large ${i}`, document: { markdown: prose(330_000) } })) })
const t = performance.now()
const r = await call('POST', `/spaces/${space}/change-requests/${cr}/content`, body)
console.log(r.status, (performance.now() - t).toFixed(0), 'ms')
proc.kill('SIGINT')
await new Promise((r) => proc.on('exit', r))
