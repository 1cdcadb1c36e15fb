import { PDFArray, PDFDocument, PDFRawStream, StandardFonts, decodePDFRawStream } from 'pdf-lib'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { DocBlock, DocNode, DocText, JsonDocument } from '../../../src/domains/content/document.js'
import { renderPdf, type PdfPage } from '../../../src/domains/content/pdf.js'
import { longestStall } from '../../stall.js'

const createdAt = new Date('2024-05-06T07:08:09Z')
const options = { title: 'Change request #1', createdAt }

const text = (value: string, ...marks: string[]): DocText => ({
  object: 'text',
  leaves: [{ object: 'leaf', text: value, marks: marks.map((type) => ({ object: 'mark', type })) }],
})
const block = (type: string, nodes: DocNode[] = [], data?: Record<string, unknown>): DocBlock => ({ object: 'block', type, nodes, ...(data ? { data } : {}) })
const paragraph = (value: string) => block('paragraph', [text(value)])
const doc = (...nodes: DocBlock[]): JsonDocument => ({ object: 'document', data: {}, nodes })
const page = (title: string, ...nodes: DocBlock[]): PdfPage => ({ title, path: title.toLowerCase(), depth: 0, document: doc(...nodes) })

/**
 * The decoded content streams of every page, joined. pdf-lib writes standard-font text as hex
 * strings of WinAnsi codes, so `hex` turns a (Latin-1) string into what to look for.
 */
