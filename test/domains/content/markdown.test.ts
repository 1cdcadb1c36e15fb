import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { loadFigures } from '../../../src/domains/git-sync/gitbook/figure.js'
import type { DocBlock, JsonDocument } from '../../../src/domains/content/document.js'
import { documentRefs, documentText, documentToMarkdown, markdownToDocument } from '../../../src/domains/content/markdown.js'
import { expectOfficialSchema, officialSchemaErrors } from '../../content-schema.js'
import { documents } from './document-arbitraries.js'

// unified and remark load on first use (content/markdown-libs.ts); the functions tested here are called directly.
beforeAll(() => loadFigures())

const parse = (md: string) => markdownToDocument(md, { takeTitle: false }).document
const blocks = (md: string) => parse(md).nodes
/** A document without its blocks' keys (keys are identity, not content). */
const keyless = (doc: JsonDocument): unknown => JSON.parse(JSON.stringify(doc, (k, v) => (k === 'key' ? undefined : v)))

/** Markdown written from `doc` is stable after one pass, and reads back as `doc`. */
function roundTrips(doc: JsonDocument): void {
  const md = documentToMarkdown(doc)
  const again = parse(md)
  expect(keyless(again)).toEqual(keyless(doc))
  expect(documentToMarkdown(again)).toBe(md)
}

const text = (t: string, marks: string[] = []) => ({ object: 'leaf', text: t, marks: marks.map((type) => ({ object: 'mark', type })) })

