import type { Bow, ItemToken } from 'wink-nlp'

/**
 * The language tools of conversation processing, from wink-nlp (a maintained NLP library that runs
 * on web standards, with its English "lite web" model): sentence boundaries, word tokens with
 * stop words and parts of speech, Porter stems, BM25 weights (a TF-IDF refinement) and cosine
 * similarity of bags of words. The model is a few megabytes of JavaScript, so it is loaded on the
 * first processing, not when the API is created.
 */
export interface TextTools {
  /** A text's sentences, as written. */
  sentences(text: string): string[]
  /** What a text is about: the stems of its content words (nouns, verbs, adjectives...), stop words and support chatter left out. */
  terms(text: string): string[]
  /** BM25-weighted bags of words of `docs`, the weights learned over all of them. */
  weigh(docs: readonly (readonly string[])[]): Bow[]
  /** Cosine similarity of two bags of words, 0..1. */
  cosine(a: Bow, b: Bow): number
}

/**
 * Words every support conversation uses whatever its problem: kept out of the terms, so issues
 * are compared on what they are about ("export", "pdf", "sso"), not on how people complain.
 */
const CHATTER = new Set(
  ('error fail failur broken break bug issu problem work help pleas thank thanks hi hello hey get got tri use need want still also time today anymor ' +
    'again just way thing someth anyon know see look seem happen keep go make let like would could realli sure ok okay team support ticket question ' +
    'can cannot unabl wrong miss stuck slow when everi alway never yesterday morn week day sinc start')
    .split(' '),
)
const CONTENT_POS = new Set(['NOUN', 'PROPN', 'VERB', 'ADJ', 'NUM', 'X'])

let loading: Promise<TextTools> | undefined

/** The tools, loaded once per process. */
export function loadTextTools(): Promise<TextTools> {
  return (loading ??= build().catch((error: unknown) => {
    loading = undefined
    throw error
  }))
}

async function build(): Promise<TextTools> {
  const [{ default: winkNLP }, { default: model }, { default: bm25Vectorizer }, { default: similarity }] = await Promise.all([
    import('wink-nlp'),
    import('wink-eng-lite-web-model'),
    import('wink-nlp/utilities/bm25-vectorizer.js'),
    import('wink-nlp/utilities/similarity.js'),
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
          if (t.out(its.stopWordFlag) || !CONTENT_POS.has(t.out(its.pos) as string)) return
          // wink's typings give `its.stem` an extra parameter its token `out` does not declare.
          const stem = t.out(its.stem as never) as string
          if (stem.length > 1 && !CHATTER.has(stem)) out.push(stem)
        })
      return out
    },
    weigh: (docs) => {
      // k = 5 flattens BM25's inverse document frequency (log((N - n + 0.5) / (n + 0.5) + k)): an
      // organization's first few issues about one problem share its terms, which the default
      // k = 1 would weigh as if they were stop words; rare terms still weigh most as issues add up.
      const bm25 = bm25Vectorizer({ k: 5, k1: 1.2, b: 0.75, norm: 'none' })
      // BM25 refuses to learn from an empty bag: an issue without terms weighs nothing.
      docs.forEach((d) => d.length > 0 && bm25.learn([...d]))
      return docs.map((d) => (d.length > 0 ? bm25.bowOf([...d]) : {}))
    },
    cosine: (a, b) => similarity.bow.cosine(a, b),
  }
}
