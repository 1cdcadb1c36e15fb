import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { BLOCK_TYPES, JsonDocumentSchema, MAX_DOCUMENT_DEPTH, MAX_DOCUMENT_OBJECTS } from '../../../src/domains/content/document-schema.js'
import { markdownToDocument } from '../../../src/domains/content/markdown.js'
import { expectOfficialResponse } from '../../conformance/official.js'
import { expectOfficialSchema, officialSchemaErrors } from '../../content-schema.js'
import { arbitraryOf } from '../../fuzz/zod-arbitrary.js'
import { call, createWorld, expectError } from '../../helpers.js'
import { COMPONENT_OF, EXAMPLES, code, image, nodesIn, paragraph, text } from './document-examples.js'

type Json = Record<string, any>

async function setup() {
  const w = await createWorld()
  const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Docs' })
  const base = `/v1/spaces/${space.id}/change-requests`
  const cr = (await call(w.api, w.tokens.ada, 'POST', base, { subject: 'Blocks' })).body
  const crPath = `${base}/${cr.id}`
  const edit = (changes: unknown[]) => call(w.api, w.tokens.ada, 'POST', `${crPath}/content?compat=false`, { changes })
  const insert = (nodes: Json[]) => edit([{ operation: 'insert_page', title: 'Page', document: { document: { object: 'document', data: {}, nodes } } }])
  return { ...w, crPath, edit, insert }
}

const doc = (nodes: Json[]): Json => ({ object: 'document', data: {}, nodes })

describe('JSON documents: every official block type', () => {
  let w: Awaited<ReturnType<typeof setup>>
  beforeAll(async () => {
    w = await setup()
  })

  it('has an example of every block type the official DocumentBlock lists', () => {
    const seen = new Set(nodesIn(EXAMPLES).map((node) => node.type as string))
    expect(BLOCK_TYPES.filter((type) => !seen.has(type))).toEqual([])
    expect(Object.keys(COMPONENT_OF).filter((type) => !seen.has(type))).toEqual([])
  })

  it.each(EXAMPLES.map((block) => [block.type as string, block] as const))(
    'accepts a %s block and answers it back as sent, valid for the official schema',
    async (_type, block) => {
      const res = await w.insert([block])
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      const pageId = res.body.changes[0].page.id
      const page = await call(w.api, w.tokens.ada, 'GET', `${w.crPath}/content/page/${pageId}?format=document`)
      expect(page.status).toBe(200)
      expectOfficialResponse('getPageInChangeRequestById', 200, page.body)
      expect(page.body.document.nodes).toEqual([block])
      for (const node of nodesIn(page.body.document)) expectOfficialSchema(COMPONENT_OF[node.type]!, node)
      // Markdown export and link tracking read every block they get without failing.
      expect((await call(w.api, w.tokens.ada, 'GET', `${w.crPath}/content/page/${pageId}?format=markdown`)).status).toBe(200)
      const links = await call(w.api, w.tokens.ada, 'GET', `${w.crPath}/content/page/${pageId}/links`)
      expect(links.status).toBe(200)
    },
  )

  it('prints every example into the change request PDF (after they are all in)', async () => {
    const res = await call(w.api, w.tokens.ada, 'GET', `${w.crPath}/pdf`)
    expect(res.status).toBe(200)
    const pdf = await w.api.fetch(res.body.url)
    expect(pdf.status).toBe(200)
    expect(new TextDecoder().decode((await pdf.arrayBuffer()).slice(0, 5))).toBe('%PDF-')
  })

  it('keeps unknown keys where the official schema allows them', async () => {
    const block = { ...paragraph(), extra: { any: ['thing'] }, nodes: [{ ...text('x'), custom: 1 }] }
    const res = await w.insert([block])
    const page = await call(w.api, w.tokens.ada, 'GET', `${w.crPath}/content/page/${res.body.changes[0].page.id}`)
    expect(page.body.document.nodes).toEqual([block])
    expectOfficialSchema('JSONDocument', page.body.document)
  })
})

