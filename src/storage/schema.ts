import type { z } from 'zod'
import type { Role } from '../core/roles.js'
import type { MergeRulesSchema, StandaloneMergeRulesSchema } from '../domains/common/schemas.js'
import type { JsonDocument } from '../domains/content/document.js'
import { collection } from './port.js'
import type {
  IntegrationEventRow,
  IntegrationInstallationRow,
  IntegrationRow,
  IntegrationSiteInstallationRow,
  IntegrationSpaceInstallationRow,
} from '../domains/integrations/rows.js'

/**
 * The rows the API stores and the indexes its domains query. Rows hold state only: what can be
 * derived (urls, permissions, counts held by indexes) is computed when a resource is encoded.
 * Timestamps are ISO strings, as on the wire.
 */

/** Merge rules of a space (may inherit) and of an organization (standalone). */
export type MergeRules = z.output<typeof MergeRulesSchema>
export type StandaloneMergeRules = z.output<typeof StandaloneMergeRulesSchema>

/** A space's or collection's default level: a role, `null` (no default access) or `inherit` (from the parent). */
export type DefaultLevel = Role | null | 'inherit'

export interface UserRow {
  id: string
  displayName: string
  email?: string
  /** Whether the email address has been verified (joining by email domain needs it). */
  emailVerified: boolean
  photoURL?: string
}

export interface TokenRow {
  /** The token string itself. */
  id: string
  user: string
  createdAt: string
}

export interface OrganizationRow {
  id: string
  title: string
  createdAt: string
  emailDomains: string[]
  hostname?: string
  type: 'business' | 'community'
  useCase?: string
  communityType?: string
  defaultRole: Role | null
  defaultContent?: { type: 'site'; site: string }
  logo?: string
  sso: boolean
  ai: boolean
  inviteLinks: boolean
  plan: string
  mergeRules: StandaloneMergeRules
  /** The docs agent's instructions, once set (`updatedBy`: a user id). */
  agentInstructions?: { instructions: JsonDocument; updatedAt: string; updatedBy: string }
}

export interface MemberRow {
  /** `${organization}/${user}` */
  id: string
  organization: string
  user: string
  /** null: a guest */
  role: Role | null
  disabled: boolean
  sso: boolean
  joinedAt: string
  lastSeenAt?: string
}

export interface InviteLinkRow {
  id: string
  organization: string
  role: Role | null
  createdAt: string
}

export interface TeamRow {
  id: string
  organization: string
  title: string
  createdAt: string
}

export interface TeamMemberRow {
  /** `${team}/${user}` */
  id: string
  team: string
  organization: string
  user: string
  role: 'owner' | 'member'
}

export interface CollectionRow {
  id: string
  organization: string
  parent?: string
  title: string
  description?: string
  defaultLevel: DefaultLevel
  /** Sort key among the siblings under the same parent (a fractional index). */
  position: number
  createdAt: string
}

export interface SpaceRow {
  id: string
  organization: string
  parent?: string
  title: string
  emoji: string
  icon?: string
  visibility: 'public' | 'unlisted' | 'share-link' | 'visitor-auth' | 'in-collection' | 'private'
  createdAt: string
  updatedAt: string
  deletedAt?: string
  editMode?: 'live' | 'locked'
  mergeRules: MergeRules
  language?: string
  revision: string
  defaultLevel: DefaultLevel
  position: number
  comments: number
  changeRequests: number
  changeRequestsOpen: number
  changeRequestsDraft: number
}

/** A direct grant of a role on a space to a user or a team. */
export interface SpaceGrantRow {
  /** `${space}/user:${id}` or `${space}/team:${id}` */
  id: string
  space: string
  organization: string
  principal: { type: 'user'; user: string } | { type: 'team'; team: string }
  role: Role
}

/** A published docs site of an organization. */
export interface SiteRow {
  id: string
  organization: string
  type: SiteType
  title: string
  visibility: 'public' | 'unlisted' | 'share-link' | 'visitor-auth'
  published: boolean
  createdAt: string
  hostname?: string
  basename?: string
  /** The origin a proxy serves the site from (host and path, e.g. `company.com/docs`). */
  proxy?: string
  adaptiveContent?: { enabled: boolean }
  agentsContext: 'excluded' | 'included'
  /** The visitor schema of adaptive content, once set. */
  adaptiveSchema?: { jsonSchema: Record<string, unknown>; updatedAt: string }
}

