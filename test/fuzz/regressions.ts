import type { FuzzRequest } from './requests.js'
import type { FuzzWorld } from './world.js'

/**
 * Inputs that long fuzz runs found, by operation, replayed first (fast-check `examples`) on every
 * run of that operation's valid-input property, so CI sees them whatever the seed. Each says what
 * found it. They stay once fixed: they are regression tests then.
 */
type Example = (w: FuzzWorld) => FuzzRequest

const siteSpacePath =
  (path: string): Example =>
  (w) => ({
    op: 'updateSiteSpaceById',
    caller: 'admin',
    method: 'PATCH',
    params: { organizationId: w.orgs.main, siteId: w.site.id, siteSpaceId: w.site.siteSpaceB2 },
    query: [],
    body: { json: { path } },
  })

export const REGRESSIONS: Record<string, Example[]> = {
  // FUZZ_SEED=777 FUZZ_RUNS=300 (and seeds 1-3): a lone surrogate in a path is a 500 (URIError).
  updateSiteSpaceById: [siteSpacePath('x\ud83dy'), siteSpacePath('\udfff')],
  // FUZZ_SEED=2 FUZZ_RUNS=300: the same through a section's path.
  updateSiteSectionById: [
    (w) => ({
      op: 'updateSiteSectionById',
      caller: 'edit',
      method: 'PATCH',
      params: { organizationId: w.orgs.main, siteId: w.site.id, siteSectionId: w.site.sectionB },
      query: [],
      body: { json: { path: '\ud800' } },
    }),
  ],
  // FUZZ_SEED=777 FUZZ_RUNS=300: a basename that is no URL segment gives a `urls.published` the official schema rejects.
  updateSiteById: [
    (w) => ({
      op: 'updateSiteById',
      caller: 'edit',
      method: 'PATCH',
      params: { organizationId: w.orgs.main, siteId: w.site.id },
      query: [],
      body: { json: { basename: ' ' } },
    }),
  ],
  // The first runs: a JSON document was checked for its envelope only, so a paragraph without
  // `nodes` was stored and answered, and the answer failed the official schema (now a 400).
  updateChangeRequestById: [
    (w) => ({
      op: 'updateChangeRequestById',
      caller: 'admin',
      method: 'PATCH',
      params: { spaceId: w.targets.spaceId!, changeRequestId: w.targets.changeRequestId! },
      query: [],
      body: { json: { description: { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph' }] } } },
    }),
  ],
}
