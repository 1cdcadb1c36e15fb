import type { PDFDocument, StandardFonts, PDFFont, PDFPage as PdfLibPage } from 'pdf-lib'
import { lazyModule } from '../../core/lazy.js'
import { createSlicer, type Slicer } from '../../core/slices.js'
import type { DocBlock, DocFragment, DocNode, JsonDocument, JsonObject } from './document.js'

export interface PdfPage {
  title: string
  path: string
  depth: number
  document: JsonDocument
}

export interface PdfOptions {
  title: string
  createdAt: Date
  /** PDF pages at most, then a page saying the PDF stops there. @default MAX_PDF_PAGES */
  maxPages?: number
}

/** pdf-lib, loaded when the first PDF is made (not when the package is imported). */
const pdfLib = lazyModule('pdf-lib', () => import('pdf-lib'))

// A4 in points (pdf-lib's PageSizes.A4); the margins leave room for a printer's unprintable edge.
const PAGE_WIDTH = 595.28
const PAGE_HEIGHT = 841.89
const MARGIN = 56
const INDENT = 18
const BODY = 11
const CODE = 9.5
const LINE = 1.3
const HEADINGS: Record<string, number> = { 'heading-1': 18, 'heading-2': 15, 'heading-3': 13 }
/** Fill or stroke colours, as the operands of `rg` or `RG`. */
const BLACK = '0 0 0'
const GREY = '0.4 0.4 0.4'

interface Fonts {
  regular: PDFFont
  bold: PDFFont
  italic: PDFFont
  code: PDFFont
}
interface Run {
  text: string
  font: PDFFont
}
/** A run placed on a line, `x` from the line's left edge. */
interface Segment extends Run {
  x: number
}

const isBlock = (node: DocNode): node is DocBlock => node.object === 'block'
const record = (value: unknown): JsonObject | undefined => (value && typeof value === 'object' && !Array.isArray(value) ? (value as JsonObject) : undefined)

/** The plain text under some nodes (table cells, image captions): blocks joined by a space. */
function plain(nodes: readonly DocNode[] | undefined): string {
  return (nodes ?? [])
    .map((n) => (n.object === 'text' ? n.leaves.map((l) => l.text).join('') : plain(n.nodes)))
    .join(' ')
    .trim()
}

/**
 * A table cell: text columns hold the id of one of the block's fragments (the official
 * schema), other columns plain values; anything else shows as empty rather than as JSON.
 */
function cellText(value: unknown, fragments: ReadonlyMap<string, DocFragment>): string {
  if (typeof value === 'string') {
    const fragment = fragments.get(value)
    return fragment ? plain(fragment.nodes) : value
  }
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (Array.isArray(value)) return value.map((v) => cellText(v, fragments)).join(', ')
  const nodes = record(value)?.nodes
  return Array.isArray(nodes) ? plain(nodes as DocNode[]) : ''
}

/**
 * The header (column titles) and rows of a table block, or undefined without records. The rows
 * come as they are printed, not all at once: a table may have tens of thousands.
 */
function tableRows(block: DocBlock): { header: string[]; rows: Iterable<string[]> } | undefined {
  const data = block.data ?? {}
  const records = Object.values(record(data.records) ?? {})
    .map(record)
    .filter((r) => r !== undefined)
  if (records.length === 0) return undefined
  const definition = record(data.definition) ?? {}
  const viewColumns = record(data.view)?.columns
  const columns = Array.isArray(viewColumns)
    ? viewColumns.filter((c): c is string => typeof c === 'string')
    : Object.keys(definition).length > 0
      ? Object.keys(definition)
      : [...new Set(records.flatMap((r) => Object.keys(record(r.values) ?? {})))]
  // Records are keyed by id; their position is a fractional index string (`orderIndex`).
  const order = (r: JsonObject) => (typeof r.orderIndex === 'string' ? r.orderIndex : '')
  records.sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0))
  const header = columns.map((c) => String(record(definition[c])?.title ?? c))
  // By id once: a lookup per cell in the list would be quadratic in a large table.
  const fragments = new Map((block.fragments ?? []).map((f) => [f.fragment, f]))
  const rows = function* () {
    for (const r of records) yield columns.map((c) => cellText(record(r.values)?.[c], fragments))
  }
  return { header, rows: rows() }
}

