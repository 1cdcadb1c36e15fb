/**
 * LZ-string's URL-safe form (`compressToEncodedURIComponent` / `decompressFromEncodedURIComponent`
 * of the `lz-string` package, MIT, by pieroxy), which `renderIntegrationUIWithGet` takes its
 * `request` in: the same algorithm, 6 bits a character over the URL-safe alphabet.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-$'
const VALUE_OF = new Map([...ALPHABET].map((c, i) => [c, i]))

/** What `decompressFromEncodedURIComponent` answers for a text that would decompress past its `maxLength`. */
export const TOO_LONG: unique symbol = Symbol('lz-string: too long')

/**
 * The text `compressToEncodedURIComponent` made, or null when `input` is not such a text; TOO_LONG
 * past `maxLength` characters (LZW output grows with the square of its input: a few kilobytes of
 * crafted codes make hundreds of megabytes, so the decoder stops at the cap). Written here rather
 * than taken from the `lz-string` package for that cap; a test checks both ways against the package.
 */
export function decompressFromEncodedURIComponent(input: string, maxLength = Infinity): string | null | typeof TOO_LONG {
  if (input === '') return null
  const text = input.replace(/ /g, '+')
  for (const c of text) if (!VALUE_OF.has(c)) return null
  return decompress(text.length, 32, (i) => VALUE_OF.get(text.charAt(i)) ?? 0, maxLength)
}

/** The URL-safe compressed form of `input` (the `lz-string` package's `compressToEncodedURIComponent`). */
export function compressToEncodedURIComponent(input: string): string {
  return compress(input, 6, (n) => ALPHABET.charAt(n))
}

function compress(input: string, bitsPerChar: number, charOf: (n: number) => string): string {
  const dictionary = new Map<string, number>()
  const toCreate = new Set<string>()
  let w = ''
  let enlargeIn = 2
  let dictSize = 3
  let numBits = 2
  const out: string[] = []
  let val = 0
  let position = 0
  const writeBits = (count: number, value: number) => {
    for (let i = 0; i < count; i++) {
      val = (val << 1) | (value & 1)
      if (position === bitsPerChar - 1) {
        position = 0
        out.push(charOf(val))
        val = 0
      } else position++
      value >>= 1
    }
  }
  const enlarge = () => {
    enlargeIn--
    if (enlargeIn === 0) {
      enlargeIn = 2 ** numBits
      numBits++
    }
  }
  const emit = (word: string) => {
    if (toCreate.has(word)) {
      const code = word.charCodeAt(0)
      if (code < 256) {
        writeBits(numBits, 0)
        writeBits(8, code)
      } else {
        writeBits(numBits, 1)
        writeBits(16, code)
      }
      enlarge()
      toCreate.delete(word)
    } else {
      writeBits(numBits, dictionary.get(word)!)
    }
    enlarge()
  }
  for (const c of input.split('')) {
    if (!dictionary.has(c)) {
      dictionary.set(c, dictSize++)
      toCreate.add(c)
    }
    const wc = w + c
    if (dictionary.has(wc)) {
      w = wc
    } else {
      emit(w)
      dictionary.set(wc, dictSize++)
      w = c
    }
  }
  if (w !== '') emit(w)
  writeBits(numBits, 2)
  // Flush the last character.
  for (;;) {
    val <<= 1
    if (position === bitsPerChar - 1) {
      out.push(charOf(val))
      break
    }
    position++
  }
  return out.join('')
}

function decompress(length: number, resetValue: number, valueAt: (index: number) => number, maxLength: number): string | null | typeof TOO_LONG {
  const dictionary: string[] = ['0', '1', '2']
  let enlargeIn = 4
  let dictSize = 4
  let numBits = 3
  const result: string[] = []
  const data = { val: valueAt(0), position: resetValue, index: 1 }
  const readBits = (count: number) => {
    let bits = 0
    for (let power = 1; power !== 2 ** count; power <<= 1) {
      const bit = data.val & data.position
      data.position >>= 1
      if (data.position === 0) {
        data.position = resetValue
        data.val = valueAt(data.index++)
      }
      if (bit > 0) bits |= power
    }
    return bits
  }
  let c: string
  switch (readBits(2)) {
    case 0:
      c = String.fromCharCode(readBits(8))
      break
    case 1:
      c = String.fromCharCode(readBits(16))
      break
    default:
      return ''
  }
  dictionary[3] = c
  let w = c
  result.push(c)
  let total = c.length
  for (;;) {
    if (data.index > length) return ''
    let code = readBits(numBits)
    if (code === 0 || code === 1) {
      dictionary[dictSize++] = String.fromCharCode(readBits(code === 0 ? 8 : 16))
      code = dictSize - 1
      enlargeIn--
    } else if (code === 2) {
      return result.join('')
    }
    if (enlargeIn === 0) {
      enlargeIn = 2 ** numBits
      numBits++
    }
    let entry: string
    if (code < dictSize && dictionary[code] !== undefined) entry = dictionary[code]!
    else if (code === dictSize) entry = w + w.charAt(0)
    else return null
    if ((total += entry.length) > maxLength) return TOO_LONG
    result.push(entry)
    dictionary[dictSize++] = w + entry.charAt(0)
    enlargeIn--
    w = entry
    if (enlargeIn === 0) {
      enlargeIn = 2 ** numBits
      numBits++
    }
  }
}
