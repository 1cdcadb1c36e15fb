/**
 * A library that serves one area (PDFs, OpenAPI checks, site tokens, image sizes...) loaded on
 * first use rather than when the package is imported: `load()` imports it once (a module-level
 * promise, shared by every caller), and async code awaits it where it already awaits something.
 * Synchronous code that runs after such an await reads it with `get()`, which names the library
 * and says what was missed when nothing loaded it first (a bug, never a caller's input).
 */
export interface LazyModule<T> {
  /** Import the library (once per process); the same promise for every caller. */
  load(): Promise<T>
  /** The loaded library; throws when `load()` has not finished yet. */
  get(): T
  /** Whether `load()` has finished. */
  readonly loaded: boolean
}

export function lazyModule<T>(name: string, importer: () => Promise<T>): LazyModule<T> {
  let promise: Promise<T> | undefined
  let value: T | undefined
  let done = false
  return {
    load() {
      promise ??= importer().then(
        (module) => {
          value = module
          done = true
          return module
        },
        (error: unknown) => {
          // A failed import may be retried by the next caller.
          promise = undefined
          throw error
        },
      )
      return promise
    },
    get() {
      if (!done) throw new Error(`${name} is loaded on first use: await its load() before this synchronous use`)
      return value as T
    },
    get loaded() {
      return done
    },
  }
}