/** A top-level block, the path inside it, and a rule the message names. */
const INVALID: Array<[string, Json, string, string]> = [
  ['a paragraph without nodes', { object: 'block', type: 'paragraph' }, 'nodes[0].nodes', 'is required: a list of texts and inlines'],
  [
    'a heading whose text has no leaves',
    { object: 'block', type: 'heading-1', data: {}, nodes: [{ object: 'text' }] },
    'nodes[0].nodes[0].leaves',
    'is required: a list of leaves',
  ],
  ['a heading without data', { object: 'block', type: 'heading-2', nodes: [text('x')] }, 'nodes[0].data', 'is required'],
  ['an images block without nodes', { object: 'block', type: 'images', isVoid: false, data: {} }, 'nodes[0].nodes', 'is required: a list of image blocks'],
  [
    'an images block holding a paragraph',
    { object: 'block', type: 'images', isVoid: false, data: {}, nodes: [paragraph()] },
    'nodes[0].nodes[0].type',
    'must be one of image (an images block holds no "paragraph")',
  ],
  [
    'a mark of no official type',
    paragraph(text('x', [{ object: 'mark', type: 'blink' }])),
    'nodes[0].nodes[0].leaves[0].marks[0].type',
    'must be one of bold, italic, code, keyboard, strikethrough, color, superscript, subscript',
  ],
  ['a color mark without data', paragraph(text('x', [{ object: 'mark', type: 'color' }])), 'nodes[0].nodes[0].leaves[0].marks[0].data', 'is required'],
  ['a leaf without text', paragraph({ object: 'text', leaves: [{ object: 'leaf', marks: [] }] }), 'nodes[0].nodes[0].leaves[0].text', 'is required'],
  [
    'a block where a paragraph holds texts and inlines',
    paragraph(paragraph()),
    'nodes[0].nodes[0].object',
    'must be one of text, inline (a paragraph holds no "block")',
  ],
  [
    'a button inline (no button satisfies the official schema)',
    paragraph({ object: 'inline', type: 'button', isVoid: true, data: { label: 'Go', kind: 'primary', ref: { kind: 'url', url: 'x' } } }),
    'nodes[0].nodes[0].type',
    'a paragraph holds no "button"',
  ],
  [
    'a code block in a hint',
    { object: 'block', type: 'hint', data: { style: 'info' }, nodes: [code('x')] },
    'nodes[0].nodes[0].type',
    '(a hint holds no "code")',
  ],
  ['a hint of an unknown style', { object: 'block', type: 'hint', data: { style: 'loud' }, nodes: [] }, 'nodes[0].data.style', 'expected one of'],
  ['an unknown block type', { object: 'block', type: 'marquee' }, 'nodes[0].type', 'a document holds no "marquee"'],
  ['a list item at the top level', { object: 'block', type: 'list-item', nodes: [] }, 'nodes[0].type', 'a document holds no "list-item"'],
  ['a text at the top level', text('x'), 'nodes[0].type', 'is required: one of paragraph'],
  ['a divider that is not void', { object: 'block', type: 'divider', isVoid: false, data: {} }, 'nodes[0].isVoid', 'expected true'],
  ['a divider without isVoid', { object: 'block', type: 'divider', data: {} }, 'nodes[0].isVoid', 'is required'],
  [
    'an unknown key where the official data allows none',
    { ...paragraph(), data: { align: 'center', color: 'red' } },
    'nodes[0].data',
    'unknown key(s) `color`',
  ],
  [
    'an image showing a page',
    { object: 'block', type: 'images', isVoid: false, data: {}, nodes: [image({ kind: 'page', page: 'p' })] },
    'nodes[0].nodes[0].data.ref.kind',
    'must be one of url, file (an image reference cannot be of kind "page")',
  ],
  [
    'a file block of a URL',
    { object: 'block', type: 'file', isVoid: true, data: { ref: { kind: 'url', url: 'x' } } },
    'nodes[0].data.ref.kind',
    'must be one of file',
  ],
  [
    'a heading id with capitals',
    { object: 'block', type: 'heading-1', data: { id: 'Intro' }, nodes: [text('x')] },
    'nodes[0].data.id',
    'must be lowercase letters',
  ],
  [
    'a prompt with two code blocks',
    { object: 'block', type: 'prompt', data: { description: 'd' }, nodes: [code('a'), code('b')] },
    'nodes[0].nodes',
    'must hold exactly one code block',
  ],
  ['a code block counting no collapsed lines', { ...code('x'), data: { collapsedLineCount: 0 } }, 'nodes[0].data.collapsedLineCount', 'must be at least 1'],
  [
    'an expandable body with no block',
    {
      object: 'block',
      type: 'expandable',
      isVoid: true,
      data: {},
      fragments: [{ object: 'fragment', fragment: 'expandable-body', type: 'expandable-body', nodes: [] }],
    },
    'nodes[0].fragments[0].nodes',
    'must hold at least one block',
  ],
  [
    'a table cell holding a file reference (the official oneOf matches it twice)',
    {
      object: 'block',
      type: 'table',
      isVoid: true,
      fragments: [],
      data: {
        view: { type: 'grid', columns: [], hideHeader: false },
        definition: {},
        records: { r1: { orderIndex: 'a0', values: { c1: { kind: 'file', file: 'f' } } } },
      },
    },
    'nodes[0].data.records.r1.values.c1.kind',
    '(a table cell reference cannot be of kind "file"); a file or URL is given as an image, {"ref": <reference>}',
  ],
  [
    'a merged cell spanning no row',
    {
      object: 'block',
      type: 'table',
      isVoid: true,
      fragments: [],
      data: {
        view: { type: 'grid', columns: [], hideHeader: false },
        definition: {},
        records: {},
        cellMerges: [{ anchor: { record: 'r', column: 'c' }, rowSpan: 0, colSpan: 1 }],
      },
    },
    'nodes[0].data.cellMerges[0].rowSpan',
    'must be at least 1',
  ],
  [
    'an update dated without a time zone',
    {
      object: 'block',
      type: 'updates',
      data: { format: 'full' },
      nodes: [{ object: 'block', type: 'update', data: { date: '2026-03-01T10:00:00' }, nodes: [] }],
    },
    'nodes[0].nodes[0].data.date',
    'with a time zone',
  ],
  [
    'integration props holding a value of no PlainObject type',
    { object: 'block', type: 'integration', isVoid: true, data: { integration: 'i', block: 'b', props: { a: [['nested array']] } } },
    'nodes[0].data.props.a[0]',
    'must be a string, a number, a boolean, an object or null (an item of a PlainObject array)',
  ],
  ['columns without isVoid', { object: 'block', type: 'columns', data: {}, nodes: [] }, 'nodes[0].isVoid', 'is required'],
]

