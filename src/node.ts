// The Node entry: `import { toNodeHandler } from 'docs-content-api/node'`. The only code of the
// package that imports Node built-ins (the rest keeps to web standards).
export { toNodeHandler, UnreadableRequestError } from './node/to-node-handler.js'
export type { NodeHandler, NodeHandlerOptions } from './node/to-node-handler.js'
export { jsonErrors } from './node/json-errors.js'
export type { NodeErrorHandler } from './node/json-errors.js'
export { createWorkerOffload } from './node/worker-offload.js'
export type { WorkerOffloadOptions } from './node/worker-offload.js'
export { createGuardedFetch } from './node/guarded-fetch.js'
export type { GuardedFetchOptions, ResolvedAddress } from './node/guarded-fetch.js'
