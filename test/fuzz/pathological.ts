import fc from 'fast-check'

/**
 * Markdown built to be slow to parse, for every suite that sends markdown somewhere: random
 * mixtures over the alphabets parsers have been quadratic on (emphasis and strikethrough
 * delimiters, brackets, code spans, inline HTML, entities, autolinks, and line starts that open
 * and close containers, tables, setext headings, lazy lines, definitions, GitBook tags), shaped
 * the ways that make a parser's work grow with the square of the input: a short unit repeated
 * (`*a` × n), openers then closers (`[` × n then `]` × n, definitions then references), nesting
 * (`*a **b ` × n, then its closers), and seeded random mixtures. A shape is a function of the size,
 * so a test can time the same shape at several sizes (see markdown-budget.test.ts).
 */

/** Inline tokens: delimiters, brackets, code, HTML, entities, escapes, autolinks, breaks, and some text. */
export const INLINE_TOKENS = [
  '*',
  '**',
  '***',
  '_',
  '__',
  '~',
  '~~',
  '[',
  ']',
  '![',
  '](',
  '(',
  ')',
  '[^',
  ']:',
  '][',
  '`',
  '``',
  '```',
  '<',
  '>',
  '</',
  '<a ',
  '<!--',
  '-->',
  '<?',
  '?>',
  '<!x',
  '<![CDATA[',
  ']]>',
  '&',
  '&#',
  '&#x',
  ';',
  '&amp;',
  '&#123;',
  '\\',
  '"',
  "'",
  '=',
  'www.',
  'http://',
  'a@',
  '.',
  '.com',
  '|',
  '{%',
  '%}',
  '$',
  'a',
  'b',
  'a',
  ' ',
  ' ',
  '\t',
  '  \n',
  '\\\n',
  '\n',
] as const

/** Line starts: container markers, indentation, headings, table rows, list tasks, definitions. */
export const LINE_STARTS = [
  '',
  '',
  '',
  '> ',
  '>',
  '- ',
  '* ',
  '+ ',
  '1. ',
  '2) ',
  '  ',
  '   ',
  '    ',
  '\t',
  '# ',
  '###### ',
  '| ',
  '- [ ] ',
  '[^n]: ',
  '[d]: /u ',
  '> > ',
  '- > ',
  '> - ',
  '  - ',
  '    - ',
] as const

/** Whole lines: setext underlines, breaks, fences, table delimiter rows, tags, HTML blocks, blank lines. */
export const WHOLE_LINES = [
  '',
  '',
  '===',
  '---',
  '***',
  '```',
  '~~~',
  '|-|-|',
  '| --- |',
  '{% hint style="info" %}',
  '{% endhint %}',
  '{% tabs %}',
  '{% tab title="a" %}',
  '<div>',
  '</div>',
  '<!--',
  '-->',
  '<figure><img src="a.png" alt=""></figure>',
  '---\na: b\n---',
] as const

/** The same pattern at any size: `make(bytes)` is about `bytes` long. */
export interface MarkdownShape {
  /** What the shape is (printed when a property fails). */
  name: string
  make(bytes: number): string
}

const repeatTo = (unit: string, bytes: number) => (unit ? unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes) : '')

