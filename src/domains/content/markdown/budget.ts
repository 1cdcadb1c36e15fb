import { EditMap } from 'micromark-util-edit-map'
import type { Code, Construct, Effects, Event, Extension, ParseContext, Point, State, Token, TokenizeContext } from 'micromark-util-types'
import type { Nodes, Root, Text } from 'mdast'
import type { Processor } from 'unified'
import { MarkdownError } from './error.js'

/**
 * Markdown parsed in time proportional to its length, whatever it holds. micromark (the parser
 * under remark-parse) does some of its work in time that grows with the square of the input:
 * a closing `*` or `~` looks back through every earlier event of its paragraph for an opener and
 * each one found splices the paragraph's events; a `]` looks back for its `[` (GFM footnotes) and
 * reads its link text; at every word GFM looks back for a `[` still open (autolink literals may
 * not start inside a link text); a code span or an HTML comment that never closes reads to the end
 * of its paragraph, and so does the next; each line of a paragraph whose text is cut in two
 * (`a b` with GFM) is merged by a splice of the events that follow; each list item or quote that
 * closes copies every event of the document; each lazy line (a quote's paragraph going on without
 * its `>`) walks back through its paragraph; every reference looks its definition up in a list.
 * After parsing, GFM's search for URLs in text reads a word again at each `www.` it refuses.
 * A comment of `**a` repeated, or a few thousand nested list items, held the server far longer
 * than any request may (the figures are in bench/README.md).
 *
 * The bounds are counted (never timed), so a document parses the same on any machine:
 * - the rewrite of events (micromark-util-edit-map's EditMap#consume) copies only what follows
 *   its first edit and gives the same events (`withinBudget`);
 * - definitions are looked up in a set (`fitParser`);
 * - a run of inline text (a paragraph, a heading, a table cell) reads at most MAX_INLINE_MARKUP
 *   markup characters (`* _ ~ [ ] ! \` < & \\`, line endings, autolink literals): the rest of
 *   the run is plain text, its markup kept as written, one text token per line
 *   (`tokenizeInlineBudget`);
 * - in one run, code spans fail to close at most MAX_CODE_SPAN_FAILURES times (then backticks are
 *   text), and an HTML comment, instruction, declaration or CDATA that fails to close is not
 *   tried again (none later can close either); the `]`s read at most LABEL_BYTES_PER_BYTE bytes
 *   of link text per byte of the run; a word starts at most MAX_LITERALS_PER_WORD `www.`/`http`
 *   literals (and a word with more is not searched for URLs after parsing);
 * - a quote or list item continues lazily on at most MAX_LAZY_LINES lines: beyond that the
 *   markdown is refused (a MarkdownError naming the line), there being no other reading of it.
 * Realistic markdown meets none of them (test/domains/content/markdown-budget.test.ts reads the
 * markdown of node_modules with and without them and compares the trees).
 */

/** Markup characters one run of inline text reads; more are plain text (realistic markdown stays under it: test/domains/content/markdown-budget.test.ts). */
export const MAX_INLINE_MARKUP = 2_000
/** Code spans of one run that may fail to close (each failure reads to the run's end). */
export const MAX_CODE_SPAN_FAILURES = 16
/** What the `]`s of a run may read of their link text: this many bytes per byte of the run so far, plus LABEL_ALLOWANCE. */
export const LABEL_BYTES_PER_BYTE = 16
export const LABEL_ALLOWANCE = 65_536
/** Autolink literals (`www.`, `http`) that may start in one word (each reads to the word's end). */
export const MAX_LITERALS_PER_WORD = 8
/** Lazy lines one quote or list item may have (each walks back through its paragraph). */
export const MAX_LAZY_LINES = 200

