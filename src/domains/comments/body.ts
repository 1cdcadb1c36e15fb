import type { z } from 'zod'
import { ApiError } from '../../core/errors.js'
import type { CommentBody } from '../../storage/schema.js'
import type { DocumentFormat } from '../content/encode.js'
import { documentToMarkdown, MarkdownError, markdownToDocument } from '../content/markdown.js'
import type { CommentBodyInputSchema } from './schemas.js'

/**
 * Comment bodies are kept in the form they were posted in and converted when read with `format`
 * (markdown.ts, the same conversion as pages; a comment has no frontmatter and no title, so a
 * leading `---` or `# Heading` stays in the body). Keys are left out of converted documents: a
 * read must not hand out new ids.
 */

/**
 * Why a body could not be answered as markdown (undefined when it can): a document the conversion
 * cannot read would fail every later `format=markdown` read, so it is refused when posted or loaded.
 */
export function unreadableBody(body: CommentBody): string | undefined {
  if ('markdown' in body) {
    try {
      markdownToDocument(body.markdown, { takeTitle: false, frontmatter: false })
      return undefined
    } catch (error) {
      if (error instanceof MarkdownError) return `is markdown that cannot be kept: it ${error.message}`
      throw error
    }
  }
  try {
    documentToMarkdown(body.document)
    return undefined
  } catch (error) {
    return `is not a document that can be read (${(error as Error).message})`
  }
}

/** The stored body of a validated input: `{markdown}` or `{document}`, checked to convert. */
export function bodyOf(input: z.output<typeof CommentBodyInputSchema>, field: string): CommentBody {
  const body: CommentBody = 'markdown' in input ? { markdown: input.markdown } : { document: input.document }
  const why = unreadableBody(body)
  if (why) throw new ApiError('BAD_REQUEST', `Invalid request: body field \`${field}.${'markdown' in body ? 'markdown' : 'document'}\`: ${why}`)
  return body
}

/** A body as answered: as stored, or converted to `format`. */
export function encodeBody(body: CommentBody, format: DocumentFormat | undefined): CommentBody {
  if ('markdown' in body) {
    if (format !== 'document') return { markdown: body.markdown }
    // Markdown stored before links were checked is read without its unsafe targets (never a 500).
    return { document: markdownToDocument(body.markdown, { takeTitle: false, frontmatter: false, unsafeLinks: 'drop' }).document }
  }
  if (format !== 'markdown') return { document: body.document }
  return { markdown: documentToMarkdown(body.document) }
}
