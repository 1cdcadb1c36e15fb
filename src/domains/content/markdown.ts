/**
 * Markdown (CommonMark with GFM and YAML frontmatter) to the official document and back, through
 * unified/remark: markdown is parsed to mdast and written from mdast, never taken apart by hand.
 *
 * Choices where the two models differ:
 * - a hard line break is a "\n" in a leaf's text; a soft one is a space;
 * - headings deeper than `###` become heading-3 (the document has three levels);
 * - a paragraph of images alone is an `images` block; images among text are `inline-image`s;
 * - a `file` block is written as a link to `/files/<id>` alone in its paragraph, which reads back
 *   as that link (an inline link with a file ref), not as a file block;
 * - a GFM table is a `table` block of text columns whose cells name fragments holding a paragraph;
 * - a blockquote opening with a GitHub alert marker (`> [!NOTE]`) is a `hint`;
 * - where the schema forbids a block (code in a blockquote, a table in a quote), its content is
 *   kept as blocks allowed there (code-marked lines, one paragraph per row);
 * - a paragraph with no text is not written (markdown has none); an empty list item keeps one.
 */
import type { Root } from 'mdast'
import type { Position } from 'unist'
import { onceLoaded, yamlLibrary } from './markdown-libs.js'
import { emptyDocument, type DocBlock, type JsonDocument } from './document.js'
import { documentLimitProblem, MAX_DOCUMENT_DEPTH } from './document-schema.js'
import { blocksFrom, collectDefinitions, type BlockExtension } from './markdown/blocks-from.js'
import { blocksTo, type SerializeOptions } from './markdown/blocks-to.js'
import { markdownBudget, withinBudget } from './markdown/budget.js'
import { MarkdownError } from './markdown/error.js'
import { nodeText } from './markdown/nodes.js'
import { unsafeLinkTarget, withoutUnsafeLinks } from './link-targets.js'

export { blockText, documentRefs, documentText, type ContentRef } from './markdown/refs.js'
export type { SerializeOptions } from './markdown/blocks-to.js'
export type { BlockExtension } from './markdown/blocks-from.js'
export { MarkdownError } from './markdown/error.js'

/**
 * More markdown syntax for one use (Git Sync reads GitBook's `{% hint %}` and `<figure>`): its own
 * parser (CommonMark, GFM and frontmatter with extensions), and the blocks it makes of the nodes it
 * adds, asked before the shared rules. Plain bodies of the API use none.
 */
export interface MarkdownExtensions {
  /** The markdown as mdast, frontmatter included. */
  parse(markdown: string): Root
  /** Blocks for a node, before the shared rules; undefined leaves the node to them. */
  block?: BlockExtension
}

export interface MarkdownImport {
  document: JsonDocument
  title?: string
  frontmatter: Record<string, unknown>
}

// Made on first use: unified and remark load on first use (markdown-libs.ts).
const parser = onceLoaded(({ unified, remarkParse, remarkGfm, remarkFrontmatter }) =>
  unified().use(remarkParse).use(remarkGfm).use(remarkFrontmatter, ['yaml']).use(markdownBudget),
)
// For text with no frontmatter (a comment): a leading `---` block is markdown there, never YAML.
const plainParser = onceLoaded(({ unified, remarkParse, remarkGfm }) => unified().use(remarkParse).use(remarkGfm).use(markdownBudget))

// Thematic breaks as `***`: a document opening with `---` would read back as frontmatter.
/** How markdown is written (remark-stringify's options), for writers with more syntax to write alike. */
export const MARKDOWN_STYLE = {
  bullet: '-',
  emphasis: '*',
  strong: '*',
  rule: '*',
  fence: '`',
  fences: true,
  listItemIndent: 'one',
  incrementListMarker: true,
} as const
const writer = onceLoaded(({ unified, remarkStringify, remarkGfm }) => unified().use(remarkStringify, MARKDOWN_STYLE).use(remarkGfm))

