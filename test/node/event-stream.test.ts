import { GitBookAPI } from '@gitbook/api'
import { describe, expect, it } from 'vitest'
import { toNodeHandler } from '../../src/node.js'
import { askWorld } from '../domains/ask/helpers.js'
import { listen, rawRequest } from './helpers.js'

describe('node: a streamed answer over a real HTTP server', () => {
  it('goes out as text/event-stream, read by the official client, events arriving as the answerer makes them', async () => {
    const w = await askWorld()
    let release!: () => void
    const gate = new Promise<void>((done) => (release = done))
    const api = w.api.fork({
      ask: async function* () {
        yield { markdown: 'First' }
        await gate
        yield { markdown: 'First and second' }
      },
    })
    const server = await listen(toNodeHandler(api))
    try {
      const gb = new GitBookAPI({ endpoint: server.url, authToken: w.tokens.ada })
      const seen: unknown[] = []
      const reading = (async () => {
        for await (const event of gb.orgs.streamAskInSite(w.org.id, w.site.id, { question: 'lantern', scope: { mode: 'all' } }, { format: 'markdown' })) {
          seen.push(event.answer.answer)
          if (seen.length === 1) release()
        }
      })()
      await reading
      expect(seen).toEqual([{ markdown: 'First' }, { markdown: 'First and second' }])
      const raw = await rawRequest(`${server.url}/v1/orgs/${w.org.id}/sites/${w.site.id}/ask`, {
        method: 'POST',
        headers: { authorization: `Bearer ${w.tokens.ada}`, 'content-type': 'application/json' },
        body: JSON.stringify({ question: 'q'.repeat(513), scope: { mode: 'all' } }),
      })
      expect(raw.status).toBe(400)
      expect(raw.headers['content-type']).toContain('application/json')
    } finally {
      await server.close()
    }
  })
})