async function contents(bytes: Uint8Array): Promise<string> {
  const loaded = await PDFDocument.load(bytes)
  const decoder = new TextDecoder('latin1')
  return loaded
    .getPages()
    .flatMap((p) => {
      const c = p.node.Contents()
      const streams = c instanceof PDFArray ? c.asArray().map((ref) => loaded.context.lookup(ref)) : [c]
      return streams.map((s) => (s instanceof PDFRawStream ? decoder.decode(decodePDFRawStream(s).decode()) : ''))
    })
    .join('\n')
}
const hex = (value: string) => [...value].map((ch) => ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')).join('')

describe('renderPdf', () => {
  afterEach(() => vi.useRealTimers())

  it('renders each short page on one PDF page, with the document title', async () => {
    const bytes = await renderPdf([page('Intro', paragraph('Hello world')), page('Guide', paragraph('Second'))], options)
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-')
    const loaded = await PDFDocument.load(bytes)
    expect(loaded.getPageCount()).toBe(2)
    expect(loaded.getTitle()).toBe('Change request #1')
    expect(loaded.getCreator()).toBe('docs-content-api')
    expect(loaded.getCreationDate()?.toISOString()).toBe(createdAt.toISOString())
    const stream = await contents(bytes)
    for (const word of ['Intro', 'Hello', 'world', 'Guide', 'Second']) expect(stream).toContain(hex(word))
  })

  it('flows a long page onto further PDF pages', async () => {
    const paragraphs = Array.from({ length: 300 }, (_, i) => paragraph(`Paragraph ${i} with some text to fill the line.`))
    const loaded = await PDFDocument.load(await renderPdf([page('Long', ...paragraphs), page('Next', paragraph('x'))], options))
    expect(loaded.getPageCount()).toBeGreaterThan(5)
    const stream = await contents(await renderPdf([page('Long', ...paragraphs)], options))
    expect(stream).toContain(hex('299'))
  })

  it('wraps a long paragraph (and a word longer than a line) within the page', async () => {
    const long = 'word '.repeat(400) + 'x'.repeat(300)
    const bytes = await renderPdf([page('Wrap', paragraph(long))], options)
    expect((await PDFDocument.load(bytes)).getPageCount()).toBe(1)
    // Every line drawn ends inside the right margin (56pt on an A4 page).
    const helvetica = await (await PDFDocument.create()).embedFont(StandardFonts.Helvetica)
    const lines = [...(await contents(bytes)).matchAll(/1 0 0 1 ([\d.]+) [\d.]+ Tm\n<([0-9A-F]*)> Tj/g)]
    expect(lines.length).toBeGreaterThan(20)
    for (const [, x, codes] of lines) {
      const drawn = (codes ?? '').replace(/../g, (h) => String.fromCharCode(parseInt(h, 16)))
      expect(Number(x) + helvetica.widthOfTextAtSize(drawn, 11)).toBeLessThanOrEqual(595.28 - 56 + 0.01)
    }
  })

  it('gives the same bytes for the same input, whatever the clock says', async () => {
    const pages = [page('Intro', paragraph('Hello'))]
    const first = await renderPdf(pages, options)
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(new Date('2031-01-01T00:00:00Z'))
    const second = await renderPdf(pages, options)
    expect(Buffer.from(second).equals(Buffer.from(first))).toBe(true)
  })

  it("prints characters the standard fonts cannot encode as '?'", async () => {
    const pages = [page('日本語 🎉', paragraph('日本語 🎉'), block('code', [block('code-line', [text('const s = "🎉"\t// tab')])]))]
    const bytes = await renderPdf(pages, { ...options, title: '日本語 🎉' })
    expect((await PDFDocument.load(bytes)).getTitle()).toBe('日本語 🎉')
    expect(await contents(bytes)).toContain(hex('??? ?'))
  })

  it('renders an empty page list as one page with the title', async () => {
    const bytes = await renderPdf([], options)
    const loaded = await PDFDocument.load(bytes)
    expect(loaded.getPageCount()).toBe(1)
    expect(loaded.getTitle()).toBe('Change request #1')
    expect(await contents(bytes)).toContain(hex('Change'))
  })

  it('renders every block type', async () => {
    const item = (...nodes: DocBlock[]) => block('list-item', nodes)
    const table = block('table', [], {
      view: { type: 'grid', columns: ['c1', 'c2'] },
      definition: { c1: { id: 'c1', title: 'Name', type: 'text' }, c2: { id: 'c2', title: 'Count', type: 'number' } },
      records: { r2: { orderIndex: 'b', values: { c1: 'f2', c2: 2 } }, r1: { orderIndex: 'a', values: { c1: 'f1', c2: 1 } } },
    })
    table.fragments = [
      { object: 'fragment', fragment: 'f1', nodes: [paragraph('Alpha')] },
      { object: 'fragment', fragment: 'f2', nodes: [paragraph('Beta')] },
    ]
    const link: DocNode = { object: 'inline', type: 'link', data: { ref: { kind: 'url', url: 'https://x.test' } }, nodes: [text('Linked')] }
    const bytes = await renderPdf(
      [
        page(
          'All',
          block('heading-1', [text('Heading')]),
          block('paragraph', [text('Plain '), text('Strong', 'bold'), text('Slanted', 'italic'), text('Mono', 'code'), link]),
          block('list-unordered', [item(paragraph('Bullet'), block('list-ordered', [item(paragraph('Nested'))]))]),
          block('list-ordered', [item(paragraph('First')), item(paragraph('Second'))]),
          block('list-tasks', [{ ...item(paragraph('Done')), data: { checked: true } }, item(paragraph('Todo'))]),
          block('code', [block('code-line', [text('let a = 1')]), block('code-line', [text('  a++')])]),
          block('blockquote', [paragraph('Quoted')]),
          block('hint', [paragraph('Hinted')], { style: 'info' }),
          block('divider'),
          table,
          block('table', [], {}),
          block('images', [block('image', [], { alt: 'Diagram' })]),
          block('file', [], { ref: { kind: 'file', file: 'f' } }),
          block('custom-thing', [text('Unknown')]),
        ),
      ],
      options,
    )
    const stream = await contents(bytes)
    const shown = [
      'Heading',
      'Strong',
      'Slanted',
      'Mono',
      'Linked',
      'Bullet',
      'Nested',
      '1.',
      '2.',
      '[x]',
      '[ ]',
      '  a++',
      'Quoted',
      'Hinted',
      'Name | Count',
      'Alpha | 1',
      'Beta | 2',
      '[table]',
      '[image: Diagram]',
      '[file]',
      'Unknown',
    ]
    for (const value of shown) expect(stream, value).toContain(hex(value))
    expect(stream).toContain('<95>') // the bullet, WinAnsi 0x95
    expect(stream.indexOf(hex('Alpha | 1'))).toBeLessThan(stream.indexOf(hex('Beta | 2')))
    // Resource names start with the font's name: bold, oblique and Courier are all used.
    for (const font of ['Helvetica', 'Helvetica-Bold', 'Helvetica-Oblique', 'Courier']) expect(stream).toMatch(new RegExp(`/${font}-\\d+ `))
  })
})

/** The longest time the event loop went without a turn while `work` ran, and how long it ran (test/stall.ts). */
async function stalls<T>(work: () => Promise<T>): Promise<{ result: T; longest: number; total: number }> {
  const { result, stall, total } = await longestStall(work)
  return { result, longest: stall, total }
}

describe('renderPdf on the largest inputs', () => {
  /** A page of the worst content the limits allow, in kind: long texts, a word and a run of spaces of megabytes in the making, line breaks, a large table. */
  const worst = (scale: number): PdfPage[] => {
    const words = (n: number, seed: number) => Array.from({ length: n }, (_, i) => `word${(i * 7919 + seed) % 1000}`).join(' ')
    const table = block('table', [], {
      view: { type: 'grid', columns: ['c1', 'c2'] },
      definition: { c1: { id: 'c1', title: 'Name', type: 'text' }, c2: { id: 'c2', title: 'Count', type: 'number' } },
      records: Object.fromEntries(
        Array.from({ length: 20 * scale }, (_, i) => [`r${i}`, { orderIndex: `a${String(i).padStart(6, '0')}`, values: { c1: `f${i}`, c2: i } }]),
      ),
    })
    table.fragments = Array.from({ length: 20 * scale }, (_, i) => ({ object: 'fragment' as const, fragment: `f${i}`, nodes: [paragraph(`Row ${i}`)] }))
    return [
      page('Prose', ...Array.from({ length: 10 * scale }, (_, i) => paragraph(words(60, i)))),
      page('Extremes', paragraph('x'.repeat(2000 * scale)), paragraph(`a${' '.repeat(2000 * scale)}b`), paragraph('line\n'.repeat(30 * scale))),
      page(
        'Code and table',
        block(
          'code',
          Array.from({ length: 30 * scale }, (_, i) => block('code-line', [text(`  const v${i} = f(${i}) // ${words(6, i)}`)])),
        ),
        table,
      ),
    ]
  }

  it('yields to the event loop all along: the longest stall is a small part of the render', async () => {
    await renderPdf(worst(1), options) // the first use of the fonts reads their metrics; not what is measured
    const pages = worst(40)
    const { result, longest, total } = await stalls(() => renderPdf(pages, options))
    expect((await PDFDocument.load(result)).getPageCount()).toBeGreaterThan(100)
    expect(longest).toBeLessThan(total / 5)
  })

  it('stops at the most pages with a page saying so', async () => {
    const bytes = await renderPdf([page('Breaks', paragraph('\n'.repeat(1000)))], { ...options, maxPages: 3 })
    const loaded = await PDFDocument.load(bytes)
    expect(loaded.getPageCount()).toBe(4)
    expect(await contents(bytes)).toContain(hex('[This PDF stops here: a PDF holds at most 3 pages.'))
  })

  it('prints a word and a run of spaces longer than a piece as shorter ones would be', async () => {
    // 3000 characters: pieces of 1024 and the rest. The word wraps per character, every line
    // full; the spaces, wider than a line, are dropped (so z follows the word's last line).
    const bytes = await renderPdf([page('Long', paragraph(`${'y'.repeat(3000)}${' '.repeat(3000)}z`))], options)
    const drawn = [...(await contents(bytes)).matchAll(/<([0-9A-F]*)> Tj/g)].map(([, codes]) =>
      (codes ?? '').replace(/../g, (h) => String.fromCharCode(parseInt(h, 16))),
    )
    const lines = drawn.filter((line) => /^y/.test(line))
    expect(lines.join('')).toBe(`${'y'.repeat(3000)}z`)
    expect(new Set(lines.slice(0, -1).map((line) => line.length)).size).toBe(1)
  })
})
