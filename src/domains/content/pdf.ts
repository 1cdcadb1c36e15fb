import { PDFDocument, PageSizes, StandardFonts, rgb, type Color, type PDFFont, type PDFPage as PdfLibPage } from 'pdf-lib'
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
}

// A4 in points; the margins leave room for a printer's unprintable edge.
const [PAGE_WIDTH, PAGE_HEIGHT] = PageSizes.A4
const MARGIN = 56
const INDENT = 18
const BODY = 11
const CODE = 9.5
const LINE = 1.3
const HEADINGS: Record<string, number> = { 'heading-1': 18, 'heading-2': 15, 'heading-3': 13 }
const GREY = rgb(0.4, 0.4, 0.4)

interface Fonts { regular: PDFFont; bold: PDFFont; italic: PDFFont; code: PDFFont }
interface Run { text: string; font: PDFFont }
/** A run placed on a line, `x` from the line's left edge. */
interface Segment extends Run { x: number }

const isBlock = (node: DocNode): node is DocBlock => node.object === 'block'
const record = (value: unknown): JsonObject | undefined =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as JsonObject) : undefined

/** The plain text under some nodes (table cells, image captions): blocks joined by a space. */
function plain(nodes: readonly DocNode[] | undefined): string {
  return (nodes ?? []).map((n) => (n.object === 'text' ? n.leaves.map((l) => l.text).join('') : plain(n.nodes))).join(' ').trim()
}

/**
 * A table cell: text columns hold the id of one of the block's fragments (the official
 * schema), other columns plain values; anything else shows as empty rather than as JSON.
 */
function cellText(value: unknown, fragments: DocFragment[] | undefined): string {
  if (typeof value === 'string') {
    const fragment = fragments?.find((f) => f.fragment === value)
    return fragment ? plain(fragment.nodes) : value
  }
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (Array.isArray(value)) return value.map((v) => cellText(v, fragments)).join(', ')
  const nodes = record(value)?.nodes
  return Array.isArray(nodes) ? plain(nodes as DocNode[]) : ''
}

/** The rows of a table block (a header of column titles first), or none without records. */
function tableRows(block: DocBlock): string[][] {
  const data = block.data ?? {}
  const records = Object.values(record(data.records) ?? {}).map(record).filter((r) => r !== undefined)
  if (records.length === 0) return []
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
  return [header, ...records.map((r) => columns.map((c) => cellText(record(r.values)?.[c], block.fragments)))]
}

/** Lays blocks out top to bottom, starting a new PDF page whenever the next line does not fit. */
class Layout {
  private page: PdfLibPage | undefined
  private y = 0
  private font: PDFFont | undefined // the one last set on this page
  /** A list item's bullet or number, drawn left of the item's first line of text. */
  private prefix: Run | undefined
  private readonly charsets = new Map<PDFFont, Set<number>>()

  constructor(private readonly doc: PDFDocument, private readonly fonts: Fonts) {}

  newPage(): void {
    this.page = this.doc.addPage([PAGE_WIDTH, PAGE_HEIGHT])
    this.y = PAGE_HEIGHT - MARGIN
    this.font = undefined
  }

  title(text: string, path: string, depth: number): void {
    // Nested pages get slightly smaller titles, so the outline shows in print too.
    this.text([{ text, font: this.fonts.bold }], 22 - 2 * Math.min(depth, 3), 0, path ? 2 : 12)
    if (path) this.text([{ text: path, font: this.fonts.regular }], 9, 0, 12, GREY)
  }

  blocks(nodes: readonly DocNode[] | undefined, indent: number): void {
    for (const node of nodes ?? []) if (isBlock(node)) this.block(node, indent)
  }