/** The frontmatter's mapping; anything else there (a scalar, a list, nothing) counts as none. */
function readFrontmatter(value: string): Record<string, unknown> {
  let parsed: unknown
  try {
    parsed = yamlLibrary.get().parse(value)
  } catch (error) {
    throw new MarkdownError(`has frontmatter that is not valid YAML (${(error as Error).message.split('\n')[0]})`)
  }
  return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {}
}

/**
 * Parse markdown (with GFM and YAML frontmatter). `newKey` gives each block a `key` (default:
 * none). A frontmatter `title` is the title; otherwise, with `takeTitle` (default), a leading
 * `# Heading` with some text is, and leaves the document. Markdown that cannot be stored (frontmatter that is not
 * YAML, nesting too deep to parse, a document beyond the limits of document-schema.ts, a link to a
 * `javascript:` URL unless `unsafeLinks: 'drop'`) throws a MarkdownError.
 * With `frontmatter: false` there is no frontmatter: the text is all markdown.
 */
export function markdownToDocument(markdown: string, options: MarkdownOptions = {}): MarkdownImport {
  const deep = tooDeepLine(markdown)
  if (deep !== undefined)
    throw new MarkdownError(`nests more than ${MAX_LINE_NESTING} quotes or lists on line ${deep} (a document nests at most ${MAX_DOCUMENT_DEPTH} levels)`)
  let result: MarkdownImport
  try {
    const { document, title, frontmatter } = convertMarkdown(markdown, options)
    result = title === undefined ? { document, frontmatter } : { document, title, frontmatter }
  } catch (error) {
    // The parser and the conversion recurse once per level of nesting (`>>>>…`, lists in lists).
    if (error instanceof RangeError) throw new MarkdownError('nests too deeply to be read')
    throw error
  }
  const problem = documentLimitProblem(result.document)
  if (problem) throw new MarkdownError(`gives a document beyond the limits: it ${problem}`)
  if (options.unsafeLinks === 'drop') return { ...result, document: withoutUnsafeLinks(result.document) }
  const unsafe = unsafeLinkTarget(result.document)
  if (unsafe) throw new MarkdownError(`links to \`${unsafe.url.length > 100 ? `${unsafe.url.slice(0, 100)}…` : unsafe.url}\`, which ${unsafe.problem}`)
  return result
}

/**
 * Quotes and list items opened on one line (`>>>>…`, `- - - x`) nest two levels of the document
 * each: past 64 the document is beyond its limits anyway, and the parser's cost grows with the
 * square of the nesting, so such a line is refused before parsing.
 */
const MAX_LINE_NESTING = MAX_DOCUMENT_DEPTH / 2

/** The 1-based number of the first line opening more than MAX_LINE_NESTING quotes or lists, if any. */
function tooDeepLine(markdown: string): number | undefined {
  let line = 1
  for (let start = 0; start <= markdown.length; line++) {
    let end = markdown.indexOf('\n', start)
    if (end < 0) end = markdown.length
    let pos = start
    let markers = 0
    while (pos < end) {
      const c = markdown[pos]!
      if (c === ' ' || c === '\t') pos++
      else if (c === '>') {
        markers++
        pos++
      } else if ((c === '-' || c === '*' || c === '+') && (markdown[pos + 1] === ' ' || markdown[pos + 1] === '\t')) {
        markers++
        pos += 2
      } else {
        const ordered = /^\d{1,9}[.)][ \t]/.exec(markdown.slice(pos, Math.min(end, pos + 11)))
        if (!ordered) break
        markers++
        pos += ordered[0].length
      }
    }
    // A run of `- - - -` alone is a thematic break, not lists.
    if (markers > MAX_LINE_NESTING && !/^[-*_ \t]*$/.test(markdown.slice(pos, end))) return line
    start = end + 1
  }
  return undefined
}

