import type { DocBlock, DocInline, JsonObject } from '../content/document.js'

/**
 * Text a reader sees that a document holds in a node's `data` rather than in text leaves (the
 * official `DocumentBlock*` and `DocumentInline*` schemas): a table's column titles and select
 * option labels, the alt text of an image cell, an image's alt text, an inline image's caption and
 * alt text, a tab's title, a prompt's description. Each goes through the translator on its own
 * (`kind: 'label'`). Everything else in `data` (URLs, ids, select values that records point at,
 * styles, a code block's file name) is kept as written.
 */
export interface DataText {
  /** The object holding the text (a block's `data`, a column definition, an option...). */
  holder: JsonObject
  key: string
  text: string
  /** What it is, for messages ("a column title"). */
  what: string
  /** Fields to set beside the translated text (a tab keeps the slug its title gave it). */
  pin?: JsonObject
}

const isObject = (v: unknown): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v)

/** `holder[key]` when it is a text with something to translate. */
function textAt(holder: unknown, key: string, what: string, pin?: JsonObject): DataText[] {
  if (!isObject(holder)) return []
  const text = holder[key]
  return typeof text === 'string' && text.trim() !== '' ? [{ holder, key, text, what, ...(pin && { pin }) }] : []
}

function tableTexts(data: JsonObject): DataText[] {
  const out: DataText[] = []
  for (const column of Object.values(isObject(data.definition) ? data.definition : {})) {
    out.push(...textAt(column, 'title', 'a column title'))
    if (isObject(column) && Array.isArray(column.options)) for (const option of column.options) out.push(...textAt(option, 'label', 'an option label'))
  }
  for (const record of Object.values(isObject(data.records) ? data.records : {})) {
    // An image cell is `{ref, objectFit?, alt?}`; other values are numbers, strings, references.
    const values = isObject(record) && isObject(record.values) ? Object.values(record.values) : []
    for (const value of values) if (isObject(value) && 'ref' in value) out.push(...textAt(value, 'alt', 'the alt text of an image cell'))
  }
  return out
}

/** The data texts of a block (not of the blocks it holds). */
export function blockDataTexts(block: DocBlock): DataText[] {
  const data = block.data
  if (!data) return []
  switch (block.type) {
    case 'table':
      return tableTexts(data)
    case 'image':
      return textAt(data, 'alt', 'the alt text of an image')
    case 'prompt':
      return textAt(data, 'description', 'the description of a prompt')
    case 'tabs-item': {
      // A tab without a slug is targeted by its title's: it keeps that one, whatever its title becomes.
      const slug = data.slug
      return textAt(data, 'title', 'the title of a tab', typeof slug === 'string' && slug.trim() !== '' ? undefined : { slug: data.title })
    }
    default:
      return []
  }
}

/** The data texts of an inline. */
export function inlineDataTexts(inline: DocInline): DataText[] {
  return inline.type === 'inline-image' && inline.data
    ? [...textAt(inline.data, 'caption', 'the caption of an inline image'), ...textAt(inline.data, 'alt', 'the alt text of an inline image')]
    : []
}