export type SiteType = 'basic' | 'premium' | 'ultimate' | 'sponsored' | 'legacy-basic' | 'legacy-premium'

/**
 * A section of a site. Sections and section groups of one container (the site's root or a
 * group) are siblings ordered by one `position` scale.
 */
export interface SiteSectionRow {
  id: string
  site: string
  organization: string
  /** The group holding the section; at the site's root when undefined. */
  sectionGroup?: string
  title: string
  path: string
  description?: string
  condition?: string
  icon?: string
  /** Exactly one section of a site with sections is its default. */
  default: boolean
  position: number
  createdAt: string
}

export interface SiteSectionGroupRow {
  id: string
  site: string
  organization: string
  /** The parent group; at the site's root when undefined. */
  sectionGroup?: string
  title: string
  icon?: string
  position: number
  createdAt: string
}

/** A space published in a site: in a section, or at the site's root when it has no sections. */
export interface SiteSpaceRow {
  id: string
  site: string
  organization: string
  section?: string
  space: string
  path: string
  /** A title override; the space's title otherwise. */
  title?: string
  /** Exactly one site-space of each container (a section, or the root) is its default. */
  default: boolean
  condition?: string
  hidden: boolean
  position: number
  createdAt: string
}

export interface ShareLinkRow {
  id: string
  site: string
  organization: string
  /** The secret the published URL carries (`shareKey`). */
  key: string
  name: string
  active: boolean
  createdAt: string
}

/**
 * A revision of a space's content: immutable once written. Its pages are found through `buckets`,
 * a two-level persistent map (page id → page version id, see domains/content/tree-index.ts): an
 * edit writes the page versions it touches, the buckets holding them and a new revision row
 * sharing everything else (arrays are shared by reference between frozen rows), so it costs
 * O(pages touched), never a copy of the space.
 */
export interface RevisionRow {
  id: string
  space: string
  parents: readonly string[]
  type: 'edits' | 'merge' | 'update' | 'rollback'
  createdAt: string
  /** The change request merged (type `merge`). */
  mergedFrom?: string
  /**
   * The change request this revision was made for (its content edits, its updates from main):
   * work in progress, read only by callers who may view change requests. Main's revisions have none.
   */
  changeRequest?: string
  /** The Git commit a Git Sync import made the revision from (domains/git-sync). */
  git?: RevisionGitInfo
  /** Root pages, in order. */
  rootPages: readonly string[]
  /** Ids of the index buckets (`contentBuckets`); empty for an empty revision. */
  buckets: readonly string[]
  /** Files of the revision, in insertion order. */
  files: readonly string[]
  variables: Readonly<Record<string, string>>
}

/** One bucket of a revision's page index: page id → page version id. Immutable, shared between revisions. */
export interface ContentBucketRow {
  id: string
  entries: Readonly<Record<string, string>>
}

/** One version of a page: immutable; an edit writes a new version with the same `page` id. */
export interface PageVersionRow {
  id: string
  /** The page's id, stable through edits, merges and updates. */
  page: string
  space: string
  type: 'document' | 'group' | 'link'
  title: string
  slug: string
  /** The parent page; a root page when undefined. */
  parent?: string
  /** Child page ids, in order. */
  children: readonly string[]
  emoji?: string
  icon?: string
  description?: string
  hidden?: boolean
  noIndex?: boolean
  noRobotsIndex?: boolean
  condition?: string
  document: JsonDocument
  createdAt: string
  updatedAt: string
  /** The Git blob and path a Git Sync import read the page from (the official GitSyncBlob). */
  git?: { oid: string; path: string }
}

/** A file of a space's content (bytes in the blob port, under `blob`). Immutable. */
export interface FileRow {
  id: string
  space: string
  name: string
  contentType: string
  size: number
  dimensions?: { width: number; height: number }
  blob: string
  createdAt: string
  /** The Git blob and path a Git Sync import read the file from. */
  git?: { oid: string; path: string }
}

/** The commit a revision was imported from (the official GitSyncCommit). */
export interface RevisionGitInfo {
  oid: string
  message: string
  createdByGitBook: boolean
  ref?: string
  url?: string
}

export type GitSyncDirection = 'import' | 'export'
export type GitSyncOperationState = 'running' | 'failure' | 'success' | 'timeout'