/**
 * The pieces text wraps at: a line break, a run of spaces or a word. The classes are those the
 * text has once `encodable` (a tab is spaces, `\r\n` or `\r` a line break, any other character
 * the standard fonts lack a '?', which is no space: their charsets hold no whitespace but the
 * space and the no-break space), so pieces are cut from the text as it comes and encoded one by
 * one. At most PIECE characters each: a longer run comes in several, one after another of the
 * same kind, so no step works on a whole text of megabytes at once. PIECE / 2 characters are
 * wider than any line (no glyph is narrower than 0.19 em, at 9 pt at least), so a piece of
 * PIECE UTF-16 units or more is split like any word longer than a line, or dropped like any run
 * of spaces wider than a line, without measuring it.
 */
const PIECE = 1024
const PIECES = new RegExp(String.raw`(\r\n?|\n)|([ \t\u00a0]{1,${PIECE}})|[^ \t\u00a0\r\n]{1,${PIECE}}`, 'gu')
type PieceKind = 'break' | 'space' | 'word'

function* pieces(text: string): Generator<{ kind: PieceKind; text: string }> {
  for (const m of text.matchAll(PIECES)) yield { kind: m[1] !== undefined ? 'break' : m[2] !== undefined ? 'space' : 'word', text: m[0] }
}

/**
 * The most PDF pages one PDF has: the content limits bound a page of a change request, not how
 * many pages it has, nor how many lines a text of line breaks makes. Past it, the PDF ends with a
 * note saying so.
 */
export const MAX_PDF_PAGES = 10_000

/** Thrown by the layout when the PDF has its most pages and needs one more. */
class PageLimit extends Error {}

/** A number as a content stream writes it: at most 3 decimals, never an exponent (|n| < 1e21 here). */
const num = (n: number) => String(Math.round(n * 1000) / 1000)

/**
 * Lays blocks out top to bottom, starting a new PDF page whenever the next line does not fit.
 * A page's content stream is written here as text, and compressed into its final bytes as soon
 * as the page is full: pdf-lib's drawing methods would keep every operator of every page as
 * objects until `save` (about 100 KB of memory a page), and compress them all at once there.
 */
class Layout {
  private page: PdfLibPage | undefined
  private pages = 0
  /** The most pages, until the note saying the PDF stops there. */
  private limit: number
  private y = 0
  /** The content stream of the page being drawn. */
  private content = ''
  /** The page's resource name of each font it uses. */
  private fontKeys = new Map<PDFFont, string>()
  /** A list item's bullet or number, drawn left of the item's first line of text. */
  private prefix: Run | undefined
  private readonly charsets = new Map<PDFFont, Set<number>>()

  constructor(
    private readonly doc: PDFDocument,
    private readonly fonts: Fonts,
    /** The layout yields to the event loop between pieces of text once a slice has run long enough. */
    private readonly slicer: Slicer,
    private readonly maxPages: number,
  ) {
    this.limit = maxPages
  }

  newPage(): void {
    this.finishPage()
    if (this.pages >= this.limit) throw new PageLimit()
    this.pages++
    this.page = this.doc.addPage([PAGE_WIDTH, PAGE_HEIGHT])
    this.y = PAGE_HEIGHT - MARGIN
  }

  /** The content of the page drawn so far, compressed into its stream (nothing more is drawn on the page). */
  finishPage(): void {
    if (!this.page || !this.content) return
    const context = this.doc.context
    this.page.node.addContentStream(context.register(context.flateStream(this.content)))
    this.content = ''
    this.fontKeys.clear()
  }

