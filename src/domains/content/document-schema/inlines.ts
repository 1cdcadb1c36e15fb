import { z } from 'zod'
import type { DocInline, DocLeaf, DocText } from '../document.js'
import { ContentRefSchema, ImageRefSchema, KeySchema, TextColorSchema, listOf, nodeUnion } from './common.js'

/**
 * Text and the inlines that hold no block: marks (`DocumentTextMark`), leaves, texts
 * (`DocumentText`), and `DocumentInline*` but the annotation (which holds blocks, see blocks.ts).
 * The official `button` inline is left out on purpose: its `data` is `allOf` a label and kind
 * with a `oneOf` of `{ref}` or `{action}` objects that allow no other key, so no button satisfies
 * the official schema, and one accepted here could never be answered back valid.
 */

const mark = <T extends string, S extends z.ZodRawShape>(type: T, shape: S, id: string) =>
  z.looseObject({ object: z.literal('mark'), type: z.literal(type), ...shape }).meta({ id })

const MARKS = {
  bold: mark('bold', {}, 'DocumentMarkBold'),
  italic: mark('italic', {}, 'DocumentMarkItalic'),
  code: mark('code', {}, 'DocumentMarkCode'),
  keyboard: mark('keyboard', {}, 'DocumentMarkKeyboard'),
  strikethrough: mark('strikethrough', {}, 'DocumentMarkStrikethrough'),
  color: mark('color', { data: z.looseObject({ text: TextColorSchema, background: TextColorSchema }) }, 'DocumentMarkColor'),
  superscript: mark('superscript', {}, 'DocumentMarkSuperscript'),
  subscript: mark('subscript', {}, 'DocumentMarkSubscript'),
}
export const MARK_TYPES = Object.keys(MARKS)

export const MarkSchema = nodeUnion('type', 'a leaf', MARK_TYPES, Object.values(MARKS)).meta({ id: 'DocumentTextMark' })

export const LeafSchema: z.ZodType<DocLeaf> = z
  .looseObject({
    object: z.literal('leaf'),
    text: z.string(),
    marks: listOf(MarkSchema, 'a list of marks (bold, italic...), possibly empty'),
  })
  .meta({ id: 'DocumentTextLeaf' }) as unknown as z.ZodType<DocLeaf>

export const TextSchema: z.ZodType<DocText> = z
  .looseObject({
    object: z.literal('text'),
    key: KeySchema,
    leaves: listOf(LeafSchema, 'a list of leaves ({"object": "leaf", "text": "...", "marks": []})'),
  })
  .meta({ id: 'DocumentText' }) as unknown as z.ZodType<DocText>

/** An inline of `type` whose fields are `shape` (data, nodes, isVoid...). */
export const inline = <T extends string, S extends z.ZodRawShape>(type: T, shape: S, id: string): z.ZodType<DocInline> =>
  z.looseObject({ object: z.literal('inline'), type: z.literal(type), key: KeySchema, ...shape }).meta({ id }) as unknown as z.ZodType<DocInline>

const VOID = z.literal(true)

export const InlineImageSchema = inline(
  'inline-image',
  {
    data: z.looseObject({
      ref: ImageRefSchema,
      refDark: ImageRefSchema.optional(),
      caption: z.string().optional(),
      alt: z.string().optional(),
      size: z.enum(['original', 'line']).optional(),
    }),
    isVoid: VOID,
  },
  'DocumentInlineImage',
)

export const LinkSchema = inline(
  'link',
  {
    nodes: listOf(
      nodeUnion('object', 'a link', ['text', 'inline'], [TextSchema, nodeUnion('type', 'a link', ['inline-image'], [InlineImageSchema])]),
      'a list of texts and inline images',
    ),
    data: z.looseObject({ ref: ContentRefSchema }),
    isVoid: z.literal(false).optional(),
  },
  'DocumentInlineLink',
)

/** The inlines that hold neither blocks nor other inlines, by type. */
export const LEAF_INLINES = {
  'inline-image': InlineImageSchema,
  link: LinkSchema,
  emoji: inline('emoji', { data: z.looseObject({ code: z.string() }), isVoid: VOID }, 'DocumentInlineEmoji'),
  icon: inline('icon', { data: z.looseObject({ icon: z.string(), color: TextColorSchema.optional() }), isVoid: VOID }, 'DocumentInlineIcon'),
  expression: inline('expression', { data: z.looseObject({ expression: z.string() }), isVoid: VOID }, 'DocumentInlineExpression'),
  'inline-math': inline('inline-math', { data: z.looseObject({ formula: z.string() }), isVoid: VOID }, 'DocumentInlineMath'),
  mention: inline('mention', { data: z.looseObject({ ref: ContentRefSchema }), isVoid: VOID }, 'DocumentInlineMention'),
}