/**
 * What the last successful (not standalone) sync of a space with its repository, branch and
 * folder read from the branch or wrote to it: the files that are the sync's own (an export
 * replaces or removes those, and keeps every other file of the repository byte for byte), which
 * page or file each was, and what a page's frontmatter held that the content model has no place
 * for (`layout`...), written back by the next export. See domains/git-sync (export-job.ts, layout/write.ts, apply-import.ts).
 */
export interface GitSyncTree {
  /** Markdown files of pages: the page each was read as or written from. */
  pages: Array<{ path: string; page: string; frontmatter?: GitSyncFrontmatter }>
  /** Assets: the file each became or was written from. */
  files: Array<{ path: string; file: string }>
  /** The other files the sync reads and writes (SUMMARY.md). */
  other: string[]
}

/** A page's frontmatter as read: its keys in order, and the values of those the content model has no place for. */
export interface GitSyncFrontmatter {
  keys: string[]
  extra: Record<string, unknown>
}

/**
 * A space's Git Sync (id: the space's id), from its first import or export on: the repository it
 * syncs with (its URL without credentials: those are never stored), the last operation and its
 * outcome, and what the next operations compare with (the commit and the revision of the last
 * successful sync, the newest timestamp applied). See domains/git-sync.
 */
export interface GitSyncRow {
  id: string
  space: string
  /** The id git info answers as `installationId` (a plain-URL sync has no installation of its own). */
  installation: string
  provider: 'github' | 'gitlab' | 'github-legacy'
  status: 'active' | 'unauthenticated' | 'pending'
  /** The remote, without credentials. */
  url: string
  /** The repository's tree URL (`gitInfo.url` or `repoTreeURL`), without credentials. */
  treeUrl?: string
  commitUrl?: string
  repoName: string
  ref: string
  projectDirectory?: string
  updatedAt: string
  operation: {
    id: string
    direction: GitSyncDirection
    state: GitSyncOperationState
    stage: 'repo_fetch' | 'config_check' | 'content_process' | 'finalize'
    startedAt: string
    updatedAt: string
    completedAt?: string
    endedAt?: string
    error?: string
    /** The revision an import made (standalone or not), or the revision an export wrote. */
    revision?: string
    /** The commit imported, or pushed (the remote's head when an export had nothing to commit). */
    commit?: string
    timestamp?: string
    standalone?: boolean
    force?: boolean
  }
  /** The newest `timestamp` of an operation that succeeded. */
  appliedTimestamp?: string
  /** The commit of the last successful sync with `url` and `ref`. */
  commit?: string
  /** Main's revision right after the last successful non-standalone sync (a later one means local changes). */
  revision?: string
  /** The files of the last successful sync with `url`, `ref` and `projectDirectory` (kept with `commit`). */
  tree?: GitSyncTree
}

export type ChangeRequestStatus = 'draft' | 'open' | 'merged' | 'archived'

export interface ChangeRequestRow {
  id: string
  space: string
  organization: string
  number: number
  status: ChangeRequestStatus
  subject?: string
  description?: JsonDocument
  createdBy: string
  createdAt: string
  updatedAt: string
  /** The change request's current content. */
  revision: string
  /** Main's revision when the change request was created. */
  revisionInitial: string
  /** Main's revision the content was last based on (creation or the last update from main). */
  revisionMergedAncestor?: string
  revisionMerged?: string
  mergedBy?: string
  mergedAt?: string
  comments: number
  /** Who edited the content, in first-edit order, with their edit counts. */
  contributors: ReadonlyArray<{ user: string; count: number; updatedAt: string }>
}

export interface ReviewRow {
  id: string
  changeRequest: string
  space: string
  reviewer: string
  requestedBy?: string
  status: 'approved' | 'changes-requested'
  revision: string
  outdated: boolean
  createdAt: string
  updatedAt: string
}

export interface RequestedReviewerRow {
  /** `${changeRequest}/${user}` */
  id: string
  changeRequest: string
  space: string
  user: string
  requestedBy: string
  revision: string
  createdAt: string
}

/** A comment's or reply's body, kept in the form it was posted in (`format` converts it when read). */
export type CommentBody = { markdown: string } | { document: JsonDocument }

/** One emoji's reactions: who reacted with it (each user once) and when, in reaction order. */
export interface CommentReaction {
  emoji: string
  users: ReadonlyArray<{ user: string; reactedAt: string }>
}