describe('markdown to document', () => {
  it('an empty input is an empty document with no title', () => {
    const r = markdownToDocument('')
    expect(r).toEqual({ document: { object: 'document', data: { schemaVersion: 1 }, nodes: [] }, frontmatter: {} })
    expect(documentToMarkdown(r.document)).toBe('')
  })

  it('reads YAML frontmatter; its title is the title and a leading heading stays', () => {
    const r = markdownToDocument('---\ntitle: From YAML\ntags: [a, b]\ncount: 2\n---\n# Heading\n\nBody')
    expect(r.title).toBe('From YAML')
    expect(r.frontmatter).toEqual({ title: 'From YAML', tags: ['a', 'b'], count: 2 })
    expect(r.document.nodes.map((b) => b.type)).toEqual(['heading-1', 'paragraph'])
  })

  it('takes a leading # heading as the title unless told not to; deeper or later ones stay', () => {
    const r = markdownToDocument('# The *title*\n\nBody\n\n# Second')
    expect(r.title).toBe('The title')
    expect(r.document.nodes.map((b) => b.type)).toEqual(['paragraph', 'heading-1'])
    const kept = markdownToDocument('# T', { takeTitle: false })
    expect(kept).not.toHaveProperty('title')
    expect(kept.document.nodes[0]!.type).toBe('heading-1')
    expect(markdownToDocument('## T').title).toBeUndefined()
    expect(markdownToDocument('Intro\n\n# T').title).toBeUndefined()
  })

  it('a frontmatter that is not a mapping counts as none', () => {
    expect(markdownToDocument('---\n- a\n---\nx').frontmatter).toEqual({})
  })

  it('maps heading depths 1-3 as they are and 4-6 to heading-3', () => {
    expect(blocks('# a\n\n## b\n\n### c\n\n#### d\n\n###### f').map((b) => b.type)).toEqual(['heading-1', 'heading-2', 'heading-3', 'heading-3', 'heading-3'])
    expect(blocks('## b')[0]).toEqual({ object: 'block', type: 'heading-2', data: {}, nodes: [{ object: 'text', leaves: [text('b')] }] })
  })

  it('marks: bold, italic, strikethrough, code; adjacent leaves with the same marks merge', () => {
    const [p] = blocks('a **b *c*** ~~d~~ `e` <b>f</b>')
    expect(p!.nodes).toEqual([
      {
        object: 'text',
        leaves: [
          text('a '),
          text('b ', ['bold']),
          text('c', ['bold', 'italic']),
          text(' '),
          text('d', ['strikethrough']),
          text(' '),
          text('e', ['code']),
          text(' <b>f</b>'),
        ],
      },
    ])
  })

  it('links: pages, files and URLs as content refs, reference-style links resolved', () => {
    const [p] = blocks('[p](/pages/abc) [f](/files/xyz) [u](https://example.com/a) [r][def]\n\n[def]: /pages/ref')
    const links = p!.nodes!.filter((n) => n.object === 'inline')
    expect(links.map((l) => l.data?.ref)).toEqual([
      { kind: 'page', page: 'abc' },
      { kind: 'file', file: 'xyz' },
      { kind: 'url', url: 'https://example.com/a' },
      { kind: 'page', page: 'ref' },
    ])
    expect(links[0]).toEqual({ object: 'inline', type: 'link', data: { ref: { kind: 'page', page: 'abc' } }, nodes: [{ object: 'text', leaves: [text('p')] }] })
  })

  it('a soft line break is a space, a hard one a "\\n" in the text', () => {
    expect(documentText(parse('a\nb\\\nc'))).toBe('a b\nc')
  })

  it('code blocks: syntax from the fence, one code-line per line', () => {
    expect(blocks('```ts\nconst a = 1\n\nlet b\n```')[0]).toEqual({
      object: 'block',
      type: 'code',
      data: { syntax: 'ts' },
      nodes: ['const a = 1', '', 'let b'].map((line) => ({ object: 'block', type: 'code-line', data: {}, nodes: [{ object: 'text', leaves: [text(line)] }] })),
    })
    expect(blocks('```\nx\n```')[0]!.data).toEqual({})
  })

  it('lists: unordered, ordered with a start, tasks with checked items, nested', () => {
    const [ul, ol, tasks] = blocks('- a\n  1. b\n     - c\n\n---\n\n3. x\n4. y\n\n---\n\n- [ ] todo\n- [x] done').filter((b) => b.type !== 'divider')
    expect(ul!.type).toBe('list-unordered')
    const nested = ul!.nodes![0] as DocBlock
    expect(nested.nodes!.map((n) => (n as DocBlock).type)).toEqual(['paragraph', 'list-ordered'])
    expect((((nested.nodes![1] as DocBlock).nodes![0] as DocBlock).nodes![1] as DocBlock).type).toBe('list-unordered')
    expect(ol).toMatchObject({ type: 'list-ordered', data: { start: 3 } })
    expect(blocks('1. a')[0]!.data).toEqual({})
    expect(tasks!.type).toBe('list-tasks')
    expect(tasks!.nodes!.map((n) => (n as DocBlock).data)).toEqual([{ checked: false }, { checked: true }])
  })

  it('GitHub alerts are hints; other blockquotes stay blockquotes', () => {
    const styles = ['NOTE', 'TIP', 'IMPORTANT', 'WARNING', 'CAUTION'].map((m) => blocks(`> [!${m}]\n> Body`)[0]!.data)
    expect(styles).toEqual([{ style: 'info' }, { style: 'success' }, { style: 'info' }, { style: 'warning' }, { style: 'danger' }])
    expect(blocks('> [!TIP]\n> Body *x*')[0]).toEqual({
      object: 'block',
      type: 'hint',
      data: { style: 'success' },
      nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [text('Body '), text('x', ['italic'])] }] }],
    })
    expect(blocks('> [!OTHER] x')[0]!.type).toBe('blockquote')
    expect(blocks('> quoted')[0]).toMatchObject({ type: 'blockquote', data: {}, nodes: [{ type: 'paragraph' }] })
  })

  it('images alone in a paragraph are an images block; among text they are inline images', () => {
    expect(blocks('![a](/files/f1) ![](https://e.com/i.png)')[0]).toEqual({
      object: 'block',
      type: 'images',
      isVoid: false,
      data: {},
      nodes: [
        { object: 'block', type: 'image', isVoid: true, data: { ref: { kind: 'file', file: 'f1' }, alt: 'a' }, fragments: [] },
        { object: 'block', type: 'image', isVoid: true, data: { ref: { kind: 'url', url: 'https://e.com/i.png' } }, fragments: [] },
      ],
    })
    expect(blocks('see ![a](/files/f1)')[0]!.nodes![1]).toEqual({
      object: 'inline',
      type: 'inline-image',
      isVoid: true,
      data: { ref: { kind: 'file', file: 'f1' }, alt: 'a' },
    })
  })

  it('GFM tables: a grid of text columns, cells naming fragments', () => {
    const [table] = blocks('| Name | *Age* |\n|:-:|--:|\n| Ada | **36** |\n| Bob |')
    expect(table).toEqual({
      object: 'block',
      type: 'table',
      isVoid: true,
      data: {
        view: { type: 'grid', columns: ['c0', 'c1'], hideHeader: false },
        records: { r0: { orderIndex: 'a0', values: { c0: 'f0', c1: 'f1' } }, r1: { orderIndex: 'a1', values: { c0: 'f2', c1: 'f3' } } },
        definition: {
          c0: { id: 'c0', title: 'Name', type: 'text', textAlignment: 'center' },
          c1: { id: 'c1', title: 'Age', type: 'text', textAlignment: 'right' },
        },
      },
      fragments: [
        { object: 'fragment', fragment: 'f0', nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [text('Ada')] }] }] },
        {
          object: 'fragment',
          fragment: 'f1',
          nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [text('36', ['bold'])] }] }],
        },
        { object: 'fragment', fragment: 'f2', nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [text('Bob')] }] }] },
        { object: 'fragment', fragment: 'f3', nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [text('')] }] }] },
      ],
    })
  })

  it('newKey gives every block a key, and table ids', () => {
    let n = 0
    const doc = markdownToDocument('# T\n\n- a\n\n```\nx\n```\n\n| a |\n|---|\n| b |', { newKey: () => `k${n++}` }).document
    expectOfficialSchema('JSONDocument', doc)
    const keys: string[] = []
    const visit = (b: DocBlock) => {
      keys.push(b.key!)
      for (const c of b.nodes ?? []) if (c.object === 'block') visit(c)
    }
    doc.nodes.forEach(visit)
    expect(keys.every((k) => typeof k === 'string')).toBe(true)
    expect(new Set(keys).size).toBe(keys.length)
    const table = doc.nodes[2]!
    expect(Object.keys(table.data!.records as object)[0]).toMatch(/^k\d+$/)
  })

  it('blocks the schema forbids where they sit keep their content as allowed blocks', () => {
    const doc = parse('> ```js\n> let x\n> y\n> ```\n>\n> | a |\n> |---|\n> | b |\n\n> [!NOTE]\n> > inner\n\n- ![i](/files/f)')
    expectOfficialSchema('JSONDocument', doc)
    expect(doc.nodes[0]!.nodes!.map((n) => (n as DocBlock).type)).toEqual(['paragraph', 'paragraph', 'paragraph'])
    expect(documentText(doc)).toBe('let x\ny\na\nb\ninner')
    expect((doc.nodes[2]!.nodes![0] as DocBlock).nodes![0]).toMatchObject({ type: 'paragraph', nodes: [{ type: 'inline-image' }] })
  })

  it('unicode text survives', () => {
    const md = 'Ünïcödé 中文 😀 **ß** — “quotes”'
    expect(documentText(parse(md))).toBe('Ünïcödé 中文 😀 ß — “quotes”')
    expect(documentToMarkdown(parse(md))).toBe(`${md}\n`)
  })
})

