import { z } from 'zod'
import type { DocBlock, DocInline } from '../document.js'
import {
  ContentKitActionSchema,
  ContentRefOpenApiSchema,
  ContentRefReusableContentSchema,
  ContentRefSchema,
  ContentRefTagSchema,
  DateTimeSchema,
  FileRefSchema,
  IconSchema,
  ImageRefSchema,
  KeySchema,
  LengthSchema,
  LinkTargetSchema,
  PlainObjectSchema,
  TextAlignmentSchema,
  VerticalAlignmentSchema,
  listOf,
  nodeUnion,
} from './common.js'
import { LEAF_INLINES, TextSchema, inline } from './inlines.js'
import { TableDataSchema } from './table.js'

/**
 * Every official block type (`DocumentBlock*`) and the annotation inline (it holds blocks), each
 * with the blocks its official schema lets it hold. Blocks refer to each other (a list item holds
 * lists, a blockquote blockquotes), so the lists of blocks a place holds are built lazily, once,
 * from the table of block schemas below.
 */

/** `DocumentBlocksEssentials`. */
export const ESSENTIALS = ['paragraph', 'heading-1', 'heading-2', 'heading-3', 'list-ordered', 'list-unordered', 'list-tasks', 'divider'] as const

/** The official top-level block types (`DocumentBlocksTopLevels`). */
export const TOP_LEVEL_BLOCK_TYPES = [
  ...ESSENTIALS,
  'blockquote',
  'hint',
  'prompt',
  'images',
  'file',
  'drawing',
  'embed',
  'code',
  'math',
  'expandable',
  'tabs',
  'table',
  'swagger',
  'openapi-operation',
  'openapi-schemas',
  'openapi-webhook',
  'content-ref',
  'integration',
  'reusable-content',
  'stepper',
  'if',
  'columns',
  'updates',
] as const

/** Every block type (`DocumentBlock`): the top-level ones and those that only stand inside another. */
export const BLOCK_TYPES = [...TOP_LEVEL_BLOCK_TYPES, 'list-item', 'image', 'code-line', 'tabs-item', 'stepper-step', 'column', 'update'] as const

/** The blocks that hold the usual content of a tab, a step or an update (besides their own extras). */
const CONTENT = [...ESSENTIALS, 'content-ref', 'code', 'embed', 'file', 'images', 'drawing', 'hint', 'prompt', 'blockquote', 'math', 'integration'] as const

const BLOCKS = new Map<string, z.ZodType>()

/** A block of `type` (or of one of several types) whose fields are `shape`, named `id` as the official component. */
function block(type: string | readonly [string, ...string[]], shape: z.ZodRawShape, id: string): z.ZodType<DocBlock> {
  const types = typeof type === 'string' ? [type] : type
  const schema = z
    .looseObject({ object: z.literal('block'), type: typeof type === 'string' ? z.literal(type) : z.enum(type), key: KeySchema, ...shape })
    .meta({ id })
  for (const t of types) BLOCKS.set(t, schema)
  return schema as unknown as z.ZodType<DocBlock>
}

/** One of the blocks `place` holds (a union built on first use, when every block is defined). */
function blockIn(place: string, types: readonly string[]): z.ZodType<DocBlock> {
  return z.lazy(() => nodeUnion('type', place, types, [...new Set(types.map((t) => BLOCKS.get(t)!))])) as unknown as z.ZodType<DocBlock>
}

/** A block's `nodes`: a list of the blocks `place` holds. */
const blocksIn = (place: string, types: readonly string[]) =>
  listOf(blockIn(place, types), types.length === 1 ? `a list of ${types[0]} blocks` : `a list of blocks (${types.join(', ')})`)

/** A `DocumentFragment` (named content a block keeps beside its nodes) with its own fields. */
const fragment = (shape: z.ZodRawShape) =>
  z.looseObject({ object: z.literal('fragment'), key: KeySchema, fragment: z.string().optional(), type: z.string().optional(), ...shape })

const VOID = z.literal(true)
const NOT_VOID = z.literal(false).optional()
const EMPTY_DATA = z.strictObject({})
const META_ID = z.looseObject({ id: z.string() }).optional()