/**
 * A comment on a space's main content, or in a change request (`changeRequest`). Deleting a
 * comment removes its row and its replies'; `comments` counters on the space and the change
 * request count the open ones of each (see domains/comments/counters.ts).
 */
export interface CommentRow {
  id: string
  space: string
  changeRequest?: string
  postedBy: string
  postedAt: string
  editedAt?: string
  body: CommentBody
  /** Where the comment points: the revision it was posted on, and optionally a page, a node of it, a table cell of that node. */
  target: { revision: string; page?: string; node?: string; tableCell?: { record: string; definition: string } }
  status: 'open' | 'resolved'
  resolvedAt?: string
  resolvedBy?: string
  reactions: readonly CommentReaction[]
}

/** A reply to a comment (in the comment's space and change request). */
export interface CommentReplyRow {
  id: string
  comment: string
  space: string
  changeRequest?: string
  postedBy: string
  postedAt: string
  editedAt?: string
  body: CommentBody
  reactions: readonly CommentReaction[]
}

/**
 * A SAML identity provider of an organization. The identity provider's settings (`entityID`,
 * `ssoURL`, `certificate`) may come one by one: the provider is `pending` until all three are set.
 */
export interface SamlProviderRow {
  id: string
  organization: string
  label: string
  entityID?: string
  ssoURL?: string
  /** A PEM X.509 certificate, as given (checked when set). */
  certificate?: string
  /** A team of the organization users signing in through the provider join. */
  defaultTeam?: string
  defaultRole: Role | null
  createdAt: string
}

/** Where an OpenAPI spec comes from: its text, or a URL fetched when it is processed. */
export type OpenAPISpecSource = { text: string } | { url: string }

export type OpenAPIProcessErrorCode = 'FETCH_TIMEOUT' | 'FETCH_ERROR' | 'PARSE_ERROR'

/**
 * An OpenAPI spec of an organization, addressed by its slug. A new source makes it `pending`; its
 * processing job (domains/openapi-specs/processing.ts) moves it to `progress`, then `complete`
 * with a new version, or with the error that stopped it.
 */
export interface OpenAPISpecRow {
  id: string
  organization: string
  slug: string
  createdAt: string
  updatedAt: string
  visibility: 'private' | 'public'
  /** The URL of the latest source, when it was one. */
  sourceURL?: string
  processingState: 'pending' | 'progress' | 'complete'
  /** The source waiting for (or in) processing; removed once processing completes. */
  pendingSource?: OpenAPISpecSource
  /** Counts the sources given: a job for an older source writes nothing. */
  run: number
  lastVersion?: string
  lastProcessedAt?: string
  lastProcessErrorCode?: OpenAPIProcessErrorCode
  lastProcessedErrors: ReadonlyArray<{ message: string; code?: string }>
  /** Errors found before `lastProcessedErrors` was cut to its first ones. */
  lastProcessedErrorCount: number
}

/** A processed version of an OpenAPI spec: the source text exactly as given or fetched. */
export interface OpenAPISpecVersionRow {
  id: string
  spec: string
  organization: string
  createdAt: string
  text: string
  format: 'json' | 'yaml'
  /** The URL the text was fetched from, for a URL source. */
  sourceURL?: string
}

/** The statistics of a translation's runs (official `Translation.stats`; durations in whole seconds). */
export interface TranslationStats {
  runs: number
  totalWords: number
  totalPages: number
  totalDuration: number
  latestRunDuration: number
  latestPages: number
  latestWords: number
}

/**
 * A translation of a space into another language (domains/translations). A run is a background
 * job that writes the source's current content, translated, as a new revision of the result space
 * (made by the first run). `runToken` names the latest run requested: only the job holding it
 * moves `status`, so overlapping runs never leave it wrong.
 */
export interface TranslationRow {
  id: string
  organization: string
  source: { space: string; language: string }
  language: string
  instructions: JsonDocument
  createdBy: string
  createdAt: string
  updatedAt: string
  status: 'pending' | 'running' | 'completed'
  runToken: string
  /** When the running run started (its duration is measured from here, on the API's clock). */
  runStartedAt?: string
  result?: { space: string; revision: string; language: string }
  stats: TranslationStats
  /** Every source page a run has translated (`stats.totalPages` counts them). */
  translatedPages: readonly string[]
  /**
   * Per source page, the source version last translated and the result version made from it:
   * a later run reuses the result while both are unchanged (and the instructions too: a change of
   * instructions empties this record), so it sends only new and changed pages to the translator.
   */
  pages: Readonly<Record<string, { source: string; result: string }>>
  /** Source file id → its copy in the result space (copied once, by the first run that needs it). */
  files: Readonly<Record<string, string>>
  /** Why the latest run failed (cleared by the next run that completes). */
  lastRunError?: { message: string; at: string }
}

