import { loadMarkdown } from './content/markdown-libs.js'
import { certificateLibraries } from './sso/certificate.js'

/**
 * Load the libraries docs-content-api loads on first use that a synchronous seed check can need
 * (pkijs and asn1js, which check SAML certificates; unified and remark, which check comment
 * bodies). Requests load what they need themselves; `createDocsApi({ seed })` is synchronous, so
 * a seed holding SAML providers with certificates or comments needs `await preload()` first in a
 * process that has not loaded them yet. Cheap once loaded.
 */
export async function preload(): Promise<void> {
  await Promise.all([certificateLibraries.load(), loadMarkdown()])
}

/** Whether the document (any value: it is checked later) has rows, or something other than none, in `collection`. */
function holds(doc: unknown, collection: string): boolean {
  if (doc === null || typeof doc !== 'object') return false
  const rows = (doc as Record<string, unknown>)[collection]
  return rows !== undefined && !(Array.isArray(rows) && rows.length === 0)
}

/**
 * What `preload()` loads that loading the state document `doc` (as given: checked later) needs, only: pkijs and asn1js when it holds SAML
 * providers (`samlProviders`), unified and remark when it holds comments or replies. A state
 * document without either (the demo data) loads neither, and a server starts sooner.
 */
export async function preloadFor(doc: unknown): Promise<void> {
  await Promise.all([
    holds(doc, 'samlProviders') ? certificateLibraries.load() : undefined,
    holds(doc, 'comments') || holds(doc, 'commentReplies') ? loadMarkdown() : undefined,
  ])
}
