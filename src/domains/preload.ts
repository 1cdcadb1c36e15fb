import { seedRules } from './index.js'

/** The libraries of `needs` of the seed rules given, each once. */
const loadNeeds = (rules: readonly { needs?: readonly { load(): Promise<unknown> }[] }[]) =>
  Promise.all([...new Set(rules.flatMap((rule) => rule.needs ?? []))].map((library) => library.load()))

/**
 * Load the libraries docs-content-api loads on first use that a synchronous seed check can need
 * (the seed rules' `needs`: pkijs and asn1js, which check SAML certificates; unified and remark,
 * which check comment bodies). Requests load what they need themselves; `createDocsApi({ seed })`
 * is synchronous, so a seed holding SAML providers with certificates or comments needs
 * `await preload()` first in a process that has not loaded them yet. Cheap once loaded.
 */
export async function preload(): Promise<void> {
  await loadNeeds(seedRules)
}

/** Whether the document (any value: it is checked later) has rows, or something other than none, in `collection`. */
function holds(doc: unknown, collection: string): boolean {
  if (doc === null || typeof doc !== 'object') return false
  const rows = (doc as Record<string, unknown>)[collection]
  return rows !== undefined && !(Array.isArray(rows) && rows.length === 0)
}

/**
 * What `preload()` loads that loading the state document `doc` (as given: checked later) needs,
 * only: the `needs` of the seed rules of the collections it holds rows of. A state document whose
 * collections need none (the demo data) loads nothing, and a server starts sooner.
 */
export async function preloadFor(doc: unknown): Promise<void> {
  await loadNeeds(seedRules.filter((rule) => holds(doc, rule.collection)))
}
