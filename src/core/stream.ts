/**
 * A streamed answer (server-sent events), as a handler returns it: a marker object holding the
 * events to send, never a `Response`. The HTTP layer turns it into a `text/event-stream` body
 * (http/event-stream.ts); the domain only says what the events are. The transaction of the request
 * is over when the events are produced, so a producer reads nothing from the store: it works from
 * what the handler gathered (and may await, a plugged-in language model say).
 */

/** One event of the stream: its `data` goes out as one line of JSON; `event` names its type (none: a message). */
export interface StreamEvent<T = unknown> {
  event?: string
  data: T
}

const EVENT_STREAM = Symbol.for('docs-content-api.event-stream')

/** The marker a handler returns for a streamed answer (recognised by a marker, not `instanceof`). */
export interface EventStream<T = unknown> {
  readonly [EVENT_STREAM]: true
  /** Makes the events, once, when the answer starts streaming. */
  readonly events: () => AsyncIterable<StreamEvent<T>>
}

/** A streamed answer of `events` (called when the body is first read). */
export function eventStream<T>(events: () => AsyncIterable<StreamEvent<T>>): EventStream<T> {
  return { [EVENT_STREAM]: true, events }
}

export function isEventStream(value: unknown): value is EventStream {
  return typeof value === 'object' && value !== null && (value as { [EVENT_STREAM]?: unknown })[EVENT_STREAM] === true
}

const AWAITED = Symbol.for('docs-content-api.awaited-answer')

/**
 * A JSON answer made after the transaction by async work that reads nothing from the store (a
 * plugged-in answerer, say), as a handler returns it: the HTTP layer awaits `produce` and answers
 * its value as the body, or its error as any error of the request (an `ApiError` keeps its status).
 */
export interface AwaitedAnswer<T = unknown> {
  readonly [AWAITED]: true
  readonly produce: () => Promise<T>
}

export function awaitedAnswer<T>(produce: () => Promise<T>): AwaitedAnswer<T> {
  return { [AWAITED]: true, produce }
}

export function isAwaitedAnswer(value: unknown): value is AwaitedAnswer {
  return typeof value === 'object' && value !== null && (value as { [AWAITED]?: unknown })[AWAITED] === true
}