// micromark's character codes (line endings are negative).
const LINE_ENDINGS = [-5, -4, -3]
const BANG = 33
const AMPERSAND = 38
const ASTERISK = 42
const DASH = 45
const LESS_THAN = 60
const QUESTION = 63
const LEFT_BRACKET = 91
const BACKSLASH = 92
const RIGHT_BRACKET = 93
const UNDERSCORE = 95
const GRAVE = 96
const TILDE = 126
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i)
const asciiAlpha = (code: Code) => code !== null && ((code >= 65 && code <= 90) || (code >= 97 && code <= 122))

/** Inline HTML that reads until its terminator (`-->`, `?>`, `>`, `]]>`): if one fails to close, every later one of its kind in the run fails too. */
type HtmlKind = 'comment' | 'instruction' | 'declaration' | 'cdata' | 'tag'

/** What one run of inline text (a text tokenizer) has spent. */
interface InlineRun {
  /** Offset of the run's first character (of its first event, or where the guard first ran). */
  start: number
  /** Markup characters met, line endings and GFM's autolink literals. */
  markup: number
  labelBytes: number
  codeFailures: number
  failedHtml: Set<HtmlKind>
  /** The last `www.` or `http` start and how many its word has had. */
  literal?: { at: Point; count: number }
  /** Events already read by `account`. */
  checked: number
  /** An attempt (a code span, inline HTML) whose outcome `account` reads from the events that follow it. */
  pending?: { kind: HtmlKind | 'code'; offset: number }
}

// Keyed by the tokenizer's `sliceSerialize`, one function per tokenizer (`this` may be a copy of the context).
const runs = new WeakMap<TokenizeContext['sliceSerialize'], InlineRun>()

function inlineRun(context: TokenizeContext): InlineRun {
  let run = runs.get(context.sliceSerialize)
  if (!run) {
    run = { start: (context.events[0]?.[1].start ?? context.now()).offset, markup: 0, labelBytes: 0, codeFailures: 0, failedHtml: new Set(), checked: 0 }
    runs.set(context.sliceSerialize, run)
  }
  return run
}

/**
 * Read the events made since the last call (each event once): GFM's autolink literals count as
 * markup (they start at letters, not at markup characters), and the pending attempt succeeded if
 * a token of its kind starts where it started.
 */
function account(run: InlineRun, events: Event[]): void {
  const pending = run.pending
  const type = pending?.kind === 'code' ? 'codeText' : 'htmlText'
  let made = false
  for (let i = Math.min(run.checked, events.length); i < events.length; i++) {
    const [kind, token] = events[i]!
    if (kind !== 'enter') continue
    if ((token.type as string) === 'literalAutolink') run.markup++
    else if (pending && token.start.offset === pending.offset && (token.type === type || token.type === 'autolink')) made = true
  }
  run.checked = events.length
  run.pending = undefined
  if (!pending || made) return
  if (pending.kind === 'code') run.codeFailures++
  else run.failedHtml.add(pending.kind)
}

/**
 * Tried before every construct of inline text that starts at a markup character: within the
 * budget it lets the constructs try (nok); past it, it reads the character as text (`data`,
 * which micromark merges with the text around). It never starts a new token where the others
 * would not (`previous` is false), so the text is cut exactly as without it.
 */
function tokenizeInlineBudget(this: TokenizeContext, effects: Effects, ok: State, nok: State): State {
  // One closure per call (the guard runs at most words' first letter): the states below are made only when needed.
  return (code) => inlineBudgetStart(this, effects, ok, nok, code)
}

