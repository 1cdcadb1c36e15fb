// The fetch adapter entry: `import { createFetchHandler } from 'docs-content-api/fetch'`.
export { createFetchHandler } from './http/fetch-handler.js'
export type { AnsweredRequest, FetchFunction, FetchHandlerOptions } from './http/fetch-handler.js'
export { MAX_BODY_BYTES } from './http/codec.js'
