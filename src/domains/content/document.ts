/**
 * The rich-text document of a page body, comment or description, as the official schema has it
 * (`JSONDocument`): blocks of typed nodes down to text leaves with marks. The types are kept loose
 * (types and data are strings and records) so code that walks a document need not know every
 * block type; what a document may hold, type by type, is checked once on the way in by the zod
 * schemas of document-schema.ts, and the conversions (markdown.ts) build the types they support.
 */
export type JsonObject = Record<string, unknown>

export interface DocMark {
  object: 'mark'
  type: string
  data?: JsonObject
}

export interface DocLeaf {
  object: 'leaf'
  text: string
  marks: DocMark[]
}

export interface DocText {
  object: 'text'
  key?: string
  leaves: DocLeaf[]
}

export interface DocInline {
  object: 'inline'
  type: string
  key?: string
  data?: JsonObject
  nodes?: (DocInline | DocText)[]
  isVoid?: boolean
}

export interface DocFragment {
  object: 'fragment'
  fragment: string
  key?: string
  nodes: DocBlock[]
  type?: string
}

export interface DocBlock {
  object: 'block'
  type: string
  key?: string
  data?: JsonObject
  nodes?: DocNode[]
  isVoid?: boolean
  fragments?: DocFragment[]
  meta?: JsonObject
}

export type DocNode = DocBlock | DocInline | DocText

export interface JsonDocument {
  object: 'document'
  data: JsonObject
  nodes: DocBlock[]
}

/** A document with no blocks (a new page's body). */
export const emptyDocument = (): JsonDocument => ({ object: 'document', data: { schemaVersion: 1 }, nodes: [] })
