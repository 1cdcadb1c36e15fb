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
