import { describe, expect, it } from 'vitest'
import { preloadFor } from '../../src/domains/preload.js'
import { certificateLibraries } from '../../src/domains/sso/certificate.js'
import { markdownLibraries } from '../../src/domains/content/markdown-libs.js'

describe('preloadFor: the seed rules\u2019 needs of the collections a document holds, only', () => {
  it('loads nothing for a document without SAML providers or comments, pkijs for providers, unified and remark for comments', async () => {
    // A file of its own: no other test of this worker has loaded either library.
    await preloadFor({ users: [{ id: 'u' }], organizations: [], comments: [], samlProviders: [] })
    expect([certificateLibraries.loaded, markdownLibraries.loaded]).toEqual([false, false])
    await preloadFor({ samlProviders: [{ id: 'p' }] })
    expect([certificateLibraries.loaded, markdownLibraries.loaded]).toEqual([true, false])
    await preloadFor({ commentReplies: [{ id: 'r' }] })
    expect(markdownLibraries.loaded).toBe(true)
  })
})