  /** Ends a PDF that reached its most pages with a page saying so. */
  async stopped(): Promise<void> {
    this.limit = Infinity
    this.prefix = undefined
    this.newPage()
    await this.note(`[This PDF stops here: a PDF holds at most ${this.maxPages} pages. Ask for the PDF of one page (\`page\`) to print the rest.]`, 0)
  }

  async title(text: string, path: string, depth: number): Promise<void> {
    // Nested pages get slightly smaller titles, so the outline shows in print too.
    await this.text([{ text, font: this.fonts.bold }], 22 - 2 * Math.min(depth, 3), 0, path ? 2 : 12)
    if (path) await this.text([{ text: path, font: this.fonts.regular }], 9, 0, 12, GREY)
  }

  async blocks(nodes: readonly DocNode[] | undefined, indent: number): Promise<void> {
    for (const node of nodes ?? []) {
      if (isBlock(node)) await this.block(node, indent)
      if (this.slicer.due()) await this.slicer.maybeYield()
    }
  }

  private async block(block: DocBlock, indent: number): Promise<void> {
    const size = HEADINGS[block.type]
    if (size) {
      this.y -= size * 0.4
      return this.text(this.runs(block.nodes, 'bold'), size, indent, 4)
    }
    switch (block.type) {
      case 'paragraph':
        return this.text(this.runs(block.nodes), BODY, indent, BODY / 2)
      case 'list-unordered':
      case 'list-ordered':
      case 'list-tasks':
        return this.list(block, indent)
      case 'code':
        for (const line of block.nodes ?? []) await this.text(this.runs([line], 'code'), CODE, indent + INDENT / 2, 0)
        this.y -= BODY / 2
        return
      case 'blockquote':
      case 'hint':
        return this.blocks(block.nodes, indent + INDENT)
      case 'divider':
        return this.rule(indent)
      case 'table': {
        const table = tableRows(block)
        if (!table) return this.note('[table]', indent)
        await this.text([{ text: table.header.join(' | '), font: this.fonts.bold }], BODY, indent, 2)
        for (const cells of table.rows) await this.text([{ text: cells.join(' | '), font: this.fonts.regular }], BODY, indent, 2)
        this.y -= BODY / 2
        return
      }
      case 'images':
        return block.nodes?.some(isBlock) ? this.blocks(block.nodes, indent) : this.note('[image]', indent)
      case 'image': {
        const alt = block.data?.alt ?? block.data?.caption
        return this.note(typeof alt === 'string' && alt ? `[image: ${alt}]` : '[image]', indent)
      }
      case 'file':
        return this.note('[file]', indent)
      default: {
        // A block type this renderer does not know: keep its content rather than drop it.
        const nodes = block.nodes ?? []
        if (nodes.some(isBlock)) return this.blocks(nodes, indent)
        if (nodes.length > 0) return this.text(this.runs(nodes), BODY, indent, BODY / 2)
      }
    }
  }

  private async list(block: DocBlock, indent: number): Promise<void> {
    await this.flushPrefix(indent)
    const start = block.data?.start
    let n = typeof start === 'number' ? start : 1
    for (const item of (block.nodes ?? []).filter(isBlock)) {
      const label = block.type === 'list-ordered' ? `${n++}.` : block.type === 'list-tasks' ? (item.data?.checked ? '[x]' : '[ ]') : '•'
      this.prefix = { text: label, font: this.fonts.regular }
      await this.blocks(item.nodes, indent + INDENT)
      await this.flushPrefix(indent + INDENT)
    }
    this.y -= BODY / 2
  }

  /** An item whose content is not text (empty, or a nested list) still shows its bullet. */
  private async flushPrefix(indent: number): Promise<void> {
    if (this.prefix) await this.text([], BODY, indent, 2)
  }

  note(text: string, indent: number): Promise<void> {
    return this.text([{ text, font: this.fonts.italic }], BODY, indent, BODY / 2, GREY)
  }