describe('JSON documents: what the official schema refuses is a 400 naming the field, and writes nothing', () => {
  let w: Awaited<ReturnType<typeof setup>>
  beforeAll(async () => {
    w = await setup()
    await w.insert([paragraph()])
  })

  it.each(INVALID)('refuses %s', async (_name, block, path, rule) => {
    const before = w.api.dump()
    const res = await w.insert([block])
    expectError(res, 400, `body field \`changes[0].document.document.${path}\`: `)
    expect(res.body.error.message).toContain(rule)
    expect(w.api.dump()).toEqual(before)
  })

  it('names the change of the batch that holds the bad block; the whole batch is refused', async () => {
    const before = w.api.dump()
    const res = await w.edit([
      { operation: 'insert_page', title: 'Fine', document: { markdown: 'fine' } },
      { operation: 'insert_page', title: 'Bad', document: { document: doc([paragraph(), { object: 'block', type: 'paragraph' }]) } },
    ])
    expectError(res, 400, 'body field `changes[1].document.document.nodes[1].nodes`: is required')
    expect(w.api.dump()).toEqual(before)
  })

  it('checks a change request description the same way', async () => {
    const before = w.api.dump()
    const res = await call(w.api, w.tokens.ada, 'PATCH', w.crPath, { description: doc([{ object: 'block', type: 'paragraph', nodes: [{ object: 'text' }] }]) })
    expectError(res, 400, 'body field `description.nodes[0].nodes[0].leaves`: is required')
    expect(w.api.dump()).toEqual(before)
    const ok = await call(w.api, w.tokens.ada, 'PATCH', w.crPath, { description: doc([EXAMPLES[0]!]) })
    expect(ok.status).toBe(200)
    expectOfficialResponse('updateChangeRequestById', 200, ok.body)
  })

  it(`refuses nesting deeper than ${MAX_DOCUMENT_DEPTH} levels and more than ${MAX_DOCUMENT_OBJECTS} objects with a 400, not a stack overflow`, async () => {
    const before = w.api.dump()
    let quote: Json = paragraph()
    for (let i = 0; i < 70; i++) quote = { object: 'block', type: 'blockquote', nodes: [quote] }
    expectError(await w.insert([quote]), 400, `body field \`changes[0].document.document\`: must nest at most ${MAX_DOCUMENT_DEPTH} levels`)
    // Far deeper than any recursion survives, within the 1 MiB body limit.
    const deep = `{"changes":[{"operation":"insert_page","document":{"document":{"object":"document","data":{"x":${'['.repeat(300_000)}${']'.repeat(300_000)}},"nodes":[]}}}]}`
    // Past what any body may nest, the codec refuses it first, on its text (core/json-limits.ts).
    expectError(
      await call(w.api, w.tokens.ada, 'POST', `${w.crPath}/content`, deep),
      400,
      'body field `changes[0].document.document.data.x[0][0]…`: nests objects and lists deeper than 256 levels',
    )
    const many = { object: 'document', data: { many: Array.from({ length: MAX_DOCUMENT_OBJECTS }, () => ({})) }, nodes: [] }
    expectError(await w.edit([{ operation: 'insert_page', document: { document: many } }]), 400, `must hold at most ${MAX_DOCUMENT_OBJECTS} objects`)
    expect(w.api.dump()).toEqual(before)
  })
})

