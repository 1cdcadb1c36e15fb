import { monitorEventLoopDelay } from 'node:perf_hooks'

/**
 * How long the event loop was held while `work` ran: the longest delay of a timer that fires every
 * millisecond (perf_hooks' event-loop delay histogram), and the time `work` took, both in ms. A test
 * compares the two (a ratio), never either with a fixed time.
 */
export async function longestStall<T>(work: () => Promise<T>): Promise<{ result: T; stall: number; total: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 1 })
  histogram.enable()
  const start = performance.now()
  try {
    const result = await work()
    const total = performance.now() - start
    // The histogram's timer records a stall when it next fires: let it, after the last one.
    await new Promise((resolve) => setTimeout(resolve, 5))
    return { result, stall: histogram.max / 1e6, total }
  } finally {
    histogram.disable()
  }
}

const WORDS = 'the quick brown fox jumps over the lazy dog while seven wizards quietly judge boxing matches'.split(' ')

/** Plain prose of about `size` characters: sentences in paragraphs, the ordinary input a parser is measured against. */
export function prose(size: number): string {
  const parts: string[] = []
  let length = 0
  for (let i = 0; length < size; i++) {
    const word = WORDS[(i * 7 + (i >> 3)) % WORDS.length]!
    const piece = i % 90 === 89 ? `${word}.\n\n` : i % 12 === 11 ? `${word}. ` : `${word} `
    parts.push(piece)
    length += piece.length
  }
  return parts.join('')
}
