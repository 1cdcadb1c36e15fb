import type { GitHttpClient } from '../git-http.js'
import { concatBytes, pktLength, pktLine, pktReader } from './pkt-line.js'

/**
 * A fetch of one commit's snapshot as Git's smart HTTP protocol (v1) gives it: one upload-pack
 * request (`want <oid>`, `deepen 1` when the remote offers shallow clones, `done`), the answer's
 * shallow lines, its NAK, then the pack in band 1 of the side band (band 2: progress, dropped;
 * band 3: the remote's error). The pack's bytes are gathered as they come and joined once at the
 * end: into a buffer that grows in place, copied once when complete (isomorphic-git's fetch held
 * several copies at once while indexing: pack/index-pack.ts indexes it without them).
 */

export interface FetchedPack {
  pack: Uint8Array
  /** Commits the remote cut the history at (their parents were not sent). */
  shallow: string[]
}

export class UploadPackError extends Error {
  override name = 'UploadPackError'
}

const decoder = new TextDecoder()

/**
 * Bytes gathered as they come: in an ArrayBuffer that grows in place (a resizable one, up to
 * `max`: no garbage of earlier sizes or parts while the pack comes), copied once at the end; where
 * the runtime has none, in parts joined at the end.
 */
function growingBytes(max: number) {
  const Resizable = ArrayBuffer as unknown as new (
    length: number,
    options: { maxByteLength: number },
  ) => ArrayBuffer & { resize(n: number): void; resizable: boolean }
  if ('resizable' in ArrayBuffer.prototype) {
    const buffer = new Resizable(0, { maxByteLength: max })
    return {
      push(bytes: Uint8Array) {
        const at = buffer.byteLength
        if (at + bytes.byteLength > max) throw new UploadPackError(`the repository is larger than ${max} bytes`)
        buffer.resize(at + bytes.byteLength)
        new Uint8Array(buffer, at, bytes.byteLength).set(bytes)
      },
      // A fixed copy, the grown buffer given back at once: views of a resizable buffer are slower
      // to read in the engines (every later read of the repository goes through them), and the
      // collector does not see its memory. The pack is held twice only for the copy.
      bytes: () => {
        const fixed = new Uint8Array(buffer).slice()
        buffer.resize(0)
        return fixed
      },
    }
  }
  const parts: Uint8Array[] = []
  return {
    push: (bytes: Uint8Array) => void parts.push(bytes.slice()),
    bytes: () => concatBytes(parts.splice(0)),
  }
}

export async function fetchPack(
  http: GitHttpClient,
  url: string,
  want: string,
  capabilities: ReadonlySet<string>,
  maxBytes = 200 * 1024 * 1024,
): Promise<FetchedPack> {
  const shallowOk = capabilities.has('shallow')
  const asked = ['side-band-64k', 'ofs-delta', 'no-progress', 'agent=docs-content-api'].filter((c) => c.startsWith('agent=') || capabilities.has(c))
  const body = concatBytes([
    pktLine(`want ${want} ${asked.join(' ')}\n`),
    ...(shallowOk ? [pktLine('deepen 1\n')] : []),
    new TextEncoder().encode('0000'),
    pktLine('done\n'),
  ])
  const response = await http.request({
    url: `${url.replace(/\/$/, '')}/git-upload-pack`,
    method: 'POST',
    headers: { 'content-type': 'application/x-git-upload-pack-request', accept: 'application/x-git-upload-pack-result' },
    body: [body],
  })
  if (response.statusCode !== 200) {
    for await (const _ of response.body) void _
    throw Object.assign(new Error(`HTTP Error: ${response.statusCode} ${response.statusMessage}`), {
      code: 'HttpError',
      data: { statusCode: response.statusCode, statusMessage: response.statusMessage },
    })
  }
  const sideBand = asked.includes('side-band-64k')
  const reader = pktReader(response.body)
  const shallow: string[] = []
  // The shallow section (after `deepen`), ended by a flush; then NAK (no common commits: none were named).
  for (;;) {
    const line = await reader.next()
    if (line === undefined) throw new UploadPackError('the remote ended its answer before the pack')
    if (line === 'flush') {
      if (shallowOk) continue
      throw new UploadPackError('the remote answered with an unexpected flush')
    }
    const text = decoder.decode(line).replace(/\n$/, '')
    if (text.startsWith('shallow ')) shallow.push(text.slice('shallow '.length))
    else if (text.startsWith('unshallow ')) continue
    else if (text === 'NAK' || text.startsWith('ACK ')) break
    else if (text.startsWith('ERR ')) throw new UploadPackError(`the remote refused the fetch: ${text.slice(4)}`)
    else throw new UploadPackError(`the remote answered the fetch with an unexpected line: ${text.slice(0, 80)}`)
  }
  // The pack: band 1 of the side band (each byte copied once, straight from the chunks received), or the rest of the answer.
  const sink = growingBytes(maxBytes)
  if (sideBand) {
    const header = new Uint8Array(4)
    let headerFill = 0
    /** Bytes left of the current line's payload; -1 while reading a header. */
    let left = -1
    let band = 0
    let error = ''
    let ended = false
    for await (const chunk of reader.rest()) {
      if (ended) continue
      for (let at = 0; at < chunk.byteLength && !ended;) {
        if (left < 0) {
          const take = Math.min(4 - headerFill, chunk.byteLength - at)
          header.set(chunk.subarray(at, at + take), headerFill)
          headerFill += take
          at += take
          if (headerFill < 4) break
          headerFill = 0
          const length = pktLength(header)
          if (length <= 1) ended = true
          else {
            left = length - 4
            band = -1
          }
          continue
        }
        if (band === -1) {
          band = chunk[at]!
          at++
          left--
        }
        const take = Math.min(left, chunk.byteLength - at)
        if (band === 1) sink.push(chunk.subarray(at, at + take))
        else if (band === 3) error += decoder.decode(chunk.subarray(at, at + take))
        at += take
        left -= take
        if (left === 0) {
          left = -1
          if (band === 3) throw new UploadPackError(`the remote failed while sending: ${error.trim()}`)
        }
      }
    }
    if (!ended) throw new UploadPackError('the remote ended its answer inside the pack')
  } else {
    for await (const chunk of reader.rest()) sink.push(chunk)
  }
  const pack = sink.bytes()
  return { pack, shallow }
}