describe('document to markdown', () => {
  it('writes every supported block back', () => {
    const md = [
      '## Heading',
      'Some **bold *both*** and ~~gone~~ `code` [page](/pages/p1) [file](/files/f1) [ext](https://x.y/z) end\\\nnext',
      '> [!WARNING]\n> Careful **now**\n>\n> - a',
      '> quote\n>\n> > nested',
      '- [ ] task\n- [x] done',
      '3. three\n4. four\n   - nested\n     1. deep',
      '![alt](/files/img1) ![](https://e.x/a.png)',
      '***',
      '| A |  B |\n| - | -: |\n| 1 |  2 |',
      '```ts\nconst a = 1\n```',
    ].join('\n\n')
    expect(documentToMarkdown(parse(md))).toBe(`${md.replace('**bold *both***', '**bold _both_**')}\n`)
  })

  it('a file block is a link to the file alone in its paragraph (read back as that link)', () => {
    const doc: JsonDocument = {
      object: 'document',
      data: {},
      nodes: [{ object: 'block', type: 'file', isVoid: true, data: { ref: { kind: 'file', file: 'f9' } } }],
    }
    expectOfficialSchema('JSONDocument', doc)
    expect(documentToMarkdown(doc)).toBe('[f9](/files/f9)\n')
    expect(documentToMarkdown(doc, { fileName: () => 'report.pdf' })).toBe('[report.pdf](/files/f9)\n')
    expect(blocks('[f9](/files/f9)')[0]!.nodes![0]).toMatchObject({ type: 'link', data: { ref: { kind: 'file', file: 'f9' } } })
  })

  it('a hint whose first block is not a paragraph has the marker on its own line', () => {
    const md = '> [!CAUTION]\n>\n> - item'
    expect(documentToMarkdown(parse(md))).toBe(`${md}\n`)
  })
})

