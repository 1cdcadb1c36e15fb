/**
 * How long the event loop was held while `work` ran: the longest gap between the turns of a timer
 * asking to run every millisecond, and the time `work` took, both in ms. A test compares the two
 * (a ratio), never either with a fixed time. (perf_hooks' monitorEventLoopDelay was tried: it did
 * not report a 200 ms stall as such.)
 */
export async function longestStall<T>(work: () => Promise<T>): Promise<{ result: T; stall: number; total: number }> {
  const probe = startProbe()
  await probe.turned()
  probe.reset()
  const start = performance.now()
  try {
    const result = await work()
    const total = performance.now() - start
    // The gap of the last stall is known once the timer has turned after it.
    await probe.turned()
    return { result, stall: probe.longest(), total }
  } finally {
    probe.stop()
  }
}

function startProbe() {
  let last = performance.now()
  let longest = 0
  let waiting: Array<() => void> = []
  let timer: ReturnType<typeof setTimeout> | undefined
  const tick = () => {
    const now = performance.now()
    longest = Math.max(longest, now - last)
    last = now
    for (const resolve of waiting.splice(0)) resolve()
    timer = setTimeout(tick, 1)
  }
  timer = setTimeout(tick, 1)
  return {
    turned: () => new Promise<void>((resolve) => waiting.push(resolve)),
    reset: () => {
      longest = 0
      last = performance.now()
    },
    longest: () => longest,
    stop: () => {
      clearTimeout(timer)
      waiting = []
    },
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
