/**
 * A piece of a section's text to show with a result: at most `length` characters, starting a
 * little before the first word that matched (so the reader sees why it matched), cut at word
 * boundaries, with `…` where text was left out.
 */
export const EXCERPT_LENGTH = 240
const LEAD = 60

export function excerpt(text: string, terms: readonly string[], length = EXCERPT_LENGTH): string {
  if (text.length <= length) return text
  const lower = text.toLowerCase()
  let at = -1
  for (const term of terms) {
    const i = lower.indexOf(term)
    if (i !== -1 && (at === -1 || i < at)) at = i
  }
  let start = Math.max(0, Math.min(at - LEAD, text.length - length))
  // Start on a word: after the first space past the cut (unless that skips too much).
  if (start > 0) {
    const space = text.slice(start, start + 30).search(/\s/)
    if (space !== -1) start += space + 1
  }
  let end = Math.min(text.length, start + length)
  if (end < text.length) {
    const space = text.slice(start, end).search(/\s\S*$/)
    if (space > length / 2) end = start + space
  }
  return `${start > 0 ? '…' : ''}${text.slice(start, end).trim()}${end < text.length ? '…' : ''}`
}