describe('JSON documents: the schema and the official one agree', () => {
  it('accepts every document the markdown conversion makes', () => {
    const markdown =
      '# T\n\nHello **b** _i_ ~~s~~ `c` [l](https://x.y) ![i](/files/f)\n\n![a](https://x/y.png)\n\n- a\n  - b\n- [ ] c\n\n3. x\n\n> q\n> > qq\n\n> [!WARNING]\n> w\n\n```js\nconst a = 1\n```\n\n| a | b |\n|---|:-:|\n| 1 | 2 |\n\n***\n\n<b>html</b>\n'
    const document = markdownToDocument(markdown, { newKey: () => 'k' }).document
    expect(JsonDocumentSchema.safeParse(document).error).toBeUndefined()
  })

  it('accepts only documents the official JSONDocument schema accepts (generated from the schema itself)', () => {
    const documents = arbitraryOf(JsonDocumentSchema, () => undefined)
    let accepted = 0
    fc.assert(
      fc.property(documents, (value) => {
        const json = JSON.parse(JSON.stringify(value ?? null))
        const parsed = JsonDocumentSchema.safeParse(json)
        if (!parsed.success) return
        accepted++
        const answered = JSON.parse(JSON.stringify(parsed.data))
        expect(officialSchemaErrors('JSONDocument', answered)).toBeUndefined()
      }),
      { numRuns: 400, seed: 20260301 },
    )
    // Documents the generator cut short (it stops at a depth) are refused; enough others are not.
    expect(accepted).toBeGreaterThan(100)
  })
})

describe('JSON documents: references to the batch', () => {
  it('resolve a link to a page of the batch, and an image only to a file of the batch (an image cannot show a page)', async () => {
    const w = await setup()
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='
    const res = await w.edit([
      { operation: 'insert_files', files: [{ name: 'dot.png', contentType: 'image/png', base64: png, ref: 'dot' }] },
      { operation: 'insert_page', title: 'Target', ref: 'target', document: {} },
      {
        operation: 'insert_page',
        title: 'Markdown',
        document: { markdown: '[page](./target.md) ![page](./target.md) ![file](./dot)\n\n| cell |\n|---|\n| [page](./target) |\n' },
      },
      {
        operation: 'insert_page',
        title: 'Json',
        document: {
          document: doc(
            [image({ kind: 'url', url: './target' }), image({ kind: 'url', url: './dot' })].map((i) => ({
              object: 'block',
              type: 'images',
              isVoid: false,
              data: {},
              nodes: [i],
            })),
          ),
        },
      },
    ])
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const [target, markdown, json] = res.body.changes.map((c: any) => c.page.id)
    const file = res.body.insertedFiles[0].id
    const read = async (id: string) => (await call(w.api, w.tokens.ada, 'GET', `${w.crPath}/content/page/${id}`)).body.document
    const fromMarkdown = await read(markdown)
    expectOfficialSchema('JSONDocument', fromMarkdown)
    const [link, pageImage, fileImage] = fromMarkdown.nodes[0].nodes.filter((n: any) => n.object === 'inline')
    expect(link.data.ref).toEqual({ kind: 'page', page: target })
    expect(pageImage.data.ref).toEqual({ kind: 'url', url: './target.md' })
    expect(fileImage.data.ref).toEqual({ kind: 'file', file })
    // A link in a table cell (a fragment) resolves too.
    expect(fromMarkdown.nodes[1].fragments[0].nodes[0].nodes.find((n: any) => n.type === 'link').data.ref).toEqual({ kind: 'page', page: target })
    const fromJson = await read(json)
    expectOfficialSchema('JSONDocument', fromJson)
    expect(fromJson.nodes.map((b: any) => b.nodes[0].data.ref)).toEqual([
      { kind: 'url', url: './target' },
      { kind: 'file', file },
    ])
  })
})