const AnnotationSchema = inline(
  'annotation',
  {
    fragments: listOf(
      fragment({ type: z.literal('annotation-body'), nodes: blocksIn('an annotation', [...ESSENTIALS, 'code']).min(1, 'must hold at least one block') }),
      'a list of fragments ({"object": "fragment", "type": "annotation-body", "nodes": [...]})',
    ),
    isVoid: z.literal(false),
    nodes: listOf(TextSchema, 'a list of texts'),
    data: EMPTY_DATA.optional(),
  },
  'DocumentInlineAnnotation',
)

const INLINES: Record<string, z.ZodType<DocInline>> = { ...LEAF_INLINES, annotation: AnnotationSchema }

/** The `nodes` of text content in `place`: texts and inlines of `types`. */
function textContent(place: string, types: readonly string[]) {
  const inlines = nodeUnion(
    'type',
    place,
    types,
    types.map((t) => INLINES[t]!),
  )
  return listOf(nodeUnion('object', place, ['text', 'inline'], [TextSchema, inlines]), 'a list of texts and inlines')
}

const INLINE_TYPES = Object.keys(INLINES)

const ParagraphSchema = block(
  'paragraph',
  { nodes: textContent('a paragraph', INLINE_TYPES), isVoid: NOT_VOID, data: z.strictObject({ align: TextAlignmentSchema.optional() }).optional() },
  'DocumentBlockParagraph',
)
const paragraphs = (place: string) => listOf(ParagraphSchema, `a list of paragraphs (in ${place})`)

block(
  ['heading-1', 'heading-2', 'heading-3'],
  {
    nodes: textContent('a heading', INLINE_TYPES),
    data: z.looseObject({
      id: z
        .string()
        .regex(/^[-a-z0-9.+_]+$/, 'must be lowercase letters, digits, -, ., + and _')
        .optional(),
      align: TextAlignmentSchema.optional(),
    }),
    meta: META_ID,
    isVoid: NOT_VOID,
  },
  'DocumentBlockHeading',
)

const listItems = (place: string) => blocksIn(place, ['list-item'])
block(
  'list-ordered',
  { data: z.looseObject({ start: z.number().optional() }), nodes: listItems('an ordered list'), isVoid: NOT_VOID },
  'DocumentBlockListOrdered',
)
block('list-unordered', { nodes: listItems('a bulleted list'), data: EMPTY_DATA.optional(), isVoid: NOT_VOID }, 'DocumentBlockListUnordered')
block('list-tasks', { nodes: listItems('a task list'), data: EMPTY_DATA.optional(), isVoid: NOT_VOID }, 'DocumentBlockListTasks')
block(
  'list-item',
  {
    nodes: blocksIn('a list item', [...ESSENTIALS, 'code', 'hint', 'blockquote', 'math', 'table']),
    data: z.looseObject({ checked: z.boolean().optional() }).optional(),
    isVoid: NOT_VOID,
  },
  'DocumentBlockListItem',
)
block('divider', { isVoid: VOID, data: EMPTY_DATA }, 'DocumentBlockDivider')

block('blockquote', { nodes: blocksIn('a blockquote', [...ESSENTIALS, 'blockquote']), data: EMPTY_DATA.optional(), isVoid: NOT_VOID }, 'DocumentBlockQuote')
block(
  'hint',
  {
    data: z.looseObject({ style: z.enum(['info', 'warning', 'danger', 'success']), icon: IconSchema.optional() }),
    nodes: blocksIn('a hint', [...ESSENTIALS, 'embed', 'integration', 'table']),
    isVoid: NOT_VOID,
  },
  'DocumentBlockHint',
)
block(
  'prompt',
  {
    data: z.strictObject({
      description: z.string(),
      icon: IconSchema.optional(),
      openInAIProviders: z.boolean().optional(),
      defaultExpanded: z.enum(['hidden', 'partial', 'full']).optional(),
    }),
    nodes: blocksIn('a prompt', ['code']).length(1, 'must hold exactly one code block'),
    isVoid: NOT_VOID,
  },
  'DocumentBlockPrompt',
)
block('if', { nodes: blocksIn('an if block', TOP_LEVEL_BLOCK_TYPES), data: z.looseObject({ expression: z.string() }), isVoid: NOT_VOID }, 'DocumentBlockIf')

