import type { z } from 'zod'
import type { ReadContext } from '../context.js'
import type { JsonDocument } from './document.js'
import type { PageVersionRow, RevisionRow } from './rows.js'
import type { DocumentQuerySchema, PageQuerySchema } from './schemas.js'
import { encodePage } from './encode.js'
import { evaluateDocument, evaluationMode, expressionInputs } from './evaluate.js'
import { dereferenceReusableContents, dereferencesReusableContents } from './dereference.js'

/**
 * A page as a page read answers it, by its query: `format` (document or markdown), how markdown
 * writes page links, `dereferenced` and `evaluated` (its body and its subpages' as
 * `getPageDocumentInRevisionById` answers a body: see `documentReader`).
 */
export function answerPage(ctx: ReadContext, rev: RevisionRow, page: PageVersionRow, query: z.output<typeof PageQuerySchema>) {
  return encodePage(ctx, rev, page, query.format ?? 'document', undefined, query['format.markdown.refs'], documentReader(ctx, rev, query))
}

/**
 * How a body is answered for the official `dereferenced` and `evaluated`: its reusable contents
 * inlined first (dereference.ts), so the expressions they hold are evaluated with the page's, then
 * its expressions resolved for the caller (evaluate.ts). Undefined: the body as stored.
 */
export function documentReader(
  ctx: ReadContext,
  rev: RevisionRow,
  query: z.output<typeof DocumentQuerySchema>,
): ((document: JsonDocument) => JsonDocument) | undefined {
  const mode = evaluationMode(query.evaluated)
  const dereference = dereferencesReusableContents(query.dereferenced)
  if (!mode && !dereference) return undefined
  const inputs = mode && expressionInputs(ctx, rev)
  return (document) => {
    const inlined = dereference ? dereferenceReusableContents(ctx.tx, rev, document) : document
    return mode && inputs ? evaluateDocument(inlined, mode, inputs) : inlined
  }
}

/** A body as a document read answers it (`getPageDocumentInRevisionById`, `getReusableContentDocumentInRevisionById`). */
export function answerDocument(ctx: ReadContext, rev: RevisionRow, document: JsonDocument, query: z.output<typeof DocumentQuerySchema>): JsonDocument {
  const read = documentReader(ctx, rev, query)
  return read ? read(document) : document
}
