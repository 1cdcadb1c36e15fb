import { ApiError } from '../../../core/errors.js'
import type { JsonDocument } from '../../content/document.js'
import { emptyDocument } from '../../content/document.js'
import type { ReadMarkdownOutput } from '../../content/markdown-task.js'
import { PageUpdateFields } from '../schemas.js'
import { z } from 'zod'
import { field } from './batch.js'
import type { Metadata } from './metadata.js'

/** The frontmatter's metadata, held to the rules of the same fields in a change (a 400 naming the key and the rule). */
const FrontmatterSchema = z.object(PageUpdateFields)

/** Metadata a markdown frontmatter may carry, read with the types the page fields have. */
function frontmatterMetadata(fm: Record<string, unknown>, i: number): Metadata {
  const out: Record<string, unknown> = {}
  for (const key of ['title', 'slug', 'emoji', 'icon', 'description', 'condition'] as const) {
    const value = fm[key]
    // YAML reads `title: 2024` as a number: a scalar is meant as text.
    if (typeof value === 'string' || (key === 'title' && typeof value === 'number')) out[key] = String(value)
  }
  for (const key of ['hidden', 'noIndex', 'noRobotsIndex'] as const) if (typeof fm[key] === 'boolean') out[key] = fm[key]
  const checked = FrontmatterSchema.safeParse(out)
  if (!checked.success) {
    const issue = checked.error.issues[0]!
    throw new ApiError('BAD_REQUEST', `${field(i, 'document.markdown')}: frontmatter \`${String(issue.path[0])}\` ${issue.message}`)
  }
  return checked.data
}

/**
 * The body and metadata a change's `document` gives. Markdown was read before the transaction
 * (prepare-markdown.ts, `read`): its frontmatter is read (and wins over the change's fields), and
 * with `takeTitle` (insert_page, as Git Sync reads a file) a leading `# Heading` is the title when
 * the frontmatter has none; its block keys were made then.
 */
export function readDocument(
  input: { markdown: string } | { document: JsonDocument } | { markdown?: undefined; document?: undefined },
  i: number,
  read: ReadMarkdownOutput | undefined,
): { document: JsonDocument; meta: Metadata } {
  if ('markdown' in input && input.markdown !== undefined) {
    if (!read) throw new Error(`changes[${i}]: markdown not read before the transaction`)
    if (!read.ok) throw new ApiError('BAD_REQUEST', `${field(i, 'document.markdown')}: ${read.message}`)
    const parsed = read.value
    const meta = frontmatterMetadata(parsed.frontmatter, i)
    if (parsed.title !== undefined && meta.title === undefined) {
      const heading = FrontmatterSchema.shape.title.safeParse(parsed.title)
      if (!heading.success)
        throw new ApiError(
          'BAD_REQUEST',
          `${field(i, 'document.markdown')}: the leading heading, read as the page's title, ${heading.error.issues[0]!.message}`,
        )
      meta.title = parsed.title
    }
    return { document: parsed.document, meta }
  }
  if ('document' in input && input.document !== undefined) return { document: input.document, meta: {} }
  return { document: emptyDocument(), meta: {} }
}
