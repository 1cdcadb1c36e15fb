import { type JSONDocument } from '@gitbook/api'
import { rendererWorld } from './renderer-world.js'
import { describe, expect, it } from 'vitest'
import { expectOfficialResponse } from './official.js'

/**
 * The renderer's reads of a page including a reusable content, over the demo data (the Acme Docs
 * site's installation page includes "Support"), with the site token of its URL's resolution, as
 * renderer.test.ts replays them: GitBook Open asks the page's document with
 * `evaluated=deterministic-only&dereferenced=reusable-contents` (lib/data/api.ts
 * getRevisionPageDocument), and a block left in it is rendered from the revision's
 * `reusableContents` and `getReusableContentDocumentInRevisionById` (DocumentView/ReusableContent.tsx).
 */

describe('contract: GitBook renderer, a page with a reusable content', () => {
  it('the installation page of the demo site: its document with the reusable content inlined, and the reusable content read alone', async () => {
    const { site, visit } = await rendererWorld()
    const {
      content: { space, pathname },
      gb: reader,
    } = await visit(`${site.urls.published}/installation`)
    const revision = (await reader.spaces.getSpaceById(space)).data.revision
    const page = (await reader.spaces.getPageInRevisionByPath(space, revision, pathname)).data.id

    const rev = await reader.spaces.getRevisionById(space, revision, { metadata: true })
    expectOfficialResponse('getRevisionById', 200, rev.data)
    expect(rev.data.reusableContents).toEqual([expect.objectContaining({ title: 'Support' })])
    const support = rev.data.reusableContents[0]!

    const document = await reader.spaces.getPageDocumentInRevisionById(space, revision, page, {
      evaluated: 'deterministic-only',
      dereferenced: 'reusable-contents',
    })
    expectOfficialResponse('getPageDocumentInRevisionById', 200, document.data)
    const types = (document.data as JSONDocument).nodes.map((n) => n.type)
    expect(types).not.toContain('reusable-content')
    expect(types.at(-1)).toBe('hint')
    expect(JSON.stringify(document.data)).toContain('support@acme.test')

    // As stored, the page names it; the renderer reads it alone with the same token.
    const stored = await reader.spaces.getPageDocumentInRevisionById(space, revision, page)
    expect((stored.data as JSONDocument).nodes.at(-1)).toMatchObject({
      type: 'reusable-content',
      data: { ref: { kind: 'reusable-content', reusableContent: support.id } },
    })
    const alone = await reader.spaces.getReusableContentDocumentInRevisionById(space, revision, support.id, { evaluated: 'deterministic-only' })
    expectOfficialResponse('getReusableContentDocumentInRevisionById', 200, alone.data)
    expect(JSON.stringify(alone.data)).toContain('support@acme.test')
    const meta = await reader.spaces.getReusableContentInRevisionById(space, revision, support.id)
    expectOfficialResponse('getReusableContentInRevisionById', 200, meta.data)
  })
})
