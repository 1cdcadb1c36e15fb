import type { AlignType, PhrasingContent, Table, TableCell } from 'mdast'
import type { DocBlock, DocFragment, JsonObject } from '../document.js'
import { phrasingPieces, type ParseContext } from './inline-from.js'
import { phrasing } from './inline-to.js'
import { block, dataOf, inlineNodes, leaf, nodeText, paragraph, type BuildContext } from './nodes.js'
import { refUrl } from './refs.js'

/**
 * GFM tables as the official `table` block: a grid view over text columns (DocumentTableDefinitionText),
 * one record per body row. A text cell's value is the name of one of the block's fragments, which
 * holds the cell's content as a paragraph (how the official renderer reads text cells: the value
 * names a fragment). The header row becomes the column titles, which are plain strings.
 */

const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

/** The n-th order index, in the fractional-indexing form ('a0'...'az', 'b00'...), sorting as strings. */
export function orderIndex(n: number): string {
  let digits = ''
  let rest = n
  let width = 1
  for (let cap = 62; rest >= cap; cap *= 62) [rest, width] = [rest - cap, width + 1]
  for (let i = 0; i < width; i++) [digits, rest] = [DIGITS[rest % 62] + digits, Math.floor(rest / 62)]
  return String.fromCharCode('a'.charCodeAt(0) + width - 1) + digits
}

const ALIGN_IN: Record<string, string> = { left: 'left', center: 'center', right: 'right' }
// Left is how an unaligned column renders, so it is written without a colon.
const ALIGN_OUT: Record<string, AlignType> = { center: 'center', right: 'right' }

export function tableFromMdast(node: Table, ctx: ParseContext): DocBlock {
  const [header, ...rows] = node.children
  const id = (prefix: string, i: number) => (ctx.newKey ? ctx.newKey() : `${prefix}${i}`)
  const columns = (header?.children ?? []).map((_, i) => id('c', i))
  const definition: Record<string, JsonObject> = {}
  columns.forEach((column, i) => {
    const title = nodeText(paragraph({}, phrasingPieces(header?.children[i]?.children ?? [], ctx)))
    definition[column] = { id: column, title, type: 'text', textAlignment: ALIGN_IN[node.align?.[i] ?? ''] ?? 'left' }
  })
  const records: Record<string, JsonObject> = {}
  const fragments: DocFragment[] = []
  rows.forEach((row, r) => {
    const values: JsonObject = {}
    columns.forEach((column, c) => {
      const name = id('f', fragments.length)
      const cell = phrasingPieces(row.children[c]?.children ?? [], ctx)
      fragments.push({ object: 'fragment', fragment: name, nodes: [paragraph(ctx, cell)] })
      values[column] = name
    })
    records[id('r', r)] = { orderIndex: orderIndex(r), values }
  })
  const view = { type: 'grid', columns, hideHeader: false }
  return block(ctx, 'table', { isVoid: true, data: { view, records, definition }, fragments })
}

const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

interface Grid {
  columns: string[]
  definition: Record<string, JsonObject>
  rows: JsonObject[]
  fragments: Map<string | undefined, DocFragment>
}

function grid(b: DocBlock): Grid {
  const data = dataOf(b)
  const definition = (data.definition ?? {}) as Record<string, JsonObject>
  const viewColumns = ((data.view ?? {}) as JsonObject).columns
  const columns = (Array.isArray(viewColumns) ? (viewColumns as string[]) : Object.keys(definition)).filter((c) => definition[c])
  const rows = Object.entries((data.records ?? {}) as Record<string, JsonObject>)
    // Order indexes compare by code unit (fractional indexing), not by locale.
    .sort(([a, x], [b, y]) => byCodeUnit(String(x.orderIndex), String(y.orderIndex)) || byCodeUnit(a, b))
    .map(([, record]) => (record.values ?? {}) as JsonObject)
  return { columns, definition, rows, fragments: new Map((b.fragments ?? []).map((f) => [f.fragment, f])) }
}

/** A cell's content: a text cell's fragment, or the value written as text (numbers, checkboxes, refs). */
function cellPhrasing(g: Grid, value: unknown): PhrasingContent[] {
  const fragment = typeof value === 'string' ? g.fragments.get(value) : undefined
  if (fragment)
    return phrasing(
      fragment.nodes.flatMap((n) => (n.type === 'paragraph' ? [n] : [])),
      true,
    )
  if (value === null || value === undefined) return []
  if (typeof value === 'object' && !Array.isArray(value)) {
    const url = refUrl(value)
    return url ? [{ type: 'link', url, title: null, children: [{ type: 'text', value: url }] }] : []
  }
  return [{ type: 'text', value: Array.isArray(value) ? value.join(', ') : String(value) }]
}

export function tableToMdast(b: DocBlock): Table {
  const g = grid(b)
  const cell = (children: PhrasingContent[]): TableCell => ({ type: 'tableCell', children })
  const header = g.columns.map((c) => cell([{ type: 'text', value: String(g.definition[c]!.title ?? '') }]))
  return {
    type: 'table',
    align: g.columns.map((c) => ALIGN_OUT[String(g.definition[c]!.textAlignment)] ?? null),
    children: [
      { type: 'tableRow', children: header },
      ...g.rows.map((values) => ({ type: 'tableRow' as const, children: g.columns.map((c) => cell(cellPhrasing(g, values[c]))) })),
    ],
  }
}

/** Where the schema allows no table (a blockquote): one paragraph per row, cells separated by " | ". */
export function tableAsParagraphs(b: DocBlock, ctx: BuildContext): DocBlock[] {
  const g = grid(b)
  const text = (value: unknown) => {
    const fragment = typeof value === 'string' ? g.fragments.get(value) : undefined
    return fragment ? fragment.nodes.map(nodeText).join(' ') : value === null || typeof value === 'object' ? '' : String(value)
  }
  const lines = [g.columns.map((c) => String(g.definition[c]!.title ?? '')), ...g.rows.map((v) => g.columns.map((c) => text(v[c])))]
  return lines.map((cells) => block(ctx, 'paragraph', { data: {}, nodes: inlineNodes([leaf(cells.join(' | '))]) }))
}