/** How much an issue hurts: `low` minor friction, `medium` a workaround exists, `high` blocking. */
export type Impact = 'low' | 'medium' | 'high'

/** One part of a conversation as ingested. */
export interface ConversationPart {
  type: 'message'
  role: 'user' | 'assistant'
  body: string
}

/**
 * A support conversation ingested into an organization (domains/conversations). Its public id is
 * the one given at ingest (or made then); the row id is `${organization}/${id}`, so two
 * organizations may ingest the same id. Processing (a background job) extracts its issues.
 */
export interface ConversationRow {
  id: string
  organization: string
  /** The public id. */
  conversation: string
  subject?: string
  source: string
  parts: readonly ConversationPart[]
  metadata: { url?: string; attributes: Readonly<Record<string, string>>; createdAt?: string }
  createdAt: string
  ingestedAt: string
  status: 'pending' | 'processing' | 'processed' | 'failed'
  /** The latest ingest's token: only the processing job holding it writes (a re-ingest supersedes it). */
  runToken: string
  processedAt?: string
  impact?: Impact
  error?: string
}

/** An issue extracted from a conversation, in a cluster of issues about the same problem. */
export interface ConversationIssueRow {
  id: string
  organization: string
  /** The conversation's row id. */
  conversation: string
  cluster: string
  title: string
  details: JsonDocument
  impact: Impact
  createdAt: string
  ingestedAt: string
  /** The issue's terms (stemmed, stop words left out): what clustering compares. */
  terms: readonly string[]
}

/** A cluster of similar issues. Counts, impact (and the icon showing it), pulse and sources are worked out from its issues when read. */
export interface IssueClusterRow {
  id: string
  organization: string
  label: string
  summary: JsonDocument
  muted: boolean
  createdAt: string
  updatedAt: string
}

/** A named counter (see domains/common/sequence.ts). */
export interface SequenceRow {
  id: string
  value: number
}

/**
 * Root keys made so far, one string per organization id: indexing a row compares and hashes its
 * keys, and the same string object each time compares by identity and keeps its hash, where a
 * new concatenation per call would be built, flattened and hashed again on every write. Bounded:
 * cleared when it reaches 4,096 organizations (a cache, not a registry).
 */
const rootKeys = new Map<string, string>()

/** Sibling key for items at the root of an organization (no parent collection). */
export function rootKey(organization: string): string {
  let key = rootKeys.get(organization)
  if (key === undefined) {
    if (rootKeys.size >= 4096) rootKeys.clear()
    rootKeys.set(organization, (key = `org:${organization}`))
  }
  return key
}
/** How many organizations' root keys the cache holds now: for tests (test/perf/root-key.test.ts). */
export const rootKeyCacheSize = (): number => rootKeys.size
export const parentKey = (row: { organization: string; parent?: string }): string =>
  row.parent ?? rootKey(row.organization)

/** Container key of sections and groups: a site's root (`site:<id>`) or a group (`group:<id>`). */
export const structureKey = (site: string, group: string | undefined): string => (group ? `group:${group}` : `site:${site}`)
/** Container key of site-spaces: a section (`section:<id>`) or a site's root (`site:<id>`). */
export const siteSpaceContainer = (s: { site: string; section?: string }): string =>
  s.section ? `section:${s.section}` : `site:${s.site}`

/** The thread a comment belongs to: a change request's (`cr:<id>`) or its space's own (`space:<id>`). */
export const commentThread = (c: { space: string; changeRequest?: string }): string => (c.changeRequest ? `cr:${c.changeRequest}` : `space:${c.space}`)

/**
 * The one key of the `unfinished` indexes: rows whose background work has not reached a final
 * state, which the areas' resumers take up again after a fork, a restore or a load (core/resume.ts).
 */
export const UNFINISHED = 'unfinished'

