import { binaryAnswer, type BinaryAnswer } from '../../core/binary.js'
import type { ReadContext } from '../context.js'
import { ApiError } from '../../core/errors.js'
import type { ReadTx } from '../../storage/port.js'
import type { AppSchema } from '../schema.js'
import type { PdfPage } from '../content/pdf.js'
import { OffloadError } from '../../core/offload.js'
import { childrenOf, findRevision, pageIn, pagePath, walkPages } from '../content/revision.js'
import type { PdfCache } from './pdf-cache.js'

/** How long a change request's PDF URL works (the official document says one hour). */
export const PDF_TTL_MS = 60 * 60 * 1000

export interface PdfTicket {
  kind: 'pdf'
  space: string
  changeRequest: string
  revision: string
  page?: string
  only: boolean
}

const isPdfTicket = (data: unknown): data is PdfTicket => (data as PdfTicket | undefined)?.kind === 'pdf'

/** What a ticket prints, for the PDF cache: pages of a revision, which never change (`only` says something with a page alone). */
const whatOf = (ticket: PdfTicket) => JSON.stringify([ticket.revision, ticket.page ?? null, ticket.page !== undefined && ticket.only])

/** A ticket of the caller for the PDF, valid for an hour (the caller's oldest go past their bound, core/tickets.ts). */
export function issuePdfTicket(ctx: ReadContext, ticket: PdfTicket): string {
  // Retained before the ticket is issued: issuing may drop the caller's oldest ticket, which may print the same.
  ctx.services.pdfs.retain(whatOf(ticket))
  const now = ctx.now().getTime()
  return ctx.tickets.issue(ctx.actor.user, ticket, now, now + PDF_TTL_MS)
}

/** For the tickets' `onDrop`: a PDF ticket that went no longer keeps its PDF. */
export function pdfTicketDropped(pdfs: PdfCache, data: unknown): void {
  if (isPdfTicket(data)) pdfs.release(whatOf(data))
}

const pdfNotFound = () => new ApiError('NOT_FOUND', 'PDF not found or expired: ask GET .../change-requests/{id}/pdf for a new URL')

/** A render the offload could not take (busy, past its budget, closed): 503, as `finish` answers for the answers it makes. */
const unavailable = (error: unknown): never => {
  if (OffloadError.isOffloadError(error))
    throw new ApiError('SERVICE_UNAVAILABLE', `The PDF could not be made now (${error.message}): try again shortly`, { headers: { 'retry-after': '1' } })
  throw error
}

const pdfAnswer = (bytes: BinaryAnswer['bytes']) => binaryAnswer('application/pdf', bytes, { 'cache-control': 'private, no-store' })

/**
 * The PDF a ticket stands for (`/pdf/<ticket>`), while the ticket has not expired and its change
 * request is still there. A kept PDF is answered as it is; otherwise the pages are read in the
 * request's transaction and the PDF is made after it (made once and kept, a few at a time: see
 * pdf-cache.ts), so rendering never holds the transaction.
 */
export function ticketPdf(ctx: ReadContext, key: string): BinaryAnswer {
  const found = ctx.tickets.read(key, ctx.now().getTime())
  const ticket = found?.data
  if (!found || !isPdfTicket(ticket)) throw pdfNotFound()
  const title = pdfTitle(ctx.tx, ticket)
  if (title === undefined) throw pdfNotFound()
  const what = whatOf(ticket)
  const { pdfs } = ctx.services
  const kept = pdfs.kept(what, title)
  if (kept) return pdfAnswer(kept)
  const pages = pdfPages(ctx.tx, ticket)
  if (!pages) throw pdfNotFound()
  const createdAt = ctx.now()
  // Rendered through the offload: on a worker thread under `serve`, where pdf-lib loads and lays the pages out off the event loop.
  return pdfAnswer(async (offload) => {
    const bytes = await pdfs.get(what, title, found.owner, () => offload.run('renderPdf', { pages, options: { title, createdAt } }).catch(unavailable))
    if (!bytes) throw pdfNotFound()
    return bytes
  })
}

/** The PDF's title, while its space, change request and revision are there. */
function pdfTitle(tx: ReadTx<AppSchema>, ticket: PdfTicket): string | undefined {
  const space = tx.get('spaces', ticket.space)
  const cr = tx.get('changeRequests', ticket.changeRequest)
  if (!space || !cr || !findRevision(tx, space, ticket.revision)) return undefined
  return `${space.title} — #${cr.number}${cr.subject ? ` ${cr.subject}` : ''}`
}

/** The pages a PDF ticket prints, in tree order: the whole revision, one page with its subpages, or one page `only`. */
function pdfPages(tx: ReadTx<AppSchema>, ticket: PdfTicket): PdfPage[] | undefined {
  const space = tx.get('spaces', ticket.space)
  const rev = space && tx.get('changeRequests', ticket.changeRequest) && findRevision(tx, space, ticket.revision)
  if (!rev) return undefined
  if (ticket.page === undefined) {
    return walkPages(tx, rev).map(({ page, depth }) => ({ title: page.title, path: pagePath(tx, rev, page), depth, document: page.document }))
  }
  const root = pageIn(tx, rev, ticket.page)
  if (!root) return undefined
  const pages: PdfPage[] = []
  const visit = (page: typeof root, depth: number) => {
    pages.push({ title: page.title, path: pagePath(tx, rev, page), depth, document: page.document })
    if (!ticket.only) for (const child of childrenOf(tx, rev, page)) visit(child, depth + 1)
  }
  visit(root, 0)
  return pages
}
