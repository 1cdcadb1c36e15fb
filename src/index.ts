// The public API of docs-content-api.

// --- Creating the API
export { createDocsApi } from './api.js'
export { preload } from './domains/preload.js'
export type { DocsApi, DocsApiOptions } from './api.js'
export type { Fixtures } from './fixtures.js'
export type { Translator, TranslateContext } from './domains/translations/translator.js'

// --- Ask: the answerer option and its default
export { extractiveAnswerer } from './domains/ask/extractive.js'
export type { Answerer, AskAnswer, AskPassage, AskRequest } from './domains/ask/answerer.js'
export { oembedResolver, type OEmbedProvider, type OEmbedResolverOptions } from './domains/embeds/oembed.js'
export { linkEmbed, type EmbedFetch, type EmbedResolver } from './domains/embeds/resolver.js'
export type { Embed } from './domains/embeds/schemas.js'

// --- The toolkit for tests: state documents, the request journal, faults
export { STATE_FORMAT, STATE_VERSION } from './state/seed.js'
export type { StateDocument } from './state/seed.js'
export type { StateDocumentInput, StateRowInput } from './domains/seed-input.js'
export type { StoreSnapshot } from './storage/port.js'
export type { Journal, JournalEntry, JournalFilter } from './http/journal.js'
export type { Fault, Faults, FaultSpec } from './http/faults.js'
export type { CorsOptions } from './http/cors.js'
export type { AdminOptions } from './http/admin.js'
export type {
  IntegrationDeliveryOptions,
  IntegrationExecutionContext,
  IntegrationHandler,
  IntegrationScriptRunner,
  PublishedScript,
} from './domains/integrations/delivery-options.js'
export type { OutgoingOptions } from './core/outgoing-limits.js'
export type { GitSyncOptions } from './domains/git-sync/queue.js'

// --- Storage: the port, the in-memory adapter, the schema of stored rows
export { createMemoryStore } from './storage/memory.js'
export { StorageError } from './storage/errors.js'
export type { StorageFailure } from './storage/errors.js'
export { schema } from './domains/schema.js'
export type { AppSchema } from './domains/schema.js'
export type * from './storage/port.js'
export type { UserRow, TokenRow } from './domains/users/rows.js'
export type { OrganizationRow, InviteLinkRow } from './domains/organizations/rows.js'
export type { MemberRow } from './domains/members/rows.js'
export type { TeamRow, TeamMemberRow } from './domains/teams/rows.js'
export type { CollectionRow } from './domains/collections/rows.js'
export type { SpaceRow } from './domains/spaces/rows.js'
export type { SpaceGrantRow } from './domains/space-permissions/rows.js'
export type { CollectionGrantRow } from './domains/collection-permissions/rows.js'

// --- The operation table and errors
export type { OperationDef, HttpMethod } from './core/operation.js'
export { ApiError, ERRORS } from './core/errors.js'
export { OffloadError, createInlineOffload } from './core/offload.js'
export type { Offload, OffloadFailure, OffloadTasks, TaskName, TaskTable } from './core/offload.js'
export { TASKS } from './domains/tasks.js'
export type { ErrorCode } from './core/errors.js'
export { ROLES } from './core/roles.js'
export type { Role, Level } from './core/roles.js'
export { POLICY } from './core/policy.js'
export { createOpenApiDocument, type OpenApiDocument, type OpenApiOptions } from './openapi.js'

// --- HTTP
export { createFetchHandler } from './http/fetch-handler.js'
export type { AnsweredRequest, FetchFunction, FetchHandlerOptions } from './http/fetch-handler.js'