block(
  'images',
  {
    data: z.looseObject({ align: z.enum(['center', 'left', 'right']).optional(), fullWidth: z.boolean().optional(), withFrame: z.boolean().optional() }),
    nodes: blocksIn('an images block', ['image']),
    isVoid: z.literal(false),
  },
  'DocumentBlockImages',
)
block(
  'image',
  {
    data: z.looseObject({
      ref: ImageRefSchema,
      refDark: ImageRefSchema.optional(),
      width: LengthSchema.optional(),
      height: LengthSchema.optional(),
      alt: z.string().optional(),
    }),
    fragments: listOf(fragment({ fragment: z.literal('caption'), nodes: paragraphs('a caption') }), 'a list of caption fragments, possibly empty'),
    isVoid: VOID,
  },
  'DocumentBlockImage',
)
block('file', { data: z.looseObject({ ref: FileRefSchema }), isVoid: VOID }, 'DocumentBlockFile')
block('drawing', { data: z.looseObject({ ref: FileRefSchema.optional() }), isVoid: VOID }, 'DocumentBlockDrawing')
block('embed', { data: z.looseObject({ url: LinkTargetSchema, fullWidth: z.boolean().optional() }), isVoid: VOID }, 'DocumentBlockEmbed')
block('math', { data: z.looseObject({ formula: z.string() }), isVoid: VOID }, 'DocumentBlockMath')

block(
  'code',
  {
    data: z.looseObject({
      syntax: z.string().optional(),
      title: z.string().optional(),
      overflow: z.enum(['scroll', 'wrap']).optional(),
      lineNumbers: z.boolean().optional(),
      fullWidth: z.boolean().optional(),
      expandable: z.boolean().optional(),
      collapsedLineCount: z.number().int('must be a whole number').min(1, 'must be at least 1').optional(),
    }),
    nodes: blocksIn('a code block', ['code-line']),
    isVoid: NOT_VOID,
  },
  'DocumentBlockCode',
)
block(
  'code-line',
  { nodes: textContent('a code line', ['annotation', 'expression']), data: z.looseObject({ highlighted: z.boolean().optional() }), isVoid: NOT_VOID },
  'DocumentBlockCodeLine',
)

const ExpandableTitleSchema = fragment({
  fragment: z.literal('expandable-title'),
  type: z.literal('expandable-title'),
  nodes: paragraphs('an expandable title').length(1, 'must hold exactly one paragraph'),
})
/** The blocks an expandable's body may hold (content/dereference.ts inlines a reusable content there only when all its blocks are among them). */
export const EXPANDABLE_BODY = [...ESSENTIALS, 'file', 'images', 'code', 'table', 'hint', 'prompt', 'blockquote', 'reusable-content', 'integration'] as const
const ExpandableBodySchema = fragment({
  fragment: z.literal('expandable-body'),
  type: z.literal('expandable-body'),
  nodes: blocksIn('an expandable body', EXPANDABLE_BODY).min(1, 'must hold at least one block'),
})
block(
  'expandable',
  {
    isVoid: VOID,
    data: z.strictObject({ defaultExpanded: z.boolean().optional() }),
    fragments: listOf(
      nodeUnion('fragment', 'an expandable block', ['expandable-title', 'expandable-body'], [ExpandableTitleSchema, ExpandableBodySchema]),
      'a list of fragments (its title and body)',
    ),
    meta: META_ID,
  },
  'DocumentBlockExpandable',
)

block(
  'tabs',
  { nodes: blocksIn('a tabs block', ['tabs-item']), data: z.strictObject({ fullWidth: z.boolean().optional() }).optional(), isVoid: NOT_VOID },
  'DocumentBlockTabs',
)
block(
  'tabs-item',
  {
    nodes: blocksIn('a tab', CONTENT),
    data: z.looseObject({ title: z.string().optional(), icon: IconSchema.optional(), slug: z.string().optional() }),
    meta: META_ID,
    isVoid: NOT_VOID,
  },
  'DocumentBlockTabsItem',
)