export interface MarkdownOptions {
  newKey?: () => string
  takeTitle?: boolean
  frontmatter?: boolean
  extensions?: MarkdownExtensions
  /**
   * A link, image or embed whose target may not be one (`javascript:`, `data:`...: see
   * common/link-target.ts): a MarkdownError saying which (`refuse`, the default: markdown a
   * request sends), or dropped, its text kept (`drop`: markdown a repository holds, or stored
   * before, read again; content/link-targets.ts).
   */
  unsafeLinks?: 'refuse' | 'drop'
}

/**
 * A piece of the source that gave blocks: a top-level node of the markdown (after the frontmatter
 * and the title), its offsets in the text and the blocks it made. Nodes that make no block (link
 * reference definitions, comments an extension drops) are no unit: they are the text between units.
 */
export interface MarkdownUnit {
  start: number
  end: number
  blocks: DocBlock[]
}

/** The markdown read with where each part came from: frontmatter and title offsets, and the units of the body. */
export interface MarkdownSource extends MarkdownImport {
  yaml?: { start: number; end: number }
  titleAt?: { start: number; end: number }
  units: MarkdownUnit[]
}

const offsets = (node: { position?: Position | undefined }): { start: number; end: number } | undefined =>
  node.position?.start.offset !== undefined && node.position.end.offset !== undefined
    ? { start: node.position.start.offset, end: node.position.end.offset }
    : undefined

function convertMarkdown(markdown: string, options: MarkdownOptions): MarkdownSource {
  const tree = withinBudget(() =>
    options.extensions ? options.extensions.parse(markdown) : ((options.frontmatter === false ? plainParser : parser)().parse(markdown) as Root),
  )
  const yaml = tree.children[0]?.type === 'yaml' ? tree.children[0] : undefined
  const frontmatter = yaml ? readFrontmatter(yaml.value) : {}
  const ctx = { newKey: options.newKey, definitions: collectDefinitions(tree), ...(options.extensions?.block && { extension: options.extensions.block }) }
  let children = yaml ? tree.children.slice(1) : tree.children
  let title = typeof frontmatter.title === 'string' || typeof frontmatter.title === 'number' ? String(frontmatter.title) : undefined
  const first = children[0]
  let titleAt: { start: number; end: number } | undefined
  if (title === undefined && options.takeTitle !== false && first?.type === 'heading' && first.depth === 1) {
    // A heading with no text (`# ` alone, or only an image) gives no title and stays in the body.
    const text = blocksFrom([first], { definitions: ctx.definitions }, 'document').map(nodeText).join('')
    if (text.trim() !== '') {
      title = text
      titleAt = offsets(first)
      children = children.slice(1)
    }
  }
  // blocksFrom of the children, node by node (it is a flatMap), so each unit knows its blocks.
  const units: MarkdownUnit[] = []
  const nodes: DocBlock[] = []
  for (const node of children) {
    const blocks = blocksFrom([node], ctx, 'document')
    const at = offsets(node)
    if (blocks.length && at) units.push({ ...at, blocks })
    nodes.push(...blocks)
  }
  const document: JsonDocument = { ...emptyDocument(), nodes }
  const yamlAt = yaml && offsets(yaml)
  return { document, frontmatter, units, ...(title !== undefined && { title }), ...(yamlAt && { yaml: yamlAt }), ...(titleAt && { titleAt }) }
}

/**
 * The markdown read as markdownToDocument reads it (no limit or link check: for comparing texts,
 * not storing them), with where each block came from (Git Sync writes a changed page back from
 * the parts of its file that did not change).
 */
export function readMarkdownSource(markdown: string, options: MarkdownOptions = {}): MarkdownSource {
  return convertMarkdown(markdown, options)
}

/** Serialize a document back to markdown (GFM). */
export function documentToMarkdown(document: JsonDocument, options: SerializeOptions = {}): string {
  const tree = documentToMdast(document, options)
  return tree.children.length ? writer().stringify(tree) : ''
}

/** A document as mdast (for a writer with more syntax: its blocks through `options.block`). */
export function documentToMdast(document: JsonDocument, options: SerializeOptions = {}): Root {
  return { type: 'root', children: blocksTo(document.nodes, options) }
}
