import type { ProcessError } from './parse.js'

/**
 * Where a schema error of @readme/openapi-parser is. Its messages say what is wrong on their first
 * line (`REQUIRED must have required property 'responses'`), the allowed values of an enum on the
 * second (`(http, https, ws, wss)`), then a code frame of its own rendering of the document,
 * `JSON.stringify(document, null, 2)`, with a `>` on the line at fault. The parser keeps no path,
 * so the frame's line is mapped back to the node it renders: the same rendering is made here with
 * the path of each line, and a line is trusted only when its text is the frame's (otherwise the
 * message keeps what it says, without a place). A `$ref` that resolves nowhere is placed where
 * the document uses it.
 */

type Path = ReadonlyArray<string | number>

interface Line {
  text: string
  path: Path
}

const skipped = (v: unknown) => v === undefined || typeof v === 'function' || typeof v === 'symbol'

/** `JSON.stringify(value, null, 2)` line by line, each line with the path of the value it opens (a closing line: its container's). */
export function renderLines(value: unknown): Line[] {
  const out: Line[] = []
  const visit = (v: unknown, path: Path, depth: number, lead: string, trail: string): void => {
    const pad = '  '.repeat(depth)
    if (v !== null && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON !== 'function') {
      const array = Array.isArray(v)
      const entries: Array<[string | number, unknown]> = array
        ? v.map((item, i) => [i, skipped(item) ? null : item])
        : Object.entries(v as Record<string, unknown>).filter(([, item]) => !skipped(item))
      if (entries.length === 0) {
        out.push({ text: `${pad}${lead}${array ? '[]' : '{}'}${trail}`, path })
        return
      }
      out.push({ text: `${pad}${lead}${array ? '[' : '{'}`, path })
      entries.forEach(([key, item], i) => visit(item, [...path, key], depth + 1, array ? '' : `${JSON.stringify(key)}: `, i < entries.length - 1 ? ',' : ''))
      out.push({ text: `${pad}${array ? ']' : '}'}${trail}`, path })
      return
    }
    out.push({ text: `${pad}${lead}${JSON.stringify(v)}${trail}`, path })
  }
  visit(value, [], 0, '', '')
  return out
}

/** A path as `paths./pets.get.parameters[0].in` (a key with `.`, `[`, `]`, a quote or a space is written `["key"]`). */
export function formatPath(path: Path): string {
  let out = ''
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`
    else if (/^[^.[\]"\s]+$/.test(key)) out += out === '' ? key : `.${key}`
    else out += `[${JSON.stringify(key)}]`
  }
  return out
}

/** Turns the parser's messages into located ones; renders the document once, on the first message that needs it. */
export function createLocator(document: unknown): (message: string) => ProcessError {
  let lines: Line[] | undefined
  const pathAt = (line: number, text: string): Path | undefined => {
    lines ??= renderLines(document)
    const rendered = lines[line - 1]
    return rendered && rendered.text.trimEnd() === text.trimEnd() ? rendered.path : undefined
  }
  return (message) => {
    // `Missing $ref pointer "#/components/schemas/Dog". Token ...`: the parser names the pointer, not where it is used.
    const missing = /^Missing \$ref pointer "(.+?)"/.exec(message)
    if (missing) {
      const path = refPath(document, missing[1]!, [])
      const first = message.split('\n')[0]!.trim()
      return { message: path ? `\`${path.length === 0 ? '(document)' : formatPath(path)}\`: ${first}` : first, code: 'UNRESOLVED_REF' }
    }
    return locate(message, pathAt)
  }
}

/** The first object (depth first) whose `$ref` is `pointer`. */
function refPath(value: unknown, pointer: string, path: Path): Path | undefined {
  if (value === null || typeof value !== 'object') return undefined
  if (!Array.isArray(value) && (value as Record<string, unknown>).$ref === pointer) return path
  for (const [key, item] of Array.isArray(value) ? value.entries() : Object.entries(value)) {
    const found = refPath(item, pointer, [...path, key])
    if (found) return found
  }
  return undefined
}

function locate(message: string, pathAt: (line: number, text: string) => Path | undefined): ProcessError {
  const lines = message.split('\n')
  const first = lines[0]!.trim()
  // `REQUIRED must ...`, `ADDITIONAL PROPERTY must ...`: the keyword becomes the error's code.
  const head = /^([A-Z][A-Z ]*[A-Z]) (.+)$/.exec(first)
  if (!head) return { message: first }
  const code = head[1]!.replace(/ /g, '_')
  let what = head[2]!
  const allowed = /^\((.*)\)$/.exec(lines[1]?.trim() ?? '')?.[1]
  if (code === 'ENUM' && allowed !== undefined) what = `${what}: ${allowed}`
  // The frame's line at fault (`>  9 |       "get": {`) and its pointer (`|    ^ Did you mean query here?`).
  const at = lines.map((l) => /^>\s*(\d+) \| ?(.*)$/.exec(l)).find(Boolean)
  const hint = lines.map((l) => /^\s*\|\s*\^+\s*(.+)$/.exec(l)?.[1]).find(Boolean)
  const suggestion = /^Did you mean (.+) here\?$/.exec(hint?.trim() ?? '')?.[1]
  if (suggestion !== undefined) what = `${what} (did you mean ${suggestion}?)`
  const path = at ? pathAt(Number(at[1]), at[2]!) : undefined
  if (path === undefined) return { message: hint && suggestion === undefined ? `${what} (${hint.trim()})` : what, code }
  return { message: `\`${path.length === 0 ? '(document)' : formatPath(path)}\`: ${what}`, code }
}
