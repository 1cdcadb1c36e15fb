import { createDocsApi } from './src/index.ts'
import { createWorkerOffload } from './src/node.ts'
const WORDS = 'the quick brown fox jumps over the lazy dog while seven wizards quietly judge boxing matches'.split(' ')
function prose(size: number): string { const parts: string[] = []; let length = 0; for (let i = 0; length < size; i++) { const word = WORDS[(i * 7 + (i >> 3)) % WORDS.length]!; const piece = i % 90 === 89 ? `${word}.\n\n` : i % 12 === 11 ? `${word}. ` : `${word} `; parts.push(piece); length += piece.length } return parts.join('') }
const offload = createWorkerOffload()
const api = createDocsApi({ offload })
const ada = await api.fixtures.createUser({ displayName: 'Ada', email: 'ada@acme.test' })
const token = await api.fixtures.createToken(ada.id)
const org = await api.fixtures.createOrganization({ title: 'Acme', members: [{ user: ada.id, role: 'admin' }] })
const space = await api.fixtures.createSpace(org.id, { title: 'Docs' })
const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
const batch = async (n: number) => {
  const cr = await (await api.fetch(new Request(`http://x/v1/spaces/${space.id}/change-requests`, { method: 'POST', headers, body: '{}' }))).json()
  const changes = Array.from({ length: n }, (_, i) => ({ operation: 'insert_page', title: `Large ${i}`, document: { markdown: prose(330_000) } }))
  return api.fetch(new Request(`http://x/v1/spaces/${space.id}/change-requests/${cr.id}/content`, { method: 'POST', headers, body: JSON.stringify({ changes }) }))
}
await (await batch(1)).text()
let last = performance.now(), gaps: string[] = []
const t = performance.now()
const tick = () => { const now = performance.now(); if (now - last > 30) gaps.push(`${Math.round(now - last)}@${Math.round(now - t)}`); last = now; timer = setTimeout(tick, 1) }
let timer = setTimeout(tick, 1)
const r = await batch(20); await r.text()
await new Promise((r) => setTimeout(r, 5)); clearTimeout(timer)
console.log(r.status, 'total', (performance.now() - t).toFixed(0), 'gaps>30', gaps.join(' '))
await offload.close()
