import { urlAlphabet } from 'nanoid'

const CODES = Array.from(urlAlphabet, (c) => c.charCodeAt(0))
const MASK = CODES.length - 1 // 63: nanoid's alphabet has 64 symbols, one per 6 bits of a random byte

/** Random bytes, drawn from the platform's CSPRNG (as nanoid does) a pool at a time. */
const POOL_BYTES = 4096
const pool = new Uint8Array(POOL_BYTES)
let poolOffset = POOL_BYTES

/**
 * Ids as nanoid makes them (its URL-safe alphabet, random bytes from `crypto.getRandomValues`,
 * 20 symbols by default), but built as one flat string. nanoid appends a symbol at a time
 * (`id += ...`), which V8 keeps as a chain of 20 string pieces (about 300 bytes) until the id is
 * first serialized; one `String.fromCharCode` call makes a 20-byte sequential string (about 40
 * bytes) at once.
 */
export function createIdMaker(size = 20): () => string {
  if (size < 1 || size > POOL_BYTES) throw new RangeError(`Ids have 1 to ${POOL_BYTES} symbols`)
  const codes = new Array<number>(size).fill(0)
  return () => {
    if (poolOffset + size > POOL_BYTES) {
      crypto.getRandomValues(pool)
      poolOffset = 0
    }
    for (let i = 0; i < size; i++) codes[i] = CODES[pool[poolOffset + i]! & MASK]!
    poolOffset += size
    return String.fromCharCode.apply(null, codes)
  }
}

/** The default id maker of the API: 20 symbols of nanoid's alphabet, as `nanoid()` gives. */
export const newFlatId = createIdMaker(20)
