import { describe, expect, it } from 'vitest'
import { expectOfficialResponse } from '../../conformance/official.js'
import { call, createWorld } from '../../helpers.js'

/**
 * The content reads GitBook's renderer makes for a page (packages/gitbook/src/lib/data/api.ts),
 * called as it calls them through `@gitbook/api`: the revision with `metadata`, a page as
 * markdown with stable refs, and a page by the raw path of the URL it serves.
 */
async function setup() {
  const w = await createWorld()
  const gb = w.client(w.tokens.ada)
  const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Handbook' })
  const cr = (await gb.spaces.createChangeRequest(space.id, { subject: 'Pages' })).data
  const insert = async (title: string, markdown: string, into?: string) => {
    const res = await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, {
      changes: [{ operation: 'insert_page', title, ...(into && { into }), document: { markdown } }],
    })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    return res.body.changes[0].page.id as string
  }
  const intro = await insert('Introduction', 'Welcome.')
  const chinese = await insert('中文 页面', `See [the introduction](/pages/${intro}).`, intro)
  expect((await gb.spaces.mergeChangeRequest(space.id, cr.id)).data.result).toBe('merge')
  const revision = (await gb.spaces.getCurrentRevision(space.id)).data.id
  return { ...w, gb, space, revision, pages: { intro, chinese } }
}

describe("the renderer's content reads", () => {
  it('getRevisionById?metadata=true: the page tree with what the renderer reads of each page', async () => {
    const w = await setup()
    const rev = await w.gb.spaces.getRevisionById(w.space.id, w.revision, { metadata: true })
    expectOfficialResponse('getRevisionById', 200, rev.data)
    const [intro] = rev.data.pages as any[]
    expect(intro).toMatchObject({ id: w.pages.intro, type: 'document', path: 'introduction', layout: { tableOfContents: true }, tags: [] })
    expect(intro.documentId).toEqual(expect.any(String))
    expect(intro.pages[0]).toMatchObject({ id: w.pages.chinese, path: 'introduction/中文-页面', slug: '中文-页面' })
    expect(rev.data).toMatchObject({ files: [], reusableContents: [], variables: {}, tags: [] })
  })

  it('getPageInRevisionById?format=markdown with stable refs: the body as markdown', async () => {
    const w = await setup()
    const page = await w.gb.spaces.getPageInRevisionById(w.space.id, w.revision, w.pages.chinese, { format: 'markdown', 'format.markdown.refs': 'stable' })
    expectOfficialResponse('getPageInRevisionById', 200, page.data)
    expect('markdown' in page.data && page.data.markdown).toBe(`See [the introduction](/pages/${w.pages.intro}).\n`)
  })

  it("getPageInRevisionByPath with the renderer's encoding of the raw URL path (percent-encoded, then encoded again as one segment)", async () => {
    const w = await setup()
    // The URL path the renderer serves is percent-encoded (`中文` as `%E4%B8%AD%E6%96%87`); it sends `encodeURIComponent` of it.
    for (const raw of ['introduction/中文-页面', encodeURI('introduction/中文-页面'), `${encodeURI('introduction/中文-页面')}/`]) {
      const page = await w.gb.spaces.getPageInRevisionByPath(w.space.id, w.revision, encodeURIComponent(raw), {})
      expect(page.data.id, raw).toBe(w.pages.chinese)
      expectOfficialResponse('getPageInRevisionByPath', 200, page.data)
    }
  })
})