/** A small deterministic generator (mulberry32), so a mixture is the same text at every size and every run. */
function random(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const join = (parts: readonly string[]) => parts.join('')
const inlineUnit = fc.array(fc.constantFrom(...INLINE_TOKENS), { minLength: 1, maxLength: 6 }).map(join)
/** One line: a start and inline content, or a whole line, ended by a newline. */
const lineUnit = fc.oneof(
  fc
    .tuple(fc.constantFrom(...LINE_STARTS), fc.array(fc.constantFrom(...INLINE_TOKENS.filter((t) => !t.includes('\n'))), { minLength: 1, maxLength: 4 }))
    .map(([start, body]) => `${start}${join(body)}\n`),
  fc.constantFrom(...WHOLE_LINES).map((line) => `${line}\n`),
)
const blockUnit = fc.array(lineUnit, { minLength: 1, maxLength: 4 }).map(join)

/** A unit repeated: `*a*a*a…`, `> a\nb\n> a\nb\n…`. */
const repeated = (unit: fc.Arbitrary<string>) => unit.map((u): MarkdownShape => ({ name: `repeat ${JSON.stringify(u)}`, make: (bytes) => repeatTo(u, bytes) }))

/** Openers then closers: `*a ` × n then `a* ` × n, `[` × n then `]` × n, definitions then references. */
const twoPhase = (unit: fc.Arbitrary<string>) =>
  fc.tuple(unit, unit).map(([a, b]): MarkdownShape => ({
    name: `repeat ${JSON.stringify(a)} then ${JSON.stringify(b)}`,
    make: (bytes) => repeatTo(a, bytes / 2) + repeatTo(b, bytes - Math.floor(bytes / 2)),
  }))

/** Nesting: an opening unit k times, a middle, a closing unit k times (`[[[a]]]`, `*a **b … b** a*`). */
const nested = (unit: fc.Arbitrary<string>) =>
  fc.tuple(unit, unit, unit).map(([open, middle, close]): MarkdownShape => ({
    name: `nest ${JSON.stringify(open)} ${JSON.stringify(middle)} ${JSON.stringify(close)}`,
    make: (bytes) => {
      const k = Math.max(1, Math.floor((bytes - middle.length) / Math.max(1, open.length + close.length)))
      return open.repeat(k) + middle + close.repeat(k)
    },
  }))

/** A seeded random mixture over some tokens, in weighted proportions (the seed makes it the same at every size). */
const mixture = (tokens: readonly string[]) =>
  fc.tuple(fc.subarray([...tokens], { minLength: 2, maxLength: 10 }), fc.integer()).map(([chosen, seed]): MarkdownShape => ({
    name: `mixture of ${JSON.stringify(chosen)} (seed ${seed})`,
    make: (bytes) => {
      const next = random(seed)
      let out = ''
      while (out.length < bytes) out += chosen[Math.floor(next() * chosen.length)]
      return out
    },
  }))

const lines = [...LINE_STARTS.flatMap((start) => ['a', '*a', '[a', 'a]', '`a'].map((body) => `${start}${body}\n`)), ...WHOLE_LINES.map((line) => `${line}\n`)]

/** Pathological inline markdown: within paragraphs (headings, table cells), any shape. */
export const inlineShape: fc.Arbitrary<MarkdownShape> = fc.oneof(repeated(inlineUnit), twoPhase(inlineUnit), nested(inlineUnit), mixture(INLINE_TOKENS))

/** Pathological block structure: line starts and whole lines that open and close blocks, any shape. */
export const blockShape: fc.Arbitrary<MarkdownShape> = fc.oneof(repeated(blockUnit), twoPhase(blockUnit), nested(blockUnit), mixture(lines))

/** Either kind. */
export const markdownShape: fc.Arbitrary<MarkdownShape> = fc.oneof(inlineShape, blockShape)

/** Pathological markdown of at most `maxBytes` (for request fuzzing: a body field holding markdown). */
export const pathologicalMarkdown = (maxBytes: number): fc.Arbitrary<string> =>
  fc.tuple(markdownShape, fc.integer({ min: 1, max: maxBytes })).map(([shape, bytes]) => shape.make(bytes))

const WORDS = [
  'the',
  'quick',
  'brown',
  'fox',
  'jumps',
  'over',
  'a',
  'lazy',
  'dog',
  'and',
  'then',
  'reads',
  'some',
  'ordinary',
  'documentation',
  'about',
  'pages',
  'spaces',
  'with',
  'links',
]

/** Ordinary prose of about `bytes`: paragraphs of words with now and then emphasis, strong text, a link and inline code. */
export function prose(bytes: number): string {
  let out = ''
  for (let p = 0; out.length < bytes; p++) {
    const words: string[] = []
    for (let w = 0; w < 60; w++) words.push(WORDS[(p * 7 + w * 3) % WORDS.length]!)
    if (p % 3 === 0) words.push('with *emphasis*, **strong** text, a [link](https://example.com/page) and `code`.')
    out += `${words.join(' ')}.\n\n`
  }
  return out.slice(0, bytes)
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

/**
 * How many times longer `parse` takes on `text` than on `baseline` (ordinary prose of the same
 * size, say): the median of `runs` alternating timings of each, so a busy machine slows both alike.
 * A ratio, never an absolute time.
 */
export function parseCostRatio(parse: (markdown: string) => unknown, text: string, baseline: string, runs = 3): number {
  const time = (markdown: string) => {
    const start = performance.now()
    try {
      parse(markdown)
    } catch {
      // A refusal is an answer too: its time counts.
    }
    return performance.now() - start
  }
  const texts: number[] = []
  const baselines: number[] = []
  for (let i = 0; i < runs; i++) {
    baselines.push(time(baseline))
    texts.push(time(text))
  }
  return median(texts) / Math.max(median(baselines), 0.01)
}