function inlineBudgetStart(context: TokenizeContext, effects: Effects, ok: State, nok: State, code: Code): State | undefined {
  const run = inlineRun(context)
  account(run, context.events)
  const spent = run.markup >= MAX_INLINE_MARKUP
  if (code !== null && code < -2) {
    if (spent) return lineThenRest(effects, ok)(code)
    run.markup++
    return nok(code)
  }
  if (spent) return restOfLine(effects, ok)(code)
  // A letter, digit, `+`, `-` or `.`: GFM's autolink literals start there, but never after a `[`
  // still open. GFM walks back through the events to find one, at every word: this reads the
  // list of open `[` instead (the text is cut as GFM would, its literals failing there).
  if (!MARKUP.has(code)) return openLabel(context) || tooManyLiterals(run, context, code) ? literal(effects, ok)(code) : nok(code)
  run.markup++
  switch (code) {
    case GRAVE:
      if (run.codeFailures >= MAX_CODE_SPAN_FAILURES) return literal(effects, ok)(code)
      run.pending = { kind: 'code', offset: context.now().offset }
      return nok(code)
    case LESS_THAN: {
      // Tags and autolinks fail for reasons of their own (and read no further than the next `<`
      // or space): only the kinds that read to a terminator are remembered.
      const htmlKind =
        (kind: HtmlKind): State =>
        (next) => {
          if (run.failedHtml.has(kind)) return literal(effects, ok)(next)
          if (kind !== 'tag') run.pending = { kind, offset: context.now().offset }
          return nok(next)
        }
      return effects.check(htmlKindProbe, (next) => htmlKind(probed)(next), htmlKind('tag'))(code)
    }
    case RIGHT_BRACKET: {
      // The link text a `]` reads (micromark slices it to look up a definition): from its `[`.
      const open = openLabel(context)
      const now = context.now().offset
      if (open && !open._inactive) run.labelBytes += now - open.end.offset
      if (run.labelBytes > LABEL_ALLOWANCE + LABEL_BYTES_PER_BYTE * (now - run.start)) return literal(effects, ok)(code)
      return nok(code)
    }
    default:
      return nok(code)
  }
}

/** One character as text. */
const literal =
  (effects: Effects, ok: State): State =>
  (code) => {
    effects.enter('data')
    effects.consume(code)
    effects.exit('data')
    return ok
  }

// Past the budget, each line is one text token (micromark splices every run of adjacent text
// tokens: one per line would make the run quadratic again): the rest of the line where the
// budget ran out, then at each line ending the line ending (micromark cuts the run back into its
// lines at line endings), the next line's indentation and the whole next line.
const isSpace = (code: Code) => code === -2 || code === -1 || code === 32

function restOfLine(effects: Effects, ok: State): State {
  const inside: State = (code) => {
    if (code === null || code < -2) {
      effects.exit('data')
      return ok(code)
    }
    effects.consume(code)
    return inside
  }
  return (code) => {
    if (code === null || code < -2) return ok(code)
    effects.enter('data')
    return inside(code)
  }
}

function lineThenRest(effects: Effects, ok: State): State {
  const indent: State = (code) => {
    if (isSpace(code)) {
      effects.consume(code)
      return indent
    }
    effects.exit('linePrefix')
    return restOfLine(effects, ok)(code)
  }
  return (code) => {
    effects.enter('lineEnding')
    effects.consume(code)
    effects.exit('lineEnding')
    return (next) => {
      if (!isSpace(next)) return restOfLine(effects, ok)(next)
      effects.enter('linePrefix')
      return indent(next)
    }
  }
}

/**
 * Whether a `www.` or `http` starting here would be one literal too many in its word. Such a
 * literal reads up to the next space or `<` (its domain, then its path), so where one fails (an
 * `_` in its last labels, say), the next start in the same word (after a `_` or a `*`) reads it
 * all again: a word of `_www.a` × n read n times. The starts of one word are counted (a word ends
 * at a space, a line ending or a `<`; reading the text between two starts costs their distance).
 */
function tooManyLiterals(run: InlineRun, context: TokenizeContext, code: Code): boolean {
  if (code !== 72 && code !== 104 && code !== 87 && code !== 119) return false
  const previous = context.previous
  const here = context.now()
  const last = run.literal
  const sameWord =
    previous !== null && previous >= 0 && previous !== 32 && last !== undefined && !/[\s<]/.test(context.sliceSerialize({ start: last.at, end: here }))
  run.literal = { at: here, count: sameWord ? last.count + 1 : 1 }
  return run.literal.count > MAX_LITERALS_PER_WORD
}

