/**
 * A long text kept as the parts it was read in (a request body of several MiB, decoded chunk by
 * chunk), read as one string is read: by index, by slice, by `indexOf`.
 *
 * Why not one string: V8 keeps `a + b + …` as a tree of parts and makes it one flat string on its
 * first read (`charCodeAt`, `slice`), in one call that copies the whole text into new memory. For a
 * body of several MB that single copy held the event loop longer than any slice of the work that
 * reads the body afterwards (core/json-limits.ts, http/json-slices.ts; the figure is in
 * bench/README.md).
 * Read through this class, no copy is ever made of more than what a caller slices.
 */
export class LargeText {
  readonly length: number
  private readonly parts: readonly string[]
  /** Where each part starts in the text; one more entry: the text's length. */
  private readonly starts: number[]
  /** The part the last read fell in: reads go forward, so the next one is almost always there. */
  private at = 0

  constructor(parts: readonly string[]) {
    this.parts = parts.filter((part) => part.length > 0)
    this.starts = [0]
    for (const part of this.parts) this.starts.push(this.starts[this.starts.length - 1]! + part.length)
    this.length = this.starts[this.starts.length - 1]!
  }

  /** The index of the part holding position `i` (0 <= i < length). */
  private partOf(i: number): number {
    const at = this.at
    if (i >= this.starts[at]! && i < this.starts[at + 1]!) return at
    if (i >= this.starts[at + 1]! && i < (this.starts[at + 2] ?? -1)) return (this.at = at + 1)
    let lo = 0
    let hi = this.parts.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (this.starts[mid]! <= i) lo = mid
      else hi = mid - 1
    }
    return (this.at = lo)
  }

  /** As `String.prototype.charCodeAt`: NaN outside the text. */
  charCodeAt(i: number): number {
    if (!(i >= 0 && i < this.length)) return NaN
    const k = this.partOf(i)
    return this.parts[k]!.charCodeAt(i - this.starts[k]!)
  }

  /** As `String.prototype.slice` with `start <= end` within the text (what the readers ask). */
  slice(start: number, end = this.length): string {
    start = Math.max(0, Math.min(start, this.length))
    end = Math.max(start, Math.min(end, this.length))
    if (start === end) return ''
    let k = this.partOf(start)
    let out = ''
    for (let from = start; from < end; k++) {
      const partStart = this.starts[k]!
      const partEnd = this.starts[k + 1]!
      out += this.parts[k]!.slice(from - partStart, Math.min(end, partEnd) - partStart)
      from = partEnd
    }
    return out
  }

  /** As `String.prototype.indexOf` for a one-character `search` (what the readers look for). */
  indexOf(search: string, from = 0): number {
    if (search.length !== 1) throw new Error('LargeText.indexOf looks for one character')
    if (from >= this.length) return -1
    for (let k = this.partOf(Math.max(0, from)); k < this.parts.length; k++) {
      const partStart = this.starts[k]!
      const found = this.parts[k]!.indexOf(search, Math.max(0, from - partStart))
      if (found >= 0) return partStart + found
    }
    return -1
  }

  /** The whole text as one string (one copy of all of it: for an error path, or a short text). */
  toString(): string {
    return this.parts.join('')
  }
}

/** A text as the JSON readers take it: a string, or a long text in parts. */
export type JsonText = string | LargeText