describe('refs and text', () => {
  it('lists every content reference in document order, table cells included', () => {
    const doc = parse('[a](/pages/p) ![i](/files/f)\n\n| [x](https://u.com) |\n|---|\n| [y](/pages/q) |\n\n![b](/files/g)')
    expect(documentRefs(doc)).toEqual([
      { kind: 'page', page: 'p' },
      { kind: 'file', file: 'f' },
      { kind: 'page', page: 'q' },
      { kind: 'file', file: 'g' },
    ])
  })

  it('plain text, one line per block', () => {
    expect(documentText(parse('# T\n\nA *b*\n\n- x\n- y\n\n```\nc1\nc2\n```\n\n| h |\n|---|\n| v |'))).toBe('T\nA b\nx\ny\nc1\nc2\nh\nv')
  })
})

describe('round trips', () => {
  const samples: Record<string, string> = {
    paragraph: 'Plain text with *italic*, **bold**, ~~strike~~ and `code`.',
    marks: '***both*** **a `b` c** *a ~~b~~* `x` **[link *in*](/pages/p)**',
    headings: '# One\n\n## Two\n\n### Three\n\n#### Four',
    links: '[page](/pages/p1) [file](/files/f1) [url](https://example.com/a?b=1&c=2) <https://auto.link>',
    breaks: 'line one\\\nline two\nsoft',
    lists: '- a\n- b\n  - c\n    1. d\n    2. e\n\n7. seven\n8. eight',
    tasks: '- [ ] open\n- [x] closed\n  - [ ] sub',
    code: '```python\nprint("hi")\n\n  indented\n```\n\n```\nplain ``` fence\n```',
    quote: '> a\n>\n> > b\n>\n> - c',
    hints: '> [!NOTE]\n> n\n\n> [!TIP]\n> t\n\n> [!WARNING]\n> w\n\n> [!CAUTION]\n> c\n\n> [!IMPORTANT]\n> i',
    divider: 'a\n\n***\n\nb',
    table: '| a | **b** | c |\n|:--|:-:|--:|\n| 1 | `2` | [3](/pages/x) |\n| | only |',
    images: '![one](/files/a) ![two](https://e.com/b.png)\n\nText ![inline](/files/c) here',
    unicode: 'Ünïcödé 中文 😀 — “quotes” **ß**',
    html: '<div>raw</div>\n\nand <b>inline</b>',
    escapes: '\\*not bold\\* 1\\. \\# \\[x] a\\_b',
  }
  for (const [name, md] of Object.entries(samples)) {
    it(`${name}: stable markdown and an identical document`, () => {
      const doc = parse(md)
      expectOfficialSchema('JSONDocument', doc)
      roundTrips(doc)
      const md1 = documentToMarkdown(doc)
      expect(keyless(parse(md1))).toEqual(keyless(doc))
      expect(documentToMarkdown(parse(md1))).toBe(md1)
    })
  }
})

describe('property: document → markdown → document', () => {
  it('is the identity over documents built from the supported blocks and marks', () => {
    fc.assert(
      fc.property(documents, (doc) => {
        expect(officialSchemaErrors('JSONDocument', doc)).toBeUndefined()
        roundTrips(doc)
      }),
      { numRuns: 300 },
    )
  })
})