  private rule(indent: number): void {
    this.room(BODY)
    this.y -= BODY / 2
    this.content += `q\n${GREY} RG\n0.5 w\n${num(MARGIN + indent)} ${num(this.y)} m\n${num(PAGE_WIDTH - MARGIN)} ${num(this.y)} l\nS\nQ\n`
    this.y -= BODY / 2
  }

  /** The runs of inline content, as the text is laid out; one font per leaf (bold and italic together print bold). */
  private *runs(nodes: readonly DocNode[] | undefined, voice: 'text' | 'bold' | 'code' = 'text'): Generator<Run> {
    for (const node of nodes ?? []) {
      if (node.object !== 'text') {
        yield* this.runs(node.nodes, voice)
        continue
      }
      for (const leaf of node.leaves) {
        const marks = new Set(leaf.marks.map((m) => m.type))
        const font =
          voice === 'code' || marks.has('code')
            ? this.fonts.code
            : voice === 'bold' || marks.has('bold')
              ? this.fonts.bold
              : marks.has('italic')
                ? this.fonts.italic
                : this.fonts.regular
        yield { text: leaf.text, font }
      }
    }
  }

  /** The piece with every character the font's WinAnsi encoding lacks (CJK, emoji...) as '?', a tab as four spaces and a `\r\n` or `\r` as `\n`. */
  private encodable(piece: string, kind: PieceKind, font: PDFFont): string {
    if (kind === 'break') return '\n'
    let charset = this.charsets.get(font)
    if (!charset) this.charsets.set(font, (charset = new Set(font.getCharacterSet())))
    let out = ''
    for (const ch of piece) out += ch === '\t' ? '    ' : charset.has(ch.codePointAt(0) ?? 0) ? ch : '?'
    return out
  }

  /** Wraps runs at the text width (breaking words longer than a line) and draws them. */
  private async text(runs: Iterable<Run>, size: number, indent: number, after: number, color = BLACK): Promise<void> {
    const left = MARGIN + indent
    const width = PAGE_WIDTH - MARGIN - left
    let line: Segment[] = []
    let x = 0
    let wrapped = false
    /** Draws the line; `wrapping` says whether the next line continues this one. */
    const flush = (wrapping = false) => {
      this.room(size * LINE)
      const baseline = this.y - size
      const prefix = this.prefix
      if (prefix) {
        const w = prefix.font.widthOfTextAtSize(prefix.text, size)
        this.draw(prefix.text, prefix.font, { x: left - w - 4, y: baseline, size, color })
        this.prefix = undefined
      }
      for (const s of line) this.draw(s.text, s.font, { x: left + s.x, y: baseline, size, color })
      this.y -= size * LINE
      line = []
      x = 0
      wrapped = wrapping
    }
    const put = (text: string, font: PDFFont, w: number) => {
      const last = line[line.length - 1]
      if (last && last.font === font) last.text += text
      else line.push({ text, font, x })
      x += w
    }
    for (const run of runs) {
      let previous: PieceKind | undefined
      for (const { kind, text } of pieces(run.text)) {
        // A piece of the same kind as the one before is the rest of a run longer than PIECE.
        const rest = kind === previous
        previous = kind
        const piece = this.encodable(text, kind, run.font)
        if (kind === 'break') flush()
        else if (kind === 'space') {
          // Spaces at a wrap point are dropped; leading ones (code indentation) are kept.
          const w = rest || text.length >= PIECE ? Infinity : run.font.widthOfTextAtSize(piece, size)
          if ((line.length > 0 || !wrapped) && x + w <= width) put(piece, run.font, w)
        } else {
          const w = rest || text.length >= PIECE ? Infinity : run.font.widthOfTextAtSize(piece, size)
          if (w <= width) {
            if (line.length > 0 && x + w > width) flush(true)
            put(piece, run.font, w)
          } else {
            // A word wider than a whole line (a long URL) is split wherever the line is full.
            for (const part of piece) {
              const pw = run.font.widthOfTextAtSize(part, size)
              if (line.length > 0 && x + pw > width) flush(true)
              put(part, run.font, pw)
            }
          }
        }
        if (this.slicer.due()) await this.slicer.maybeYield()
      }
    }
    flush() // even with nothing to draw: an empty paragraph or code line still takes a line
    this.y -= after
  }

