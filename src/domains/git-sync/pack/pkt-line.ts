/**
 * Git's pkt-line framing (gitprotocol-common): four hex digits of the line's length (them
 * included), then the payload; `0000` a flush, `0001` a delimiter. Written and read for the
 * requests Git Sync makes itself (upload-pack.ts, receive-pack.ts).
 */

const encoder = new TextEncoder()
const decoder = new TextDecoder()

export function concatBytes(parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  let size = 0
  for (const p of parts) size += p.byteLength
  const out = new Uint8Array(size)
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.byteLength
  }
  return out
}

export function pktLine(payload: string): Uint8Array {
  const bytes = encoder.encode(payload)
  return concatBytes([encoder.encode((bytes.byteLength + 4).toString(16).padStart(4, '0')), bytes])
}

export class PktLineError extends Error {
  override name = 'PktLineError'
}

/** The length a pkt-line's four hex digits give; throws when they are not hex or name a length below 4 (but 0 and 1). */
export function pktLength(hex: Uint8Array): number {
  const text = decoder.decode(hex)
  if (!/^[0-9a-f]{4}$/i.test(text)) throw new PktLineError('the remote sent a malformed pkt-line')
  const length = Number.parseInt(text, 16)
  if (length > 1 && length < 4) throw new PktLineError('the remote sent a malformed pkt-line')
  return length
}

/** The payloads of a run of pkt-lines held whole (flushes and delimiters left out). */
export function pktPayloads(bytes: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = []
  for (let at = 0; at < bytes.byteLength;) {
    if (at + 4 > bytes.byteLength) throw new PktLineError('the remote sent a malformed pkt-line')
    const length = pktLength(bytes.subarray(at, at + 4))
    if (length <= 1) {
      at += 4
      continue
    }
    if (at + length > bytes.byteLength) throw new PktLineError('the remote sent a malformed pkt-line')
    out.push(bytes.subarray(at + 4, at + length))
    at += length
  }
  return out
}

/**
 * Pkt-lines read as a body's chunks come: `next()` gives a payload (a view, valid until the next
 * call), `'flush'` for a flush or delimiter, undefined at the end; `rest()` the bytes left, raw.
 */
export function pktReader(body: AsyncIterable<Uint8Array>) {
  const source = body[Symbol.asyncIterator]()
  let buffer: Uint8Array = new Uint8Array(0)
  let at = 0
  /** At least `n` bytes ahead of `at`, reading more as needed; false at the end of the body. */
  const fill = async (n: number): Promise<boolean> => {
    while (buffer.byteLength - at < n) {
      const { done, value } = await source.next()
      if (done) return false
      buffer = at < buffer.byteLength ? concatBytes([buffer.subarray(at), value]) : value
      at = 0
    }
    return true
  }
  return {
    async next(): Promise<Uint8Array | 'flush' | undefined> {
      if (!(await fill(4))) {
        if (buffer.byteLength - at > 0) throw new PktLineError('the remote ended its answer inside a pkt-line')
        return undefined
      }
      const length = pktLength(buffer.subarray(at, at + 4))
      if (length <= 1) {
        at += 4
        return 'flush'
      }
      if (!(await fill(length))) throw new PktLineError('the remote ended its answer inside a pkt-line')
      const payload = buffer.subarray(at + 4, at + length)
      at += length
      return payload
    },
    async *rest(): AsyncGenerator<Uint8Array> {
      if (at < buffer.byteLength) yield buffer.subarray(at)
      buffer = new Uint8Array(0)
      at = 0
      for (;;) {
        const { done, value } = await source.next()
        if (done) return
        yield value
      }
    },
  }
}
