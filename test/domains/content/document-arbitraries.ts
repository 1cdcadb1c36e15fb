import fc from 'fast-check'
import type { DocBlock, JsonDocument } from '../../../src/domains/content/document.js'
import { inlineNodes, leaf, type Piece } from '../../../src/domains/content/markdown/nodes.js'

/** Documents in the canonical shape the parser produces, from every supported block and mark. */
// Known limits of the markdown writer (remark-stringify), left out of the generated text: a literal
// `_` next to emphasis it writes with `_` can read back as a delimiter (about 1 document in 5,000);
// a backslash before a pipe in inline code in a table cell has no GFM spelling (cells go without).
const CHARS = 'aZ1é中😀*[]#<>`!~|&.-+()'
const word = (chars = `${CHARS}\\`) => fc.array(fc.constantFrom(...chars), { minLength: 1, maxLength: 6 }).map((cs) => cs.join(''))
const marked = (chars?: string) => fc.record({ t: word(chars), m: fc.subarray(['bold', 'italic', 'strikethrough', 'code']) }).map(({ t, m }) => leaf(t, m))
const id = fc.stringMatching(/^[A-Za-z0-9]{1,8}$/)
const linkRef = fc.oneof(
  id.map((page) => ({ kind: 'page', page })),
  id.map((file) => ({ kind: 'file', file })),
  fc.constantFrom('https://example.com/a?b=1&c=2', 'mailto:x@y.z', 'https://e.com/(x)').map((url) => ({ kind: 'url', url })),
)
const link = (chars?: string) =>
  fc
    .record({ ref: linkRef, leaves: fc.array(marked(chars), { minLength: 1, maxLength: 3 }) })
    .map(({ ref, leaves }): Piece => ({ object: 'inline', type: 'link', data: { ref }, nodes: inlineNodes(leaves) }))
/** Content runs joined by a space, nothing, or (where allowed) a hard break: never one at either end. */
const inline = (breaks: boolean, chars?: string) =>
  fc
    .array(
      fc.tuple(fc.oneof({ weight: 3, arbitrary: marked(chars) }, { weight: 1, arbitrary: link(chars) }), fc.constantFrom(' ', '', ...(breaks ? ['\n'] : []))),
      { minLength: 1, maxLength: 5 },
    )
    .map((runs) => inlineNodes(runs.flatMap(([piece, sep], i) => (i < runs.length - 1 && sep ? [piece, leaf(sep)] : [piece]))))
const blk = (type: string, rest: Omit<DocBlock, 'object' | 'type'>): DocBlock => ({ object: 'block', type, ...rest })
const para = inline(true).map((nodes) => blk('paragraph', { data: {}, nodes }))
const heading = fc.tuple(fc.constantFrom(1, 2, 3), inline(false)).map(([n, nodes]) => blk(`heading-${n}`, { data: {}, nodes }))
const codeLine = fc
  .array(fc.constantFrom(...'ab `~*<#\\'), { maxLength: 8 })
  .map((cs) => blk('code-line', { data: {}, nodes: [{ object: 'text', leaves: [leaf(cs.join(''))] }] }))
const code = fc
  .record({ syntax: fc.option(fc.constantFrom('js', 'python')), lines: fc.array(codeLine, { minLength: 1, maxLength: 4 }) })
  .map(({ syntax, lines }) => blk('code', { data: syntax ? { syntax } : {}, nodes: lines }))
const divider = fc.constant(blk('divider', { isVoid: true, data: {} }))
const imageRef = fc.oneof(
  id.map((file) => ({ kind: 'file', file })),
  fc.constantFrom('https://e.com/i.png').map((url) => ({ kind: 'url', url })),
)
const image = fc
  .record({ ref: imageRef, alt: fc.option(word()) })
  .map(({ ref, alt }) => blk('image', { isVoid: true, data: alt ? { ref, alt } : { ref }, fragments: [] }))
const images = fc.array(image, { minLength: 1, maxLength: 3 }).map((nodes) => blk('images', { isVoid: false, data: {}, nodes }))
const table = fc
  .record({
    cols: fc.array(fc.record({ title: word(), align: fc.constantFrom('left', 'center', 'right') }), { minLength: 1, maxLength: 3 }),
    rows: fc.array(fc.array(inline(false, CHARS), { minLength: 3, maxLength: 3 }), { maxLength: 3 }),
  })
  .map(({ cols, rows }) => {
    const columns = cols.map((_, c) => `c${c}`)
    const fragments = rows.flatMap((row, r) =>
      cols.map((_, c) => ({ object: 'fragment' as const, fragment: `f${r * cols.length + c}`, nodes: [blk('paragraph', { data: {}, nodes: row[c]! })] })),
    )
    const records = Object.fromEntries(
      rows.map((_, r) => [`r${r}`, { orderIndex: `a${r}`, values: Object.fromEntries(columns.map((c, i) => [c, `f${r * cols.length + i}`])) }]),
    )
    const definition = Object.fromEntries(cols.map(({ title, align }, c) => [`c${c}`, { id: `c${c}`, title, type: 'text', textAlignment: align }]))
    return blk('table', { isVoid: true, data: { view: { type: 'grid', columns, hideHeader: false }, records, definition }, fragments })
  })
const list = fc.letrec<{ list: DocBlock; item: DocBlock }>((tie) => ({
  list: fc
    .record({
      type: fc.constantFrom('list-unordered', 'list-ordered', 'list-tasks'),
      start: fc.option(fc.integer({ min: 0, max: 20 })),
      items: fc.array(tie('item'), { minLength: 1, maxLength: 3 }),
    })
    .map(({ type, start, items }) =>
      blk(type, {
        data: type === 'list-ordered' && start !== null && start !== 1 ? { start } : {},
        nodes: items.map((item, i) => ({ ...item, data: type === 'list-tasks' ? { checked: i % 2 === 0 } : {} })),
      }),
    ),
  item: fc
    .tuple(para, fc.oneof({ depthSize: 'small', maxDepth: 2, withCrossShrink: true }, fc.constant(undefined), tie('list'), code))
    .map(([p, more]) => blk('list-item', { data: {}, nodes: more ? [p, more] : [p] })),
})).list
const quote = fc.array(fc.oneof(para, heading, list), { minLength: 1, maxLength: 3 }).map((nodes) => blk('blockquote', { data: {}, nodes }))
const hint = fc
  .record({ style: fc.constantFrom('info', 'success', 'warning', 'danger'), nodes: fc.array(fc.oneof(para, list, table), { minLength: 1, maxLength: 2 }) })
  .map(({ style, nodes }) => blk('hint', { data: { style }, nodes }))
export const documents = fc
  .array(fc.oneof(para, heading, code, divider, list, quote, hint, images, table), { maxLength: 6 })
  .map((nodes): JsonDocument => ({ object: 'document', data: { schemaVersion: 1 }, nodes }))
