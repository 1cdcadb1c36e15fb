import type { Bow, ItemToken } from 'wink-nlp'

/**
 * The language tools of conversation processing, from wink-nlp (a maintained NLP library that runs
 * on web standards, with its English "lite web" model): sentence boundaries, word tokens with
 * stop words and parts of speech, Porter stems, and BM25 weights (a TF-IDF refinement). The model
 * is a few megabytes of JavaScript, so it is loaded on the first processing, not when the API is
 * created.
 */
export interface TextTools {
  /** A text's sentences, as written. */
  sentences(text: string): string[]
  /** What a text is about: the stems of its nouns, verbs, adjectives and numbers, support chatter left out. */
  terms(text: string): string[]
  /**
   * BM25-weighted bags of words of `docs`, the weights learned over all of them and `background`
   * more (BACKGROUND_ISSUES by default), each bag of length 1 (l2), so the dot product of two bags
   * is their cosine similarity.
   */
  weigh(docs: readonly (readonly string[])[], background?: number): Bow[]
}

/**
 * Words every support conversation uses whatever its problem: kept out of the terms, so issues
 * are compared on what they are about ("export", "pdf", "sso"), not on how people complain.
 * Generic verbs are here too: wink's stop list (a search engine's) is applied to function words
 * only, since it also holds verbs and nouns that say what a problem is about ("move", "name").
 */
const CHATTER = new Set(
  (
    'error fail failur broken break bug issu problem work help pleas thank thanks hi hello hey get got tri use need want still also time today anymor ' +
    'again just way thing someth anyon know see look seem happen keep go make let like would could realli sure ok okay team support ticket question ' +
    'can cannot unabl wrong miss stuck slow when everi alway never yesterday morn week day sinc start ' +
    'do doe did done be is are wa been have ha had say said tell think take put becom came come give gave becam ' +
    // What people do with any content ("change the title", "set it", "click Save"): measured on
    // bench/clustering-corpus.ts, leaving them out clusters better.
    'chang set add show click open'
  ).split(' '),
)
const CONTENT_POS = new Set(['NOUN', 'PROPN', 'VERB', 'ADJ', 'NUM', 'X'])
/** What a term may look like: a word or a number ("in." and "docs.acme.com" are not terms). */
const TERM = /^[a-z0-9][a-z0-9'-]*$/

/**
 * Issues about other things BM25 learns as well as the organization's, sharing no term with them
 * (each of the average length, made of a term of its own). Without them the first issues of an
 * organization make every term they share look common: two issues about cover images, alone,
 * give "cover" the weight of a word every issue uses, and land apart. With them a term shared by
 * the first few issues still weighs much, and they fade as the organization's issues outnumber
 * them. The number is measured with the threshold (bench/clustering.ts).
 */
export const BACKGROUND_ISSUES = 10

let loading: Promise<TextTools> | undefined

/** The tools, loaded once per process. */
export function loadTextTools(): Promise<TextTools> {
  return (loading ??= build().catch((error: unknown) => {
    loading = undefined
    throw error
  }))
}

async function build(): Promise<TextTools> {
  const [{ default: winkNLP }, { default: model }, { default: bm25Vectorizer }] = await Promise.all([
    import('wink-nlp'),
    import('wink-eng-lite-web-model'),
    import('wink-nlp/utilities/bm25-vectorizer.js'),
  ])
  const nlp = winkNLP(model, ['sbd', 'pos'])
  const its = nlp.its
  return {
    sentences: (text) => (nlp.readDoc(text).sentences().out() as string[]).map((s) => s.trim()).filter((s) => s !== ''),
    terms: (text) => {
      const out: string[] = []
      nlp
        .readDoc(text.toLowerCase())
        .tokens()
        .each((t: ItemToken) => {
          if (t.out(its.type) !== 'word' && t.out(its.type) !== 'number') return
          const pos = t.out(its.pos) as string
          // wink's stop list is a search engine's: it drops "move", "show", "first"... Function
          // words are left out by their part of speech; a stop-listed noun or verb stays, and the
          // inverse document frequency makes it count little when many issues use it.
          if (!CONTENT_POS.has(pos) || (t.out(its.stopWordFlag) && pos !== 'NOUN' && pos !== 'VERB')) return
          // wink's typings give `its.stem` an extra parameter its token `out` does not declare.
          const stem = t.out(its.stem as never) as string
          if (stem.length > 1 && TERM.test(stem) && !CHATTER.has(stem)) out.push(stem)
        })
      return out
    },
    weigh: (docs, background = BACKGROUND_ISSUES) => {
      // BM25 with its usual parameters (k = 1: idf = log((N + 1) / (n + 0.5)) for a term n of the
      // N issues hold): a term most issues of the organization use ("page", "space") weighs
      // little, one a few issues share weighs much, and this adjusts itself as issues come in.
      const bm25 = bm25Vectorizer({ k: 1, k1: 1.2, b: 0.75, norm: 'l2' })
      // BM25 refuses to learn from an empty bag: an issue without terms weighs nothing.
      const learned = docs.filter((d) => d.length > 0)
      if (learned.length === 0) return docs.map(() => ({}))
      learned.forEach((d) => bm25.learn([...d]))
      const length = Math.max(1, Math.round(learned.reduce((sum, d) => sum + d.length, 0) / learned.length))
      // "\u0000" never starts a term (TERM): these share nothing with the issues.
      for (let k = 0; k < background; k++) bm25.learn(new Array<string>(length).fill(`\u0000background:${k}`))
      return docs.map((d) => (d.length > 0 ? bm25.bowOf([...d]) : {}))
    },
  }
}
