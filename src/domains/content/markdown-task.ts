import type { JsonDocument } from './document.js'
import { loadMarkdown } from './markdown-libs.js'
import { documentToMarkdown, MarkdownError, markdownToDocument, type MarkdownImport, type MarkdownOptions } from './markdown.js'

/**
 * Reading markdown as a task of the offload (core/offload.ts): on a worker thread in Node servers,
 * so a large document does not hold the event loop. A worker cannot call the API's `ids`, so the
 * parse writes numbered placeholders where block keys and table ids go; `withKeys` then puts ids
 * made by the API in their place, in the order the parse asked for them (the ids a parse on the
 * API's own thread would have made).
 */
export interface ReadMarkdownInput {
  markdown: string
  /** A leading `# Heading` is the title (see markdownToDocument). @default true */
  takeTitle?: boolean
  /** Whether a leading `---` block is YAML frontmatter. @default true */
  frontmatter?: boolean
  /** Give blocks keys (placeholders until `withKeys`). @default false */
  keys?: boolean
  /** What a link to another scheme than http(s), mailto or a relative URL does (see markdownToDocument). @default 'refuse' */
  unsafeLinks?: 'refuse' | 'drop'
}

/** The import, or why the markdown cannot be stored (a MarkdownError's message). */
export type ReadMarkdownOutput = { ok: true; value: MarkdownImport; keys: number } | { ok: false; message: string }

const placeholder = (n: number) => `\u0000k${n}\u0000`

export async function readMarkdownTask(input: ReadMarkdownInput): Promise<ReadMarkdownOutput> {
  // unified and remark load on first use (markdown-libs.ts); in a worker thread too.
  await loadMarkdown()
  let keys = 0
  const options: MarkdownOptions = {
    ...(input.takeTitle !== undefined && { takeTitle: input.takeTitle }),
    ...(input.frontmatter !== undefined && { frontmatter: input.frontmatter }),
    ...(input.keys && { newKey: () => placeholder(keys++) }),
    ...(input.unsafeLinks && { unsafeLinks: input.unsafeLinks }),
  }
  try {
    return { ok: true, value: markdownToDocument(input.markdown, options), keys }
  } catch (error) {
    if (error instanceof MarkdownError) return { ok: false, message: error.message }
    throw error
  }
}

/**
 * The document of a task's import with its `count` placeholders replaced by `newId()` ids, made
 * in placeholder order. Placeholders stand where the parse put keys: block `key`s, and table ids
 * (strings, and keys of the table's objects). The document is the task's own (a fresh copy from
 * the worker, or made for this call): it is changed in place.
 */
export function withKeys(document: JsonDocument, count: number, newId: () => string): JsonDocument {
  if (count === 0) return document
  const ids = Array.from({ length: count }, () => newId())
  const swap = (s: string): string => {
    if (s.charCodeAt(0) !== 0 || s.charCodeAt(1) !== 107 /* k */ || s.charCodeAt(s.length - 1) !== 0) return s
    const id = ids[Number(s.slice(2, -1))]
    return id ?? s
  }
  const visit = (value: unknown): unknown => {
    if (typeof value === 'string') return swap(value)
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) value[i] = visit(value[i])
      return value
    }
    if (value === null || typeof value !== 'object') return value
    const obj = value as Record<string, unknown>
    let renamed = false
    for (const key in obj) {
      obj[key] = visit(obj[key])
      if (key.charCodeAt(0) === 0) renamed = true
    }
    // Keys in their order, renamed (a table's columns and records are keyed by their ids).
    return renamed ? Object.fromEntries(Object.entries(obj).map(([k, v]) => [swap(k), v])) : obj
  }
  return visit(document) as JsonDocument
}

export interface WriteMarkdownInput {
  document: JsonDocument
  /** The names of the files the document's file blocks show, by file id (the link text of a file). */
  fileNames?: Readonly<Record<string, string>>
}

/** Writing a document as markdown as a task of the offload: the markdown, or why the document cannot be written. */
export type WriteMarkdownOutput = { ok: true; markdown: string } | { ok: false; message: string }

export async function writeMarkdownTask(input: WriteMarkdownInput): Promise<WriteMarkdownOutput> {
  await loadMarkdown()
  const names = input.fileNames
  try {
    return { ok: true, markdown: documentToMarkdown(input.document, names ? { fileName: (id) => (Object.hasOwn(names, id) ? names[id] : undefined) } : {}) }
  } catch (error) {
    // A document the conversion cannot read (a stored comment body from an older state...).
    return { ok: false, message: (error as Error).message }
  }
}
