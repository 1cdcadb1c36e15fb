import { z } from 'zod'
import { CONTENT_REFS, ImageRefSchema, VerticalAlignmentSchema, listOf, nodeUnion } from './common.js'

/**
 * The `data` of a `table` block (`DocumentBlockTable`): its view, column definitions, records and
 * merged cells. Its fragments (the content of text cells) are blocks, see blocks.ts.
 */

const GridViewSchema = z
  .looseObject({
    type: z.literal('grid'),
    columns: z.array(z.string()),
    columnWidths: z.record(z.string(), z.number()).optional(),
    hideHeader: z.boolean(),
    stickyHeader: z.boolean().optional(),
    stickyFirstColumn: z.boolean().optional(),
    useNewSizing: z.boolean().optional(),
  })
  .meta({ id: 'DocumentTableViewGrid' })

const CardsViewSchema = z
  .looseObject({
    type: z.literal('cards'),
    cardSize: z.enum(['medium', 'large']),
    columns: z.array(z.string()),
    targetDefinition: z.string().optional(),
    coverDefinition: z.string().optional(),
    coverDefinitionDark: z.string().optional(),
    hideColumnTitle: z.boolean().optional(),
    wrap: z.boolean().optional(),
  })
  .meta({ id: 'DocumentTableViewCards' })

/** A column definition of `type` (`DocumentTableDefinition*`: an id and a title, then its own fields). */
const definition = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) =>
  z.looseObject({ id: z.string(), title: z.string(), type: z.literal(type), ...shape })

const DEFINITIONS = {
  text: definition('text', { textAlignment: z.enum(['center', 'right', 'left']), verticalAlignment: VerticalAlignmentSchema.optional() }),
  number: definition('number', {}),
  checkbox: definition('checkbox', {}),
  files: definition('files', {}),
  users: definition('users', { multiple: z.boolean() }),
  rating: definition('rating', { max: z.number() }),
  select: definition('select', { multiple: z.boolean(), options: z.array(z.looseObject({ value: z.string(), label: z.string(), color: z.string() })) }),
  'content-ref': definition('content-ref', {}),
  image: definition('image', {}),
}

const DefinitionSchema = nodeUnion('type', 'a column definition', Object.keys(DEFINITIONS), Object.values(DEFINITIONS)).meta({ id: 'DocumentTableDefinition' })

/**
 * A record's value: the official `oneOf` of a number, a string or null, a boolean, strings, a
 * `ContentRef` or a `DocumentTableImageRecord` (a file ref, a URL ref, or `{ref, objectFit, alt}`).
 * A file or URL ref matches both of the last two, which `oneOf` refuses, so those are refused here
 * too (an image is given as `{ref}`); a ref's object may not carry a `ref`, nor an image's a
 * `kind`, which could make it match both as well.
 */
const { file: _file, url: _url, ...CELL_REFS } = CONTENT_REFS
const CellRefSchema = nodeUnion(
  'kind',
  'a table cell reference',
  Object.keys(CELL_REFS),
  Object.values(CELL_REFS).map((schema) => schema.extend({ ref: z.never().optional() })),
  '; a file or URL is given as an image, {"ref": <reference>}',
)
const CellImageSchema = z.looseObject({
  ref: ImageRefSchema,
  objectFit: z.enum(['contain', 'fill', 'cover']).optional(),
  alt: z.string().optional(),
  kind: z.never().optional(),
})

const CellValueSchema = z.union([z.number(), z.string(), z.null(), z.boolean(), z.array(z.string()), CellRefSchema, CellImageSchema], {
  error:
    'must be a number, a string, null, a boolean, a list of strings, a content reference other than a file or URL, or an image {"ref": <file or URL reference>}',
})

const RecordSchema = z.looseObject({ orderIndex: z.string(), values: z.record(z.string(), CellValueSchema) }).meta({ id: 'DocumentTableRecord' })

const CellSpanSchema = z.number().int('must be a whole number').min(1, 'must be at least 1').max(50, 'must be at most 50')

const CellMergeSchema = z.looseObject({
  anchor: z.looseObject({ record: z.string(), column: z.string() }),
  rowSpan: CellSpanSchema,
  colSpan: CellSpanSchema,
})

export const TableDataSchema = z.looseObject({
  view: nodeUnion('type', 'a table view', ['grid', 'cards'], [GridViewSchema, CardsViewSchema]),
  records: z.record(z.string(), RecordSchema),
  definition: z.record(z.string(), DefinitionSchema),
  cellMerges: listOf(CellMergeSchema, 'a list of merged cells').optional(),
  fullWidth: z.boolean().optional(),
  search: z.boolean().optional(),
})
