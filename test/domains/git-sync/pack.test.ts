import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { indexPack, PackError, readWhole } from '../../../src/domains/git-sync/pack/index-pack.js'
import { fetchPack, UploadPackError } from '../../../src/domains/git-sync/pack/upload-pack.js'
import type { GitHttpClient } from '../../../src/domains/git-sync/git-http.js'

/**
 * Git Sync's own fetch (pack/upload-pack.ts) and indexer (pack/index-pack.ts), against git itself:
 * for packs git writes (whole objects, deltas by offset and by id, chains of them), the index is
 * byte for byte the one `git index-pack` writes; a blob stored whole reads back as git reads it;
 * a damaged pack or answer fails with a PackError or UploadPackError saying what is wrong.
 */
const work = mkdtempSync(join(tmpdir(), 'pack-test-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))
const git = (args: string[], input?: Buffer | string) =>
  execFileSync('git', args, { cwd: work, input, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: work } })

/** A repository whose history makes deltas: versions of the same files, and a binary. */
function repository(): string[] {
  git(['init', '-q', '-b', 'main'])
  git(['config', 'user.email', 'a@b.test'])
  git(['config', 'user.name', 'A'])
  const text = Array.from({ length: 400 }, (_, i) => `Line ${i} of the guide, with some words to compress.`).join('\n')
  for (let v = 0; v < 6; v++) {
    writeFileSync(join(work, 'guide.md'), `${text}\nVersion ${v}\n${'x'.repeat(v * 100)}`)
    writeFileSync(join(work, `page-${v}.md`), `# Page ${v}\n\n${text.slice(0, 2000 + v)}`)
    writeFileSync(join(work, 'big.bin'), Buffer.alloc(300_000, v))
    git(['add', '-A'])
    git(['commit', '-q', '-m', `v${v}`])
  }
  return git(['rev-list', '--objects', '--all'])
    .toString()
    .trim()
    .split('\n')
    .map((l) => l.slice(0, 40))
}

const oids = repository()

function pack(options: string[]): { pack: Buffer; idx: Buffer } {
  const name = git(['pack-objects', '-q', ...options, join(work, 'out')], oids.join('\n'))
    .toString()
    .trim()
  const base = join(work, `out-${name}`)
  return { pack: readFileSync(`${base}.pack`), idx: readFileSync(`${base}.idx`) }
}

describe('indexPack', () => {
  it('writes the index git writes, for deltas by id (the default) and by offset, and whole objects', async () => {
    for (const options of [[], ['--delta-base-offset'], ['--depth=1', '--delta-base-offset'], ['--window=0']]) {
      const made = pack(options)
      const ours = await indexPack(new Uint8Array(made.pack))
      expect(Buffer.from(ours.idx).equals(made.idx), `pack-objects ${options.join(' ')}`).toBe(true)
      expect(ours.objects.size).toBe(oids.length)
    }
  })

  it('reads a blob stored whole as git reads it', async () => {
    const made = pack(['--window=0'])
    const { whole } = await indexPack(new Uint8Array(made.pack))
    const big = git(['rev-parse', 'HEAD:big.bin']).toString().trim()
    const at = whole.get(big)!
    expect(Buffer.from(await readWhole(new Uint8Array(made.pack), at.start, at.size)).equals(git(['cat-file', 'blob', big]))).toBe(true)
  })

  it('refuses a damaged pack, saying what is wrong', async () => {
    const made = new Uint8Array(pack(['--window=0']).pack)
    await expect(indexPack(new TextEncoder().encode('not a pack at all, not at all, no'))).rejects.toThrow(/did not send a pack/)
    const cut = made.slice(0, Math.floor(made.length / 2))
    await expect(indexPack(cut)).rejects.toBeInstanceOf(PackError)
    const flipped = made.slice()
    flipped[200] = flipped[200]! ^ 0xff
    await expect(indexPack(flipped)).rejects.toBeInstanceOf(PackError)
  })
})

/** An HTTP client answering every request with `body`, in chunks of `size` bytes. */
function answering(body: Uint8Array, size = 7): GitHttpClient & { sent: string[] } {
  const sent: string[] = []
  return {
    sent,
    async request(req) {
      const parts: Uint8Array[] = []
      for await (const p of req.body as AsyncIterable<Uint8Array>) parts.push(p)
      sent.push(Buffer.concat(parts).toString('latin1'))
      async function* chunks() {
        for (let at = 0; at < body.length; at += size) yield body.subarray(at, at + size)
      }
      return { url: req.url, method: 'POST', statusCode: 200, statusMessage: 'OK', headers: {}, body: chunks() }
    },
  }
}
const pkt = (s: string | Buffer) => {
  const b = typeof s === 'string' ? Buffer.from(s, 'latin1') : s
  return Buffer.concat([Buffer.from((b.length + 4).toString(16).padStart(4, '0')), b])
}

describe('fetchPack', () => {
  const want = 'a'.repeat(40)
  const caps = new Set(['shallow', 'side-band-64k', 'ofs-delta', 'no-progress'])

  it('asks for one commit, one deep, and takes the pack from band 1 of the side band (progress dropped), whatever the chunks', async () => {
    const packBytes = Buffer.from('PACK-bytes-of-any-length-'.repeat(50))
    const answer = Buffer.concat([
      pkt(`shallow ${want}\n`),
      Buffer.from('0000'),
      pkt('NAK\n'),
      pkt(Buffer.concat([Buffer.from([2]), Buffer.from('Counting objects\n')])),
      pkt(Buffer.concat([Buffer.from([1]), packBytes.subarray(0, 500)])),
      pkt(Buffer.concat([Buffer.from([1]), packBytes.subarray(500)])),
      Buffer.from('0000'),
    ])
    for (const size of [1, 5, 64, 100_000]) {
      const http = answering(answer, size)
      const got = await fetchPack(http, 'http://h/r.git', want, caps)
      expect(Buffer.from(got.pack).equals(packBytes)).toBe(true)
      expect(got.shallow).toEqual([want])
      expect(http.sent[0]).toBe(
        `${pkt(`want ${want} side-band-64k ofs-delta no-progress agent=docs-content-api\n`).toString('latin1')}${pkt('deepen 1\n').toString('latin1')}0000${pkt('done\n').toString('latin1')}`,
      )
    }
  })

  it("fails with the remote's words when it reports an error, and on an answer cut short", async () => {
    const error = Buffer.concat([pkt('NAK\n'), pkt(Buffer.concat([Buffer.from([3]), Buffer.from('upload-pack: not our ref\n')]))])
    await expect(fetchPack(answering(error), 'http://h/r.git', want, new Set(['side-band-64k']))).rejects.toThrow(
      new UploadPackError('the remote failed while sending: upload-pack: not our ref'),
    )
    await expect(fetchPack(answering(pkt(`ERR access denied\n`)), 'http://h/r.git', want, caps)).rejects.toThrow(/refused the fetch: access denied/)
    const cut = Buffer.concat([pkt('NAK\n'), pkt(Buffer.concat([Buffer.from([1]), Buffer.from('PACK')]))])
    await expect(fetchPack(answering(cut), 'http://h/r.git', want, caps)).rejects.toThrow(/inside the pack/)
  })
})
