import { ApiError, errorBody } from '../core/errors.js'
import type { EventStream, StreamEvent } from '../core/stream.js'

/**
 * The `text/event-stream` body of a streamed answer (core/stream.ts): each event as
 * `event: <type>` (when it has one) and one `data:` line of JSON, then a blank line. The stream
 * ends with `event: done` (the official client stops there, as at the end of the body); a
 * producer that fails ends it with `event: error` and the API's error body as data, which the
 * official client raises as an error with its message. Events are produced as the body is read
 * (pull), so a client that stops reading stops the producer.
 */

export const EVENT_STREAM_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' }

/** One event as the lines of the stream. JSON text holds no raw line break, so `data` is one line. */
export function frame({ event, data }: StreamEvent): string {
  return `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`
}

const DONE = frame({ event: 'done', data: {} })

export interface EventStreamOptions {
  /** Unexpected errors of the producer (answered as a generic 500 event). */
  onError: (error: unknown) => void
  /**
   * Called once when the stream ends or is cancelled (for the journal), with the text sent (its
   * first `keep` characters at least) and the length of the whole text.
   */
  onEnd?: (text: string, length: number) => void
  /** How much of the text sent `onEnd` needs: past it, what is sent is counted, not kept (a long stream holds no copy of itself). @default everything */
  keep?: number
}

/** The body stream of `stream`. */
export function eventStreamBody(stream: EventStream, options: EventStreamOptions): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  let iterator: AsyncIterator<StreamEvent> | undefined
  const keep = options.keep ?? Infinity
  let sent = ''
  let length = 0
  let ended = false
  const end = () => {
    if (ended) return
    ended = true
    options.onEnd?.(sent, length)
  }
  const push = (controller: ReadableStreamDefaultController<Uint8Array>, text: string) => {
    if (options.onEnd && sent.length < keep) sent += text
    length += text.length
    controller.enqueue(encoder.encode(text))
  }
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          iterator ??= stream.events()[Symbol.asyncIterator]()
          const next = await iterator.next()
          if (!next.done) return push(controller, frame(next.value))
          push(controller, DONE)
        } catch (error) {
          const known = ApiError.isApiError(error)
          if (!known) options.onError(error)
          const status = known ? error.status : 500
          push(controller, frame({ event: 'error', data: errorBody(status, known ? error.message : 'Internal server error') }))
        }
        controller.close()
        end()
      },
      async cancel() {
        end()
        await iterator?.return?.()
      },
      // No event is made before the client asks for one (the default would pull one ahead).
    },
    { highWaterMark: 0 },
  )
}
