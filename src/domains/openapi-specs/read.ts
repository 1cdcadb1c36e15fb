import type { Document, LineCounter } from 'yaml'
import { yamlLibrary } from '../content/markdown-libs.js'
import { jsonValue } from './json-value.js'
import { runAtOnce, STEP, type Steps } from './steps.js'
import { yamlValue } from './yaml-value.js'

/**
 * Reading a spec's text. JSON is read by json-value.ts, in slices; YAML (and a text that looks
 * like JSON but is not strict JSON: JSON is YAML too) by `yaml`, which reports the line and
 * column of a mistake, driven lexeme by lexeme so the reading yields between slices; only the
 * composition of the one document (the syntax tree into nodes) is a single call. The checks yaml
 * would do in quadratic time are done in yaml-value.ts instead (duplicate keys, aliases), and
 * nesting is limited (`MAX_DEPTH`: yaml's composer, and what reads the document after it, recurse
 * once per level).
 */

export interface ProcessError {
  message: string
  code?: string
}

export type Read = { document: unknown } | { errors: ProcessError[] }

/** How deep a document may nest (maps and sequences within each other). */
export const MAX_DEPTH = 256

/** How many nodes the document may hold once its aliases are counted at their anchor's size. */
export const nodeLimit = (text: string) => Math.max(2 * text.length, 100_000)

/** JSON when the text opens like a JSON object or array, YAML otherwise (the raw content's `format`). */
export function formatOf(text: string): 'json' | 'yaml' {
  return /^\s*[{[]/.test(text) ? 'json' : 'yaml'
}

/** `message at line L, column C`, as yaml words a place. */
function placed(message: string, offset: number, lines: LineCounter): string {
  if (offset < 0) return message
  const { line, col } = lines.linePos(offset)
  return `${message} at line ${line}, column ${col}`
}

/** The same, for a place in a JSON text (counting its lines only when there is an error to place). */
function placedInText(message: string, offset: number, text: string): string {
  let line = 1
  for (let at = text.indexOf('\n'); at >= 0 && at < offset; at = text.indexOf('\n', at + 1)) line++
  return `${message} at line ${line}, column ${offset - (text.lastIndexOf('\n', offset - 1) + 1) + 1}`
}

/**
 * The document of a spec's text, or what is wrong with the text (each with its line and column).
 * A text that looks like JSON is read as JSON first (json-value.ts: in slices, and much faster);
 * when it is not strict JSON, as YAML, whose errors say what is wrong.
 */
export function* readDocument(text: string): Steps<Read> {
  if (formatOf(text) === 'json') {
    const json = yield* jsonValue(text, MAX_DEPTH)
    if (json && 'error' in json) return { errors: [{ message: placedInText(json.error.message, json.error.offset, text), code: json.error.code }] }
    if (json) return { document: json.value }
  }
  return yield* readYaml(text)
}

function* readYaml(text: string): Steps<Read> {
  // yaml loads on first use: a check (processSpecText) and the operations reading a version's content load it first.
  const { Composer, Lexer, LineCounter, Parser, YAMLParseError } = yamlLibrary.get()
  const lines = new LineCounter()
  const parser = new Parser(lines.addNewLine)
  // The line starting at 0 (yaml's Parser.parse does this before its first lexeme).
  lines.addNewLine(0)
  // Duplicate keys are found by yaml-value.ts in linear time (the composer's check is quadratic).
  const composer = new Composer({ uniqueKeys: false })
  let doc: Document.Parsed | undefined
  const take = (docs: Iterable<Document.Parsed>) => {
    for (const next of docs) {
      if (!doc) doc = next
      else {
        doc.errors.push(
          new YAMLParseError([next.range[0], next.range[1]], 'MULTIPLE_DOCS', 'The text holds more than one YAML document: a spec is one document'),
        )
        break
      }
    }
  }
  let steps = 0
  for (const lexeme of new Lexer().lex(text)) {
    for (const token of parser.next(lexeme)) take(composer.next(token))
    if (parser.stack.length > MAX_DEPTH) {
      return { errors: [{ message: placed(`The document nests more than ${MAX_DEPTH} levels deep`, parser.offset, lines), code: 'YAML_TOO_DEEP' }] }
    }
    if (++steps % STEP === 0) yield
  }
  for (const token of parser.end()) take(composer.next(token))
  take(composer.end(true, text.length))
  // An empty text still makes a document (forceDoc), with null contents.
  if (doc!.errors.length > 0) return { errors: doc!.errors.map((e) => ({ message: placed(e.message, e.pos[0], lines), code: `YAML_${e.code}` })) }
  const got = yield* yamlValue(doc!, nodeLimit(text))
  if ('error' in got) return { errors: [{ message: placed(got.error.message, got.error.offset, lines), code: got.error.code }] }
  return { document: got.value }
}

/** `readDocument` at once: for a stored spec's content, read in a request. */
export function readSpecText(text: string): Read {
  return runAtOnce(readDocument(text))
}
