import type { Options, SearchOptions } from 'minisearch'

/**
 * How text becomes search terms, the same for indexing and for queries: MiniSearch's tokenizer
 * (Unicode spaces and punctuation), then lower case without accents ("Café" finds "cafe"), and
 * the commonest English words left out (a question such as "How do I install it?" then searches
 * for "install", not for every page with "how" or "it").
 */

// prettier-ignore
const STOP_WORDS = new Set([
  'a', 'an', 'and', 'are', 'as', 'at', 'be', 'but', 'by', 'can', 'do', 'does', 'for', 'from', 'has', 'have', 'how', 'i', 'if', 'in',
  'into', 'is', 'it', 'its', 'me', 'my', 'no', 'not', 'of', 'on', 'or', 'our', 'so', 'that', 'the', 'their', 'then', 'there', 'these',
  'this', 'to', 'was', 'we', 'were', 'what', 'when', 'where', 'which', 'who', 'why', 'will', 'with', 'you', 'your',
])

/** A token as a term: lower case, accents dropped; nothing for a stop word. */
export function processTerm(token: string): string | null {
  const term = token
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
  return term === '' || STOP_WORDS.has(term) ? null : term
}

/** Fields of an indexed document and how much a match in each counts. */
export const FIELDS = ['title', 'description', 'heading', 'body'] as const
export type Field = (typeof FIELDS)[number]

/**
 * Matching: every term counts (OR; BM25 ranks documents holding more of them first), and a term
 * of 3 characters or more also finds words it begins ("instal" finds "installation"). Prefix
 * matches score below exact ones.
 */
export const SEARCH_OPTIONS: SearchOptions = {
  boost: { title: 4, description: 2, heading: 2, body: 1 },
  prefix: (term) => term.length >= 3,
  fuzzy: false,
  combineWith: 'OR',
}

/**
 * Near misses: a term of 5 characters or more also finds words one edit away (a typo:
 * "instaler", "instalation"), weighted below exact and prefix matches. Tried only when the words
 * as typed match fewer than NEAR_MISS_BELOW documents: searching the neighbours of every word
 * doubles what a common word costs, to find what its exact matches already found.
 */
export const NEAR_MISSES: SearchOptions = { fuzzy: (term) => (term.length >= 5 ? 1 : false) }
export const NEAR_MISS_BELOW = 10

export const INDEX_OPTIONS: Pick<Options, 'fields' | 'processTerm' | 'searchOptions'> = {
  fields: [...FIELDS],
  processTerm,
  searchOptions: SEARCH_OPTIONS,
}
