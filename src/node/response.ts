import type { ServerResponse } from 'node:http'
import { LARGE_ANSWER_CHARS, toResponse, type Answer } from '../http/codec.js'

/** Resolves when the response can take more data, or is closed. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done)
      res.off('close', done)
      resolve()
    }
    res.on('drain', done)
    res.on('close', done)
  })
}

/**
 * Write a fetch `Response` onto a Node `ServerResponse`: status, headers (each `set-cookie` on
 * its own line), then the body as it streams, respecting backpressure. A body that arrives in one
 * chunk (every JSON answer of the API) goes out with a `Content-Length` rather than chunked; an
 * event stream (`text/event-stream`) goes out chunk by chunk as it comes.
 * `head`: send the headers only (a HEAD request). If the client goes away, the body is cancelled.
 * Rejects when writing fails; the caller knows from `res.headersSent` whether anything went out.
 */
export async function sendResponse(res: ServerResponse, response: Response, head: boolean): Promise<void> {
  res.statusCode = response.status
  if (response.statusText) res.statusMessage = response.statusText
  for (const [name, value] of response.headers) {
    if (name !== 'set-cookie') res.setHeader(name, value)
  }
  const cookies = response.headers.getSetCookie()
  if (cookies.length > 0) res.setHeader('set-cookie', cookies)

  if (!response.body) {
    res.end()
    return
  }
  const reader = response.body.getReader()
  const cancel = () => void reader.cancel().catch(() => {})
  res.once('close', cancel)
  try {
    const first = await reader.read()
    if (res.destroyed) return
    if (first.done) {
      res.end()
      return
    }
    // An event stream goes out event by event: its next chunk may be long in coming.
    if (!head && response.headers.get('content-type')?.startsWith('text/event-stream') && !res.write(first.value)) await drained(res)
    let next = await reader.read()
    if (res.destroyed) return
    if (next.done) {
      if (res.headersSent) res.end()
      else {
        if (!res.hasHeader('content-length')) res.setHeader('content-length', first.value.byteLength)
        res.end(head ? undefined : first.value)
      }
      return
    }
    if (head) {
      cancel()
      res.end()
      return
    }
    if (!res.headersSent && !res.write(first.value)) await drained(res)
    while (!next.done && !res.destroyed) {
      if (!res.write(next.value)) await drained(res)
      next = await reader.read()
    }
    if (!res.destroyed) res.end()
  } finally {
    res.off('close', cancel)
  }
}

const JSON_TYPE = 'application/json; charset=utf-8'

/**
 * Write the API's answer (http/codec.ts `Answer`) onto a Node `ServerResponse` without making it
 * a `Response` first: a JSON text goes out as one string with its `Content-Length`, headers set
 * as `toResponse` would give them (content type, then the answer's own, names lower-cased and
 * repeats joined with ", " as `Headers` does), so the bytes, headers and status are those of
 * `toResponse` written by `sendResponse`. An event stream and a text past LARGE_ANSWER_CHARS
 * (sent in slices) take the `Response` path, and only they answer a promise: the rest is written
 * in this call.
 */
export function sendAnswer(res: ServerResponse, answer: Answer, head: boolean): void | Promise<void> {
  const { text } = answer
  if (answer.stream || (text !== undefined && (typeof text !== 'string' || text.length > LARGE_ANSWER_CHARS)))
    return sendResponse(res, toResponse(answer), head)
  // The common answer (JSON, no header of its own, none set on `res` before us) in one writeHead, as a bare server writes it.
  if (answer.headers === undefined && !answer.bytes && text !== undefined && text.length > 0 && res.getHeaderNames().length === 0) {
    res.writeHead(answer.status, { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(text) })
    res.end(head ? undefined : text)
    return
  }
  res.statusCode = answer.status
  if (text !== undefined && !answer.bytes) res.setHeader('content-type', JSON_TYPE)
  if (answer.headers) {
    for (const name in answer.headers) {
      const key = name.toLowerCase()
      const value = String(answer.headers[name]).trim()
      if (key === 'content-type' || !res.hasHeader(key)) res.setHeader(key, value)
      else res.setHeader(key, `${String(res.getHeader(key))}, ${value}`)
    }
  }
  const body = answer.bytes ? Buffer.from(answer.bytes.buffer, answer.bytes.byteOffset, answer.bytes.byteLength) : text
  if (body === undefined || body.length === 0) {
    res.end()
    return
  }
  if (!res.hasHeader('content-length')) res.setHeader('content-length', typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength)
  res.end(head ? undefined : body)
}