export const schema = {
  sequences: collection<SequenceRow>(),
  users: collection<UserRow>(),
  tokens: collection<TokenRow>({ byUser: { key: (t) => t.user } }),
  organizations: collection<OrganizationRow>(),
  members: collection<MemberRow>({
    byOrganization: { key: (m) => m.organization },
    byUser: { key: (m) => m.user },
    /** `${organization}/${role ?? 'guest'}`: the role filter of the member list and the last-admin rule. */
    byRole: { key: (m) => `${m.organization}/${m.role ?? 'guest'}` },
  }),
  inviteLinks: collection<InviteLinkRow>({ byOrganization: { key: (i) => i.organization } }),
  teams: collection<TeamRow>({ byOrganization: { key: (t) => t.organization } }),
  teamMembers: collection<TeamMemberRow>({
    byTeam: { key: (m) => m.team },
    byUser: { key: (m) => m.user },
  }),
  collections: collection<CollectionRow>({
    byOrganization: { key: (c) => c.organization },
    /** Collections under a parent (or an organization's root), in position order. */
    byParent: { key: parentKey, order: (c) => c.position },
  }),
  spaces: collection<SpaceRow>({
    /** Live spaces of an organization; deleted ones leave this index. */
    byOrganization: { key: (s) => (s.deletedAt ? undefined : s.organization) },
    /** Live spaces under a collection, or at an organization's root, in position order. */
    byParent: { key: (s) => (s.deletedAt ? undefined : parentKey(s)), order: (s) => s.position },
    /** Deleted spaces, waiting for restore or purge. */
    deleted: { key: (s) => (s.deletedAt ? s.organization : undefined) },
  }),
  sites: collection<SiteRow>({
    byOrganization: { key: (s) => s.organization },
    /** Custom hostnames are unique across sites. */
    byHostname: { key: (s) => s.hostname },
    /** So are proxy origins. */
    byProxy: { key: (s) => s.proxy },
    /** And basenames within an organization (`${organization}/${basename}`). */
    byBasename: { key: (s) => (s.basename === undefined ? undefined : `${s.organization}/${s.basename}`) },
  }),
  siteSections: collection<SiteSectionRow>({
    bySite: { key: (s) => s.site },
    /** Sections of one container (`structureKey`), in position order. */
    byContainer: { key: (s) => structureKey(s.site, s.sectionGroup), order: (s) => s.position },
  }),
  siteSectionGroups: collection<SiteSectionGroupRow>({
    bySite: { key: (g) => g.site },
    byContainer: { key: (g) => structureKey(g.site, g.sectionGroup), order: (g) => g.position },
  }),
  siteSpaces: collection<SiteSpaceRow>({
    bySite: { key: (s) => s.site },
    /** Site-spaces of one section (`section:<id>`) or of a site's root (`site:<id>`), in position order. */
    byContainer: { key: siteSpaceContainer, order: (s) => s.position },
    /** Where a space is published: the `space` filter of the site list, share-key resolution. */
    bySpace: { key: (s) => s.space },
  }),
  shareLinks: collection<ShareLinkRow>({
    bySite: { key: (l) => l.site },
    byKey: { key: (l) => l.key },
  }),
  revisions: collection<RevisionRow>({ bySpace: { key: (r) => r.space } }),
  contentBuckets: collection<ContentBucketRow>(),
  pageVersions: collection<PageVersionRow>(),
  files: collection<FileRow>({
    bySpace: { key: (f) => f.space },
    /** Files naming a blob: bytes are served only while some file row names them. */
    byBlob: { key: (f) => f.blob },
  }),
  changeRequests: collection<ChangeRequestRow>({
    /** A space's change requests, in creation order; by status for the status filter. */
    bySpace: { key: (c) => c.space },
    bySpaceStatus: { key: (c) => `${c.space}/${c.status}` },
    /** `${organization}/${status}`: the organization list reads one status, never the whole organization. */
    byOrganizationStatus: { key: (c) => `${c.organization}/${c.status}` },
    /** `${space}/${number}`: a change request addressed by its number. */
    byNumber: { key: (c) => `${c.space}/${c.number}` },
  }),
  reviews: collection<ReviewRow>({ byChangeRequest: { key: (r) => r.changeRequest } }),
  requestedReviewers: collection<RequestedReviewerRow>({ byChangeRequest: { key: (r) => r.changeRequest } }),
  comments: collection<CommentRow>({
    /** A thread's comments (`commentThread`), in posting order. */
    byThread: { key: commentThread },
    /** `${thread}/${status}`: the status filter, and the open counters in O(1). */
    byThreadStatus: { key: (c) => `${commentThread(c)}/${c.status}` },
    /** Every comment of a space, its change requests' included: purged with the space. */
    bySpace: { key: (c) => c.space },
  }),
  /** `unfinished` (key `unfinished`): syncs whose operation is running, for core/resume.ts. */
  gitSyncs: collection<GitSyncRow>({ unfinished: { key: (g) => (g.operation.state === 'running' ? UNFINISHED : undefined) } }),
  /** Replies of a comment, in posting order. */
  commentReplies: collection<CommentReplyRow>({ byComment: { key: (r) => r.comment } }),
  samlProviders: collection<SamlProviderRow>({ byOrganization: { key: (p) => p.organization } }),
  openapiSpecs: collection<OpenAPISpecRow>({
    byOrganization: { key: (s) => s.organization },
    /** `${organization}/${slug}`: a slug names one spec of its organization. */
    bySlug: { key: (s) => `${s.organization}/${s.slug}` },
    /** Specs not yet `complete` (key `unfinished`), for core/resume.ts. */
    unfinished: { key: (s) => (s.processingState === 'complete' ? undefined : UNFINISHED) },
  }),
  /** Versions of a spec, oldest first. */
  openapiSpecVersions: collection<OpenAPISpecVersionRow>({ bySpec: { key: (v) => v.spec } }),
  /** Translations of an organization, in creation order; by source space (purged with it) and by result space. */
  translations: collection<TranslationRow>({
    byOrganization: { key: (t) => t.organization },
    bySource: { key: (t) => t.source.space },
    byResult: { key: (t) => t.result?.space },
    /** Translations with a run asked for or running (key `unfinished`), for core/resume.ts. */
    unfinished: { key: (t) => (t.status === 'completed' ? undefined : UNFINISHED) },
  }),
  /** Conversations of an organization in first-ingest order, and by `${organization}/${source}` for the source filter. */
  conversations: collection<ConversationRow>({
    byOrganization: { key: (c) => c.organization },
    bySource: { key: (c) => `${c.organization}/${c.source}` },
    /** Conversations `pending` or `processing` (key `unfinished`), for core/resume.ts. */
    unfinished: { key: (c) => (c.status === 'pending' || c.status === 'processing' ? UNFINISHED : undefined) },
  }),
  conversationIssues: collection<ConversationIssueRow>({
    byOrganization: { key: (i) => i.organization },
    byConversation: { key: (i) => i.conversation },
    byCluster: { key: (i) => i.cluster },
  }),
  issueClusters: collection<IssueClusterRow>({ byOrganization: { key: (c) => c.organization } }),
  spaceGrants: collection<SpaceGrantRow>({
    bySpace: { key: (g) => g.space },
    /** A space's user grants (`${space}/user`) or team grants (`${space}/team`), for paging each list. */
    bySpaceAndType: { key: (g) => `${g.space}/${g.principal.type}` },
    byPrincipal: { key: (g) => (g.principal.type === 'user' ? `user:${g.principal.user}` : `team:${g.principal.team}`) },
  }),
  /** Published integrations, by name (their id); the owner's integrations for the `owner` filter. */
  integrations: collection<IntegrationRow>({ byOrganization: { key: (i) => i.organization } }),
  integrationInstallations: collection<IntegrationInstallationRow>({
    byIntegration: { key: (i) => i.integration },
    /** `${integration}/${organization}`: one installation per organization. */
    byIntegrationOrganization: { key: (i) => `${i.integration}/${i.organization}` },
  }),
  integrationSpaceInstallations: collection<IntegrationSpaceInstallationRow>({
    byIntegration: { key: (i) => i.integration },
    byInstallation: { key: (i) => i.installation },
  }),
  integrationSiteInstallations: collection<IntegrationSiteInstallationRow>({
    byIntegration: { key: (i) => i.integration },
    byInstallation: { key: (i) => i.installation },
  }),
  /** An integration's events, in the order they were recorded. */
  integrationEvents: collection<IntegrationEventRow>({
    byIntegration: { key: (e) => e.integration },
    /** Events whose delivery is `pending` or in `progress` (key `unfinished`), for core/resume.ts. */
    unfinished: { key: (e) => (e.delivery.state === 'pending' || e.delivery.state === 'progress' ? UNFINISHED : undefined) },
  }),
}

export type AppSchema = typeof schema
export type { StoragePort, ReadTx, WriteTx } from './port.js'