  /**
   * Text (in the font's encoding already) at a place of the page: a text object as pdf-lib's
   * drawText writes one, less the graphics state's save and restore (no text object changes
   * more of the state than the colour and font it sets itself).
   */
  private draw(text: string, font: PDFFont, options: { x: number; y: number; size: number; color: string }): void {
    let key = this.fontKeys.get(font)
    if (key === undefined) this.fontKeys.set(font, (key = this.page!.node.newFontDictionary(font.name, font.ref).asString()))
    this.content += `BT\n${options.color} rg\n${key} ${num(options.size)} Tf\n1 0 0 1 ${num(options.x)} ${num(options.y)} Tm\n${font.encodeText(text).toString()} Tj\nET\n`
  }

  /** A new PDF page when a line of this height would cross the bottom margin. */
  private room(height: number): void {
    if (!this.page || this.y - height < MARGIN) this.newPage()
  }
}

/**
 * How many objects pdf-lib writes between turns of the event loop in `save` (it counts objects,
 * not time): the pages' contents are compressed already (`finishPage`), so what is left per
 * object is writing a few hundred bytes, or copying one page's compressed content.
 */
const OBJECTS_PER_TICK = 200

/**
 * A PDF (bytes) of the pages, in order: each page starts on a new PDF page with its title;
 * text wraps at the page width; long pages flow onto further PDF pages.
 * Only the standard fonts are used (nothing embedded, so the code runs anywhere pdf-lib does),
 * and every date is taken from the options, so the same input gives the same bytes.
 * The work is cut into slices (core/slices.ts): the largest PDF holds the event loop no longer
 * than a small one does.
 */
export async function renderPdf(pages: PdfPage[], options: PdfOptions): Promise<Uint8Array> {
  const { PDFDocument, StandardFonts } = await pdfLib.load()
  const slicer = createSlicer()
  // updateMetadata false: pdf-lib would otherwise stamp the clock's time into the info dict.
  const doc = await PDFDocument.create({ updateMetadata: false })
  doc.setTitle(options.title)
  doc.setCreator('docs-content-api')
  doc.setProducer('docs-content-api (pdf-lib)')
  doc.setCreationDate(options.createdAt)
  doc.setModificationDate(options.createdAt)
  // The first use of a standard font in the process reads its metrics, longer than a slice's work: one slice each.
  const font = async (name: StandardFonts) => {
    const embedded = await doc.embedFont(name)
    await slicer.maybeYield()
    return embedded
  }
  const fonts = {
    regular: await font(StandardFonts.Helvetica),
    bold: await font(StandardFonts.HelveticaBold),
    italic: await font(StandardFonts.HelveticaOblique),
    code: await font(StandardFonts.Courier),
  }
  const layout = new Layout(doc, fonts, slicer, options.maxPages ?? MAX_PDF_PAGES)
  if (pages.length === 0) {
    // A PDF needs at least one page; an empty change request prints as its title alone.
    layout.newPage()
    await layout.title(options.title, '', 0)
  }
  try {
    for (const page of pages) {
      layout.newPage()
      await layout.title(page.title, page.path, page.depth)
      await layout.blocks(page.document.nodes, 0)
    }
  } catch (error) {
    if (!(error instanceof PageLimit)) throw error
    await layout.stopped()
  }
  layout.finishPage()
  await slicer.maybeYield()
  // Without object streams: pdf-lib would compress groups of objects in save, each group at
  // once and without a turn of the loop between groups (it counts a group as one step).
  return doc.save({ useObjectStreams: false, objectsPerTick: OBJECTS_PER_TICK })
}