  private block(block: DocBlock, indent: number): void {
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
        for (const line of block.nodes ?? []) this.text(this.runs([line], 'code'), CODE, indent + INDENT / 2, 0)
        this.y -= BODY / 2
        return
      case 'blockquote':
      case 'hint':
        return this.blocks(block.nodes, indent + INDENT)
      case 'divider':
        return this.rule(indent)
      case 'table': {
        const rows = tableRows(block)
        if (rows.length === 0) return this.note('[table]', indent)
        rows.forEach((cells, i) => this.text([{ text: cells.join(' | '), font: i === 0 ? this.fonts.bold : this.fonts.regular }], BODY, indent, 2))
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

  private list(block: DocBlock, indent: number): void {
    this.flushPrefix(indent)
    const start = block.data?.start
    let n = typeof start === 'number' ? start : 1
    for (const item of (block.nodes ?? []).filter(isBlock)) {
      const label = block.type === 'list-ordered' ? `${n++}.` : block.type === 'list-tasks' ? (item.data?.checked ? '[x]' : '[ ]') : '•'
      this.prefix = { text: label, font: this.fonts.regular }
      this.blocks(item.nodes, indent + INDENT)
      this.flushPrefix(indent + INDENT)
    }
    this.y -= BODY / 2
  }

  /** An item whose content is not text (empty, or a nested list) still shows its bullet. */
  private flushPrefix(indent: number): void {
    if (this.prefix) this.text([], BODY, indent, 2)
  }

  private note(text: string, indent: number): void {
    this.text([{ text, font: this.fonts.italic }], BODY, indent, BODY / 2, GREY)
  }

  private rule(indent: number): void {
    this.room(BODY)
    this.y -= BODY / 2
    this.page?.drawLine({ start: { x: MARGIN + indent, y: this.y }, end: { x: PAGE_WIDTH - MARGIN, y: this.y }, thickness: 0.5, color: GREY })
    this.y -= BODY / 2
  }

  /** The runs of inline content; one font per leaf (bold and italic together print bold). */
  private runs(nodes: readonly DocNode[] | undefined, voice: 'text' | 'bold' | 'code' = 'text'): Run[] {
    return (nodes ?? []).flatMap((node): Run[] => {
      if (node.object !== 'text') return this.runs(node.nodes, voice)
      return node.leaves.map((leaf) => {
        const marks = new Set(leaf.marks.map((m) => m.type))
        const font =
          voice === 'code' || marks.has('code') ? this.fonts.code
          : voice === 'bold' || marks.has('bold') ? this.fonts.bold
          : marks.has('italic') ? this.fonts.italic
          : this.fonts.regular
        return { text: leaf.text, font }
      })
    })
  }

  /** The text with every character the font's WinAnsi encoding lacks (CJK, emoji...) as '?'. */
  private encodable(text: string, font: PDFFont): string {
    let charset = this.charsets.get(font)
    if (!charset) this.charsets.set(font, (charset = new Set(font.getCharacterSet())))
    let out = ''
    for (const ch of text.replace(/\t/g, '    ').replace(/\r\n?/g, '\n')) out += ch === '\n' || charset.has(ch.codePointAt(0) ?? 0) ? ch : '?'
    return out
  }

  /** Wraps runs at the text width (breaking words longer than a line) and draws them. */
  private text(runs: Run[], size: number, indent: number, after: number, color = rgb(0, 0, 0)): void {
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
      for (const piece of this.encodable(run.text, run.font).match(/\n|[^\S\n]+|\S+/g) ?? []) {
        if (piece === '\n') {
          flush()
          continue
        }
        const w = run.font.widthOfTextAtSize(piece, size)
        if (/^\s/.test(piece)) {
          // Spaces at a wrap point are dropped; leading ones (code indentation) are kept.
          if ((line.length > 0 || !wrapped) && x + w <= width) put(piece, run.font, w)
        } else {
          // A word wider than a whole line (a long URL) is split wherever the line is full.
          for (const part of w <= width ? [piece] : [...piece]) {
            const pw = part === piece ? w : run.font.widthOfTextAtSize(part, size)
            if (line.length > 0 && x + pw > width) flush(true)
            put(part, run.font, pw)
          }
        }
      }
    }
    flush() // even with nothing to draw: an empty paragraph or code line still takes a line
    this.y -= after
  }

  /**
   * Text in a font, set only when it changes: pdf-lib adds a font resource to the page on
   * every setFont (and every drawText given a font), which would bloat the file.
   */
  private draw(text: string, font: PDFFont, options: { x: number; y: number; size: number; color: Color }): void {
    if (font !== this.font) this.page?.setFont((this.font = font))
    this.page?.drawText(text, options)
  }

  /** A new PDF page when a line of this height would cross the bottom margin. */
  private room(height: number): void {
    if (!this.page || this.y - height < MARGIN) this.newPage()
  }
}

/**
 * A PDF (bytes) of the pages, in order: each page starts on a new PDF page with its title;
 * text wraps at the page width; long pages flow onto further PDF pages.
 * Only the standard fonts are used (nothing embedded, so the code runs anywhere pdf-lib does),
 * and every date is taken from the options, so the same input gives the same bytes.
 */
export async function renderPdf(pages: PdfPage[], options: PdfOptions): Promise<Uint8Array> {
  // updateMetadata false: pdf-lib would otherwise stamp the clock's time into the info dict.
  const doc = await PDFDocument.create({ updateMetadata: false })
  doc.setTitle(options.title)
  doc.setCreator('docs-content-api')
  doc.setProducer('docs-content-api (pdf-lib)')
  doc.setCreationDate(options.createdAt)
  doc.setModificationDate(options.createdAt)
  const layout = new Layout(doc, {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
    italic: await doc.embedFont(StandardFonts.HelveticaOblique),
    code: await doc.embedFont(StandardFonts.Courier),
  })
  if (pages.length === 0) {
    // A PDF needs at least one page; an empty change request prints as its title alone.
    layout.newPage()
    layout.title(options.title, '', 0)
  }
  for (const page of pages) {
    layout.newPage()
    layout.title(page.title, page.path, page.depth)
    layout.blocks(page.document.nodes, 0)
  }
  return doc.save()
}
