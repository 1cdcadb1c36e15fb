import type { z } from 'zod'
import type { ReadContext } from '../context.js'
import type { PageVersionRow, RevisionRow } from './rows.js'
import type { PageQuerySchema } from './schemas.js'
import { encodePage } from './encode.js'
import { evaluateDocument, evaluationMode, expressionInputs } from './evaluate.js'

/**
 * A page as a page read answers it, by its query: `format` (document or markdown), how markdown
 * writes page links, and `evaluated` (its body and its subpages' resolved for the caller, as
 * `getPageDocumentInRevisionById` resolves a body: evaluate.ts).
 */
export function answerPage(ctx: ReadContext, rev: RevisionRow, page: PageVersionRow, query: z.output<typeof PageQuerySchema>) {
  const mode = evaluationMode(query.evaluated)
  const inputs = mode && expressionInputs(ctx, rev)
  const evaluate = mode && inputs ? (document: PageVersionRow['document']) => evaluateDocument(document, mode, inputs) : undefined
  return encodePage(ctx, rev, page, query.format ?? 'document', undefined, query['format.markdown.refs'], evaluate)
}
