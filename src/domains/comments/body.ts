import type { z } from 'zod'
import type { ReadContext } from '../context.js'
import type { Prepare } from '../../core/operation.js'
import type { ReadMarkdownOutput, WriteMarkdownOutput } from '../content/markdown-task.js'
import { emptyDocument } from '../content/document.js'
import { ApiError } from '../../core/errors.js'
import type { CommentBody } from './rows.js'
import type { DocumentFormat } from '../content/encode.js'
import { documentToMarkdown, MarkdownError, markdownToDocument } from '../content/markdown.js'
import type { CommentBodyInputSchema } from './schemas.js'
import { loadMarkdown, markdownLibraries } from '../content/markdown-libs.js'

/**
 * Comment bodies are kept in the form they were posted in and converted when read with `format`
 * (markdown.ts, the same conversion as pages; a comment has no frontmatter and no title, so a
 * leading `---` or `# Heading` stays in the body). Keys are left out of converted documents: a
 * read must not hand out new ids.
 */

/**
 * Bodies read before the transaction (prepareCommentBody, through the offload: a large body is
 * not read on the event loop), by the validated input object the handler gets next: what reading
 * it gave, so the transaction does not read it again.
 */
const READ = new WeakMap<object, string | undefined>()

/** Why a body read through the offload cannot be kept (undefined when it can). */
const readProblem = (body: CommentBody, read: ReadMarkdownOutput | WriteMarkdownOutput): string | undefined =>
  read.ok ? undefined : 'markdown' in body ? `is markdown that cannot be kept: it ${read.message}` : `is not a document that can be read (${read.message})`

/** The prepare step of operations taking a comment body (`body.body`): the body read off the event loop. */
export const prepareCommentBody: Prepare = async (env, input) => {
  // The conversion on this thread too (a body checked again in the transaction), loaded on first use.
  await loadMarkdown()
  const body = (input.body as { body?: CommentBody } | undefined)?.body
  if (body && typeof body === 'object') {
    const read =
      'markdown' in body
        ? await env.offload.run('readMarkdown', { markdown: body.markdown, takeTitle: false, frontmatter: false })
        : await env.offload.run('writeMarkdown', { document: body.document })
    READ.set(body, readProblem(body, read))
  }
  return { value: undefined, undo: () => undefined }
}

/**
 * Why a body could not be answered as markdown (undefined when it can): a document the conversion
 * cannot read would fail every later `format=markdown` read, so it is refused when posted or loaded.
 */
export function unreadableBody(body: CommentBody): string | undefined {
  if (READ.has(body)) return READ.get(body)
  if (!markdownLibraries.loaded)
    throw new Error(
      'checking a comment body needs unified and remark, which docs-content-api loads on first use: `await preload()` (exported by docs-content-api) before createDocsApi({ seed }) with comments',
    )
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
  const why = READ.has(input) ? READ.get(input) : unreadableBody(body)
  if (why) throw new ApiError('BAD_REQUEST', `Invalid request: body field \`${field}.${'markdown' in body ? 'markdown' : 'document'}\`: ${why}`)
  return body
}

/**
 * A body as answered: as stored, or converted to `format` after the transaction through the
 * offload (ctx.later: a large body is not converted on the event loop). Bodies were checked to
 * convert when posted or loaded.
 */
export function encodeBody(ctx: ReadContext, body: CommentBody, format: DocumentFormat | undefined): CommentBody {
  if ('markdown' in body) {
    if (format !== 'document') return { markdown: body.markdown }
    // Markdown stored before links were checked is read without its unsafe targets (never a 500).
    const out = { document: emptyDocument() }
    ctx.later('readMarkdown', { markdown: body.markdown, takeTitle: false, frontmatter: false, unsafeLinks: 'drop' }, (read) => {
      if (!read.ok) throw new Error(`A stored comment body could not be read: ${read.message}`)
      out.document = read.value.document
    })
    return out
  }
  if (format !== 'markdown') return { document: body.document }
  const out = { markdown: '' }
  ctx.later('writeMarkdown', { document: body.document }, (written) => {
    if (!written.ok) throw new Error(`A stored comment body could not be written: ${written.message}`)
    out.markdown = written.markdown
  })
  return out
}
