/**
 * Pluggable services the API was given (a translator, an answerer...) and state an area derives
 * per API instance outside the store (the search index), reachable from handlers (`ctx.services`),
 * background jobs (`JobEnv.services`) and the HTTP layer. Each area declares its own entry by
 * augmenting this interface from its module, so core names none of them:
 *
 * @example
 * declare module '../../core/services.js' {
 *   interface Services { translate: Translator }
 * }
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Services {}