block(
  'table',
  {
    isVoid: VOID,
    data: TableDataSchema,
    fragments: listOf(fragment({ nodes: blocksIn('a table cell', BLOCK_TYPES) }), 'a list of fragments (the content of text cells)'),
  },
  'DocumentBlockTable',
)

const openApiBlock = (type: string, data: z.ZodRawShape, id: string) => block(type, { data: z.looseObject(data), isVoid: VOID, meta: META_ID }, id)
openApiBlock(
  'swagger',
  { path: z.string(), method: z.string(), ref: ImageRefSchema, expanded: z.boolean().optional(), fullWidth: z.boolean().optional() },
  'DocumentBlockOpenAPI',
)
openApiBlock(
  'openapi-operation',
  { path: z.string(), method: z.string(), ref: ContentRefOpenApiSchema, headless: z.boolean().optional() },
  'DocumentBlockOpenAPIOperation',
)
openApiBlock(
  'openapi-schemas',
  { grouped: z.boolean().optional(), schemas: z.array(z.string()), title: z.string().optional(), ref: ContentRefOpenApiSchema },
  'DocumentBlockOpenAPISchemas',
)
openApiBlock(
  'openapi-webhook',
  { name: z.string(), method: z.string(), ref: ContentRefOpenApiSchema, headless: z.boolean().optional() },
  'DocumentBlockOpenAPIWebhook',
)

block('content-ref', { data: z.looseObject({ ref: ContentRefSchema }), isVoid: VOID }, 'DocumentBlockContentRef')
block(
  'integration',
  {
    data: z.looseObject({
      integration: z.string(),
      block: z.string(),
      props: PlainObjectSchema,
      action: ContentKitActionSchema.optional(),
      url: LinkTargetSchema.optional(),
      fullWidth: z.boolean().optional(),
    }),
    isVoid: VOID,
    meta: z.looseObject({ token: z.string().optional(), spaceId: z.string().optional() }).optional(),
  },
  'DocumentBlockIntegration',
)
block(
  'reusable-content',
  { data: z.looseObject({ ref: ContentRefReusableContentSchema }), isVoid: VOID, meta: z.looseObject({ token: z.string().optional() }).optional() },
  'DocumentBlockReusableContent',
)

block('stepper', { nodes: blocksIn('a stepper', ['stepper-step']), data: EMPTY_DATA.optional(), isVoid: NOT_VOID }, 'DocumentBlockStepper')
block(
  'stepper-step',
  { nodes: blocksIn('a stepper step', [...CONTENT, 'expandable']), data: z.looseObject({ icon: z.string().optional() }), isVoid: NOT_VOID },
  'DocumentBlockStepperStep',
)

block(
  'columns',
  { data: z.looseObject({ fullWidth: z.boolean().optional() }), nodes: blocksIn('a columns block', ['column']), isVoid: z.literal(false) },
  'DocumentBlockColumns',
)
block(
  'column',
  {
    nodes: blocksIn('a column', [
      ...ESSENTIALS,
      'images',
      'code',
      'hint',
      'prompt',
      'content-ref',
      'drawing',
      'embed',
      'file',
      'integration',
      'math',
      'blockquote',
      'table',
      'expandable',
      'stepper',
    ]),
    data: z.strictObject({ width: LengthSchema.optional(), verticalAlignment: VerticalAlignmentSchema.optional() }),
    isVoid: NOT_VOID,
  },
  'DocumentBlockColumn',
)

block(
  'updates',
  { nodes: blocksIn('an updates block', ['update']), data: z.strictObject({ format: z.enum(['numeric', 'full', 'short']) }), isVoid: NOT_VOID },
  'DocumentBlockUpdates',
)
block(
  'update',
  {
    nodes: blocksIn('an update', [...CONTENT, 'tabs', 'expandable']),
    data: z.looseObject({ date: DateTimeSchema, tags: z.array(ContentRefTagSchema).optional() }),
    isVoid: NOT_VOID,
  },
  'DocumentBlockUpdate',
)

/** A block of the document itself (`DocumentBlocksTopLevels`). */
export const TopLevelBlockSchema = blockIn('a document', TOP_LEVEL_BLOCK_TYPES)