/**
 * The innermost `[` or `![` of the run not yet closed by a `]`, if any. Label starts a `]` has
 * balanced are dropped from the top of micromark's list first, as its `]` does: none is used again.
 */
function openLabel(context: TokenizeContext): Token | undefined {
  const starts = context._labelStarts
  if (!starts) return undefined
  while (starts.length > 0 && starts[starts.length - 1]!._balanced) starts.pop()
  return starts[starts.length - 1]
}

/** The kind of inline HTML a `<` opens, left in `probed` (read by effects.check, which undoes what it reads). */
let probed: HtmlKind = 'tag'
const htmlKindProbe: Construct = {
  partial: true,
  tokenize(effects, ok, nok) {
    const done = (kind: HtmlKind, code: Code): State | undefined => {
      probed = kind
      effects.exit('data')
      return ok(code)
    }
    const dash: State = (code) => done(code === DASH ? 'comment' : 'tag', code)
    const bang: State = (code) => {
      if (code === DASH) {
        effects.consume(code)
        return dash
      }
      return done(code === LEFT_BRACKET ? 'cdata' : asciiAlpha(code) ? 'declaration' : 'tag', code)
    }
    const afterLessThan: State = (code) => {
      if (code === BANG) {
        effects.consume(code)
        return bang
      }
      return done(code === QUESTION ? 'instruction' : 'tag', code)
    }
    return (code) => {
      if (code !== LESS_THAN) return nok(code)
      effects.enter('data')
      effects.consume(code)
      return afterLessThan
    }
  },
}

const inlineBudget: Construct = { name: 'inlineBudget', tokenize: tokenizeInlineBudget, previous: () => false }

/** A list of identifiers whose `includes` is a set lookup (micromark's `defined` is a list it searches at every reference). */
class Identifiers extends Array<string> {
  readonly #set = new Set<string>()
  override push(...items: string[]): number {
    for (const item of items) this.#set.add(item)
    return super.push(...items)
  }
  override includes(item: string): boolean {
    return this.#set.has(item)
  }
}

function identifiers(list: readonly string[] = []): Identifiers {
  const out = new Identifiers()
  out.push(...list)
  return out
}

interface FootnoteParseContext extends ParseContext {
  gfmFootnotes?: string[]
}

const fitted = new WeakSet<ParseContext>()

/**
 * Once per parse (from the first line's container check, before any definition or lazy line):
 * definitions in sets, and lazy lines counted as the document tokenizer marks them. A new flow
 * tokenizer starts with each new container (list item, quote): the lazy lines of one count until then.
 */
function fitParser(parser: FootnoteParseContext): void {
  if (fitted.has(parser)) return
  fitted.add(parser)
  parser.defined = identifiers(parser.defined)
  parser.gfmFootnotes = identifiers(parser.gfmFootnotes)
  let lazyLines = 0
  const createFlow = parser.flow
  parser.flow = (from) => {
    lazyLines = 0
    return createFlow(from)
  }
  parser.lazy = new Proxy(parser.lazy, {
    set(target, line, lazy: boolean) {
      if (lazy && ++lazyLines > MAX_LAZY_LINES) {
        throw new MarkdownError(
          `continues a quote or list item lazily (without its \`>\` or indentation) on more than ${MAX_LAZY_LINES} lines: line ${String(line)} is one too many (add the \`>\` or the indentation)`,
        )
      }
      target[Number(line)] = lazy
      return true
    },
  })
}

const parserFit: Construct = {
  name: 'markdownBudget',
  tokenize(effects, ok, nok) {
    fitParser(this.parser)
    return nok
  },
}

const MARKUP = new Set<Code>([BANG, AMPERSAND, ASTERISK, LESS_THAN, LEFT_BRACKET, BACKSLASH, RIGHT_BRACKET, UNDERSCORE, GRAVE, TILDE])
// GFM's autolink literals start at letters, digits and `+ - . _` (an email's first character).
const LITERAL_STARTS = [43, 45, 46, ...range(48, 57), ...range(65, 90), ...range(97, 122)]
const inlineCodes = [...LINE_ENDINGS, ...MARKUP, ...LITERAL_STARTS]

