import type { OperationDef } from '../../src/index.js'
import { compressToEncodedURIComponent } from '../../src/domains/integrations/lz-string.js'
import { canonicalOf } from './canonical.js'
import { queryPairs } from './generators.js'
import type { Variant } from './policy.js'
import type { FuzzRequest } from './requests.js'
import { targetForField } from './world-ids.js'
import type { Caller } from './callers.js'
import type { FuzzWorld } from './world.js'

/**
 * Bodies (or queries) the schema's canonical value cannot succeed with, by operation. Everything
 * else sends `canonicalOf(op.body)` and `canonicalOf(op.query)`: required fields only, ids of the
 * matrix targets. Keep this short.
 */
export const OVERRIDES: Record<string, { body?: (w: FuzzWorld) => unknown; query?: (w: FuzzWorld) => Record<string, string>; why: string }> = {
  resolvePublishedContentByUrl: {
    body: (w) => ({ url: w.targets.publishedUrl }),
    why: 'the canonical URL is no published site: the main site is the target (public and published)',
  },
  streamAIResponseInSite: {
    body: () => ({ input: [{ role: 'user', content: 'matrix' }] }),
    why: 'the canonical conversation is empty: the assistant answers the last user message (a 400 without one)',
  },
  getContentByUrl: {
    query: (w) => ({ url: w.targets.publishedUrl! }),
    why: "the canonical URL names no content: the main site's URL names its default space (a private space members read)",
  },
  getPublishedContentByUrl: {
    query: (w) => ({ url: w.targets.publishedUrl! }),
    why: 'the canonical URL is no published site: the main site is the target (public and published)',
  },
  transferCollection: {
    body: (w) => ({ organization: w.orgs.sister }),
    why: "the canonical organization is the collection's own (a 409); the admin caller is admin of the sister organization",
  },
  transferSpace: {
    body: (w) => ({ organization: w.orgs.sister }),
    why: "the canonical body names the space's own organization root, where it already is (a 409)",
  },
  moveSiteSpace: {
    body: (w) => ({ position: { before: { type: 'site-space', siteSpace: w.site.siteSpaceB1 } } }),
    why: 'the target is already last in its section, so the canonical move to the end changes nothing (a 409)',
  },
  updateChangeRequestContent: {
    body: () => ({ changes: [{ operation: 'insert_page', title: 'Matrix', document: {} }] }),
    why: 'the canonical change is an update of a page id that is not in the change request',
  },
  requestReviewersForChangeRequest: {
    body: (w) => ({ users: [w.users.member.id] }),
    why: 'the canonical user id is not a member of the organization',
  },
  setIntegrationDevelopmentMode: {
    body: () => ({ tunnelUrl: 'https://matrix.trycloudflare.com' }),
    why: 'the canonical string is no URL (a 400 naming `tunnelUrl`): what `gitbook dev` sends is an https tunnel',
  },
  renderIntegrationUIWithPost: {
    body: (w) => renderBody(w),
    why: "the canonical context is an account configuration of no organization: a document of the main organization's public space renders (the matrix app's in-process handler answers)",
  },
  renderIntegrationUIWithGet: {
    query: (w) => ({ request: compressToEncodedURIComponent(JSON.stringify(renderBody(w))) }),
    why: 'the canonical `request` is no LZ-string compressed body: the POST override, compressed',
  },
  installIntegration: {
    body: (w) => ({ organization: w.orgs.sister }),
    why: 'the main organization has the integration installed already (a 409); the admin caller is admin of the sister organization',
  },
  installIntegrationOnSpace: {
    body: (w) => ({ space: w.candidates.spaceId![8] }),
    why: 'the target space has the installation already (a 409): a private space of the main organization without it',
  },
  installIntegrationOnSite: {
    body: (w) => ({ siteId: w.site.draftSite }),
    why: 'the target site has the installation already (a 409): another site of the main organization',
  },
  createTranslation: {
    body: (w) => ({ language: 'fr', source: { space: w.targets.spaceId, language: 'en' } }),
    why: 'the canonical languages are both the first of the enum (`en`), and a translation into its own language is a 400',
  },
  getSiteRedirectBySource: {
    query: (w) => ({ source: w.site.redirectSource }),
    why: 'the canonical source (a string of the official pattern) is the source of no redirect of the site (a 404)',
  },
  getComputedDocument: {
    body: () => ({
      source: { type: 'builtin:openapi', props: { doc: 'models' }, dependencies: { spec: { ref: { kind: 'openapi', spec: 'petstore' } } } },
      seed: 'matrix',
    }),
    why: 'the canonical source type matches none of the official ones (a refinement); the OpenAPI spec of the main organization is one both spaces may name',
  },
  getComputedRevision: {
    body: () => ({
      source: { type: 'builtin:openapi', props: { models: true }, dependencies: { spec: { ref: { kind: 'openapi', spec: 'petstore' } } } },
      seed: 'matrix',
    }),
    why: 'as getComputedDocument',
  },
  submitSiteAgentFeedback: {
    body: (w) => ({
      feedback: 'Outdated',
      url: w.targets.publishedUrl,
      spaceId: w.api.store.read((tx) => tx.get('siteSpaces', w.site.siteSpaceB1)!.space),
      pageId: 'page',
    }),
    why: 'the space must be one the target site publishes (a 400 naming `spaceId` otherwise): the space of its site-space B1',
  },
  sortSiteStructure: {
    body: (w) => ({ item: { type: 'site-section', id: w.site.sectionB }, position: { before: { type: 'site-section', id: w.site.sectionA } } }),
    why: "the canonical item is a `site-space` pointer, and no id is both a site-space and the target section's sibling",
  },
}

/** The request the matrix sends: the targets of the world (the public space for that variant) and a body that can succeed. */
/** A render of the matrix app's component in a document of the public space (every signed-in caller sees both). */
const renderBody = (w: FuzzWorld) => ({
  componentId: 'matrix',
  props: {},
  context: { type: 'document', spaceId: w.spaces.publicSpace, editable: false, theme: 'light' },
})

export function matrixRequest(op: OperationDef, world: FuzzWorld, caller: Caller, variant: Variant): FuzzRequest {
  const params: Record<string, string> = {}
  const thread: Record<string, string> = world.threadTargets[variant][op.path.includes('/change-requests/') ? 'changeRequest' : 'space']
  for (const [, name] of op.path.matchAll(/\{(\w+)\}/g)) {
    const publicTarget = variant === 'public' ? (name === 'spaceId' ? world.spaces.publicSpace : world.publicTargets[name!]) : undefined
    params[name!] = thread[name!] ?? publicTarget ?? world.targets[name!] ?? `unknown-${name}`
  }
  const idFor = (field: string) => targetForField(world, field)
  const override = OVERRIDES[op.id]
  const query = op.query ? queryPairs(override?.query?.(world) ?? canonicalOf(op.query, idFor)) : []
  const req: FuzzRequest = { op: op.id, caller, method: op.method, params, query }
  if (op.body) req.body = { json: override?.body?.(world) ?? canonicalOf(op.body, idFor) }
  return req
}
