import type { Runtime } from '../core/execute.js'
import { ticketPdf } from '../domains/change-requests/pdf-ticket.js'
import { servedFileBytes } from '../domains/content/file-bytes.js'

/**
 * Bytes the API serves outside `/v1`, by URL alone (as a CDN or a signed URL would): file
 * downloads at `/files/<blob key>/<name>` (the key is unguessable and names immutable bytes) and
 * change-request PDFs at `/pdf/<ticket>` (an hour-long ticket, see core/tickets.ts). Undefined
 * when the path is neither.
 */
export async function serveAsset(rt: Runtime, method: string, pathname: string): Promise<Response | undefined> {
  if (method !== 'GET') return undefined
  const file = /^\/files\/([^/]+)(?:\/([^/]*))?$/.exec(pathname)
  if (file) {
    let key: string
    try {
      key = decodeURIComponent(file[1]!)
    } catch {
      return notFound('File not found')
    }
    const blob = servedFileBytes(rt, key)
    if (!blob) return notFound('File not found')
    return new Response(blob.bytes as Uint8Array<ArrayBuffer>, {
      status: 200,
      headers: {
        'content-type': blob.contentType,
        'content-length': String(blob.bytes.byteLength),
        'cache-control': 'public, max-age=31536000, immutable',
        // Uploaded bytes are the uploader's: never sniffed into another type, never run as a page
        // of the API's origin (an HTML or SVG file is downloaded, not shown).
        'x-content-type-options': 'nosniff',
        'content-security-policy': "sandbox; default-src 'none'",
        'content-disposition': dispositionOf(blob.contentType, file[2]),
      },
    })
  }
  const pdf = /^\/pdf\/([^/]+)$/.exec(pathname)
  if (pdf) {
    const bytes = await ticketPdf(rt, pdf[1]!)
    if (!bytes) return notFound('PDF not found or expired: ask GET .../change-requests/{id}/pdf for a new URL')
    return new Response(bytes as Uint8Array<ArrayBuffer>, { status: 200, headers: { 'content-type': 'application/pdf', 'content-length': String(bytes.byteLength), 'cache-control': 'private, no-store' } })
  }
  return undefined
}

/** Types a browser shows without running anything of the file: shown inline; everything else is an attachment. */
const INLINE = /^(image\/(png|jpeg|gif|webp|avif|bmp)|application\/pdf|text\/plain|audio\/[\w.+-]+|video\/[\w.+-]+)(;|$)/i

function dispositionOf(contentType: string, name: string | undefined): string {
  const kind = INLINE.test(contentType) ? 'inline' : 'attachment'
  let decoded: string | undefined
  try {
    decoded = name ? decodeURIComponent(name) : undefined
  } catch {
    decoded = undefined
  }
  return decoded ? `${kind}; filename*=UTF-8''${encodeURIComponent(decoded)}` : kind
}

const notFound = (message: string) =>
  new Response(JSON.stringify({ error: { code: 404, message } }), { status: 404, headers: { 'content-type': 'application/json; charset=utf-8' } })