/** The micromark extension (added last, so its constructs are tried first). */
export const budgetSyntax: Extension = {
  document: { null: [parserFit] },
  text: Object.fromEntries(inlineCodes.map((code) => [code, inlineBudget])),
}

/** The unified plugin: every markdown parser of the library uses it, after its other syntax extensions. */
export function markdownBudget(this: Processor): void {
  const data = this.data()
  ;(data.micromarkExtensions ??= []).push(budgetSyntax)
  // Around the other transforms (GFM's search for URLs in text): hide crowded words first, show them after.
  const transforms = (data.fromMarkdownExtensions ??= [])
  transforms.unshift({ transforms: [hideCrowdedText] })
  transforms.push({ transforms: [showCrowdedText] })
}

/** Every text node of a tree (without recursion: a tree may nest deeper than the stack). */
function textNodes(tree: Root): Text[] {
  const out: Text[] = []
  const stack: Nodes[] = [tree]
  while (stack.length > 0) {
    const node = stack.pop()!
    if (node.type === 'text') out.push(node)
    else if ('children' in node) for (const child of node.children) stack.push(child)
  }
  return out
}

const URL_STARTS = /[\t\n\r ]|www\.|https?:\/\//gi
const HIDDEN = 'budgetText'

/**
 * After parsing, GFM looks for URLs in text with a regular expression whose path runs to the next
 * space: where a match is refused (an `_` in its domain's last labels), it searches again from the
 * next character, so a word of many `www.` or `http://` (`_www.a` × n) is read once per start.
 * A text node with a word of more than MAX_LITERALS_PER_WORD starts is hidden from that search
 * (its type changed for the time of the transforms): its URLs stay text, as micromark left them.
 */
function hideCrowdedText(tree: Root): undefined {
  for (const node of textNodes(tree)) {
    let starts = 0
    for (const [match] of node.value.matchAll(URL_STARTS)) {
      starts = match.length === 1 ? 0 : starts + 1
      if (starts > MAX_LITERALS_PER_WORD) {
        ;(node as { type: string }).type = HIDDEN
        break
      }
    }
  }
}

function showCrowdedText(tree: Root): undefined {
  const stack: Nodes[] = [tree]
  while (stack.length > 0) {
    const node = stack.pop()!
    if ((node.type as string) === HIDDEN) (node as { type: string }).type = 'text'
    else if ('children' in node) for (const child of node.children) stack.push(child)
  }
}

type Change = [number, number, Event[]]

/**
 * EditMap#consume with the same result, in time proportional to what follows the first edit
 * (micromark's copies the whole list: the document tokenizer consumes an edit map each time a
 * list item or quote closes, near the end of the document's events, which made documents of
 * many nested lists quadratic).
 */
function consumeFromFirstEdit(this: { map: Change[]; index: Map<number, Change> }, events: Event[]): undefined {
  this.map.sort((a, b) => a[0] - b[0])
  if (this.map.length === 0) return
  const first = this.map[0]![0]
  const tail: Event[] = []
  let from = first
  for (const [at, remove, add] of this.map) {
    for (let i = from; i < at; i++) tail.push(events[i]!)
    for (const event of add) tail.push(event)
    from = at + remove
  }
  for (let i = from; i < events.length; i++) tail.push(events[i]!)
  events.length = first
  for (const event of tail) events.push(event)
  this.map.length = 0
  this.index.clear()
}

/**
 * Run a parse with EditMap#consume replaced by consumeFromFirstEdit (micromark is synchronous,
 * so nothing else sees the replacement; it is put back even when the parse throws).
 */
export function withinBudget<T>(parse: () => T): T {
  const prototype = EditMap.prototype as unknown as { consume: unknown }
  const consume = prototype.consume
  prototype.consume = consumeFromFirstEdit
  try {
    return parse()
  } finally {
    prototype.consume = consume
  }
}
