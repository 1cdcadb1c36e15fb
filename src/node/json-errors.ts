import type { IncomingMessage, ServerResponse } from 'node:http'
import { errorBody } from '../core/errors.js'

/** An Express/Connect error middleware (four arguments: Express tells them apart by their length). */
export type NodeErrorHandler = (error: unknown, req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void

/** What body-parser (`express.json()`, `express.text()`...) and raw-body put on the errors they raise. */
interface BodyParserError {
  type: string
  status?: unknown
  statusCode?: unknown
  message?: unknown
  limit?: unknown
  length?: unknown
  charset?: unknown
  encoding?: unknown
}

const isBodyParserError = (error: unknown): error is BodyParserError =>
  typeof error === 'object' && error !== null && typeof (error as { type?: unknown }).type === 'string'

/** The status body-parser gave the error, when it is a client error (4xx). */
function clientStatus(error: BodyParserError): number | undefined {
  const status = typeof error.status === 'number' ? error.status : error.statusCode
  return typeof status === 'number' && Number.isInteger(status) && status >= 400 && status < 500 ? status : undefined
}

/** The message the API would give, naming the problem (as the API's own body reading words it). */
function messageOf(error: BodyParserError): string {
  const detail = typeof error.message === 'string' && error.message !== '' ? error.message : undefined
  switch (error.type) {
    case 'entity.parse.failed':
      return `Invalid request: body is not valid JSON${detail ? ` (${detail})` : ''}`
    case 'entity.too.large':
      return typeof error.limit === 'number'
        ? `Request body is larger than ${error.limit} bytes${typeof error.length === 'number' ? ` (${error.length} bytes sent)` : ''}`
        : 'Request body is too large'
    case 'charset.unsupported':
      return `Unsupported request body charset${typeof error.charset === 'string' ? ` "${error.charset}"` : ''}`
    case 'encoding.unsupported':
      return `Unsupported Content-Encoding${typeof error.encoding === 'string' ? ` "${error.encoding}"` : ''}`
    case 'request.aborted':
      return 'Request body was cut off: the client aborted it'
    case 'request.size.invalid':
      return 'Request body length does not match its Content-Length'
    default:
      return detail ?? `Request body could not be read (${error.type})`
  }
}

/**
 * An Express/Connect error middleware that answers the errors of the app's body parsers
 * (`express.json()`, `express.text()`, `express.raw()`, `express.urlencoded()`: body-parser's
 * client errors, which carry a `type`) with the API's error body instead of Express's HTML page:
 * malformed JSON (`entity.parse.failed`) 400
 * `{"error":{"code":400,"message":"Invalid request: body is not valid JSON (...)"}}`, a body past
 * the parser's `limit` (`entity.too.large`) 413, an unsupported charset or encoding 415, and so on
 * with body-parser's status. Any other error, or one raised after the headers went out, goes on to
 * `next(error)`.
 *
 * Mount it under the API's prefix, after the parser, so the app's other routes keep their own
 * error handling.
 *
 * @example
 * const app = express()
 * app.use(express.json())
 * app.use('/api', toNodeHandler(api))
 * app.use('/api', jsonErrors())
 */
export function jsonErrors(): NodeErrorHandler {
  return (error, _req, res, next) => {
    const status = isBodyParserError(error) ? clientStatus(error) : undefined
    if (status === undefined || res.headersSent) return next(error)
    const body = JSON.stringify(errorBody(status, messageOf(error as BodyParserError)))
    res.statusCode = status
    res.setHeader('content-type', 'application/json; charset=utf-8')
    res.setHeader('content-length', Buffer.byteLength(body))
    res.end(body)
  }
}
