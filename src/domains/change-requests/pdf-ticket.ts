import type { Runtime } from '../../core/execute.js'
import type { ReadTx } from '../../storage/port.js'
import type { AppSchema } from '../../storage/schema.js'
import { renderPdf, type PdfPage } from '../content/pdf.js'
import { childrenOf, findRevision, pageIn, pagePath, walkPages } from '../content/revision.js'

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

/** The PDF a ticket stands for, while it has not expired and its change request is still there. */
export async function ticketPdf(rt: Pick<Runtime, 'store' | 'tickets' | 'now'>, key: string): Promise<Uint8Array | undefined> {
  const ticket = rt.tickets.read(key, rt.now().getTime()) as PdfTicket | undefined
  const doc = ticket?.kind === 'pdf' ? rt.store.read((tx) => pdfPages(tx, ticket)) : undefined
  return doc && renderPdf(doc.pages, { title: doc.title, createdAt: rt.now() })
}

/** The pages a PDF ticket prints, in tree order: the whole revision, one page with its subpages, or one page `only`. */
function pdfPages(tx: ReadTx<AppSchema>, ticket: PdfTicket): { title: string; pages: PdfPage[] } | undefined {
  const space = tx.get('spaces', ticket.space)
  const cr = tx.get('changeRequests', ticket.changeRequest)
  if (!space || !cr) return undefined
  const rev = findRevision(tx, space, ticket.revision)
  if (!rev) return undefined
  const title = `${space.title} — #${cr.number}${cr.subject ? ` ${cr.subject}` : ''}`
  if (ticket.page === undefined) {
    return { title, pages: walkPages(tx, rev).map(({ page, depth }) => ({ title: page.title, path: pagePath(tx, rev, page), depth, document: page.document })) }
  }
  const root = pageIn(tx, rev, ticket.page)
  if (!root) return undefined
  const pages: PdfPage[] = []
  const visit = (page: typeof root, depth: number) => {
    pages.push({ title: page.title, path: pagePath(tx, rev, page), depth, document: page.document })
    if (!ticket.only) for (const child of childrenOf(tx, rev, page)) visit(child, depth + 1)
  }
  visit(root, 0)
  return { title, pages }
}
