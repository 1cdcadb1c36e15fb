import { afterEach, describe, expect, it } from 'vitest'
import { OffloadError, TASKS } from '../../src/index.js'
import { createWorkerOffload } from '../../src/node.js'
import { spaceWorld } from '../helpers.js'
import { longestStall, prose } from '../stall.js'

const offloads: Array<{ close(): Promise<void> }> = []
const pool = (options: Parameters<typeof createWorkerOffload>[0] = {}) => {
  const offload = createWorkerOffload(options)
  offloads.push(offload)
  return offload
}
afterEach(async () => {
  await Promise.all(offloads.splice(0).map((o) => o.close()))
})

const TABLE = '# Title\n\nSome *text* and a [link](https://example.com).\n\n| a | b |\n| - | - |\n| 1 | 2 |\n'

describe('createWorkerOffload', () => {
  it('runs a task on a worker thread with the result the task gives on this thread', async () => {
    const offload = pool({ workers: 1 })
    const input = { markdown: TABLE, keys: true }
    expect(await offload.run('readMarkdown', input)).toEqual(await TASKS.readMarkdown(input))
    expect(offload.stats.tasks).toBe(1)
  })

  it('stops a task past its budget (its worker replaced), and the next task runs', async () => {
    const offload = pool({ workers: 1, budgetMs: 1 })
    const slow = offload.run('readMarkdown', { markdown: prose(400_000) })
    await expect(slow).rejects.toSatisfy((e) => OffloadError.isOffloadError(e) && e.reason === 'budget')
    expect(offload.stats.stopped).toBe(1)
    const quick = pool({ workers: 1 })
    expect((await quick.run('readMarkdown', { markdown: 'hi' })).ok).toBe(true)
  })

  it('refuses a task when the queue is full, and rejects what waits on close', async () => {
    const offload = pool({ workers: 1, maxQueue: 1 })
    const running = offload.run('readMarkdown', { markdown: prose(50_000) })
    const waiting = offload.run('readMarkdown', { markdown: 'a' })
    await expect(offload.run('readMarkdown', { markdown: 'b' })).rejects.toSatisfy((e) => OffloadError.isOffloadError(e) && e.reason === 'busy')
    const settled = Promise.allSettled([running, waiting])
    await offload.close()
    for (const outcome of await settled) expect(outcome).toMatchObject({ status: 'rejected', reason: { reason: 'closed' } })
    await expect(offload.run('readMarkdown', { markdown: 'c' })).rejects.toSatisfy((e) => OffloadError.isOffloadError(e) && e.reason === 'closed')
  })
})

describe('the API over a worker offload', () => {
  async function world(offload?: ReturnType<typeof pool>) {
    const w = await spaceWorld(offload ? { offload } : {})
    const base = `/spaces/${w.space.id}`
    const cr = await (await w.call('POST', `${base}/change-requests`, {})).json()
    const batch = (changes: unknown[]) => w.call('POST', `${base}/change-requests/${cr.id}/content?compat=false`, { changes })
    const call = (method: string, path: string, body?: unknown) => w.call(method, `${base}${path}`, body)
    const api = w.api
    return { api, batch, call, cr: cr.id as string }
  }

  it('stores what an API reading markdown on its own thread stores, ids included', async () => {
    const changes = [
      { operation: 'insert_page', document: { markdown: TABLE } },
      { operation: 'insert_page', title: 'Two', document: { markdown: '---\ndescription: Hi\n---\n\nA *b* c\n\n- one\n- two\n' } },
    ]
    const inline = await world()
    const threaded = await world(pool({ workers: 2 }))
    const [a, b] = [await inline.batch(changes), await threaded.batch(changes)]
    expect(b.status).toBe(200)
    expect(await b.json()).toEqual(await a.json())
    expect(threaded.api.dump()).toEqual(inline.api.dump())
  })

  it('a markdown document that cannot be stored is the same 400, naming the field', async () => {
    const { api, batch } = await world(pool({ workers: 1 }))
    const before = api.dump()
    const res = await batch([
      { operation: 'insert_page', title: 'A', document: {} },
      { operation: 'insert_page', document: { markdown: '---\n: [\n---\nx' } },
    ])
    expect(res.status).toBe(400)
    expect((await res.json()).error.message).toContain('body field `changes[1].document.markdown`: has frontmatter that is not valid YAML')
    expect(api.dump()).toEqual(before)
  })

  it('a document past the time budget is a 413 naming the field; nothing is written', async () => {
    const { api, batch } = await world(pool({ workers: 1, budgetMs: 1 }))
    const before = api.dump()
    const res = await batch([{ operation: 'insert_page', document: { markdown: prose(400_000) } }])
    expect(res.status).toBe(413)
    expect((await res.json()).error.message).toMatch(/body field `changes\[0\]\.document\.markdown`: could not be processed within the time budget/)
    expect(api.dump()).toEqual(before)
  })

  it('a batch of large markdown pages leaves the event loop free while the worker reads them', async () => {
    const { batch } = await world(pool({ workers: 1 }))
    const pages = Array.from({ length: 6 }, (_, i) => ({ operation: 'insert_page', title: `P${i}`, document: { markdown: prose(150_000) } }))
    const { result, stall, total } = await longestStall(() => batch(pages))
    expect(result.status).toBe(200)
    // Read on this thread, each page would hold the loop for a sixth of the request; on the worker, a small part.
    expect(stall).toBeLessThan(total / 10)
  })

  it('answers pages as markdown and comments in either form as an API doing it on its own thread does', async () => {
    const inline = await world()
    const threaded = await world(pool({ workers: 2 }))
    const answers = []
    for (const w of [inline, threaded]) {
      await w.batch([
        { operation: 'insert_page', title: 'A', document: { markdown: TABLE } },
        { operation: 'insert_page', title: 'B', document: { markdown: 'Hello *there*\n\n- one\n- two\n' } },
      ])
      const merged = await w.call('POST', `/change-requests/${w.cr}/merge`)
      expect(merged.status).toBe(200)
      const pages = (await (await w.call('GET', '/content')).json()).pages
      const md = await w.call('GET', `/content/page/${pages[0].id}?format=markdown`)
      const posted = await w.call('POST', '/comments', { body: { markdown: 'A **bold** remark\n\n> quoted' } })
      expect(posted.status).toBe(200)
      const asDocument = await w.call('GET', '/comments?format=document')
      answers.push([await md.json(), await posted.json(), await asDocument.json()])
    }
    expect(answers[1]).toEqual(answers[0])
    expect(answers[1]![0].markdown).toContain('| a | b |')
    expect(answers[1]![2].items[0].body.document.nodes[0].type).toBe('paragraph')
  })

  it('a large comment is read off the event loop when posted, and when answered as a document', async () => {
    const { call } = await world(pool({ workers: 1 }))
    const markdown = prose(600_000)
    const posted = await longestStall(() => call('POST', '/comments', { body: { markdown } }))
    expect(posted.result.status).toBe(200)
    expect(posted.stall).toBeLessThan(posted.total / 4)
    const read = await longestStall(() => call('GET', '/comments?format=document'))
    expect(read.result.status).toBe(200)
    expect(read.stall).toBeLessThan(read.total / 4)
  })
})
