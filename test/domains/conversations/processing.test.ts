import { describe, expect, it, vi } from 'vitest'
import { ingestConversation } from '../../../src/domains/conversations/model.js'
import { call, createWorld } from '../../helpers.js'

/**
 * Conversation processing as a job, step by step: the language tools' loading is held (or made
 * to fail) here, so each state can be seen: pending → processing → processed, or failed.
 */
const control = vi.hoisted(() => ({ gate: undefined as Promise<void> | undefined, fail: undefined as string | undefined }))
vi.mock('../../../src/domains/conversations/text-tools.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../src/domains/conversations/text-tools.js')>()
  return {
    ...real,
    loadTextTools: async () => {
      await control.gate
      if (control.fail) throw new Error(control.fail)
      return real.loadTextTools()
    },
  }
})

const parts = (body: string) => [{ type: 'message' as const, role: 'user' as const, body }]

function hold() {
  let release!: () => void
  control.gate = new Promise<void>((r) => (release = r))
  return () => {
    control.gate = undefined
    release()
  }
}

describe('conversations: processing, a background job', () => {
  it('pending (answered) → processing → processed', async () => {
    const w = await createWorld()
    const release = hold()
    const row = w.api.system((ctx) => ingestConversation(ctx, w.org.id, { id: 'c', parts: parts('The PDF export fails.') }))
    // The job starts once the transaction committed, after the caller went on.
    expect(row.status).toBe('pending')
    expect(w.api.store.read((tx) => tx.get('conversations', row.id))!.status).toBe('pending')
    // The job starts a moment later (on a shared store, once the seed's commits are in and it took the lock).
    let processing = (await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}/conversations/c`)).body.conversation
    for (let i = 0; i < 200 && processing.status === 'pending'; i++) {
      await new Promise((r) => setTimeout(r, 5))
      processing = (await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}/conversations/c`)).body.conversation
    }
    expect(processing.status).toBe('processing')
    expect(processing.processedAt).toBeUndefined()
    w.clock.advance(2000)
    release()
    await w.api.idle()
    const done = (await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}/conversations/c`)).body.conversation
    expect(done).toMatchObject({ status: 'processed', processedAt: '2026-03-01T10:00:02.000Z', createdAt: '2026-03-01T10:00:00.000Z', impact: 'medium' })
  })

  it('a failure is recorded on the conversation (failed, with the reason), never lost; ingesting it again processes it', async () => {
    const w = await createWorld()
    control.fail = 'the language model could not be loaded'
    await call(w.api, w.tokens.ada, 'POST', `/v1/orgs/${w.org.id}/conversations`, { id: 'c', parts: parts('The PDF export fails.') })
    await w.api.idle()
    const failed = (await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}/conversations/c`)).body.conversation
    expect(failed).toMatchObject({ status: 'failed', error: 'the language model could not be loaded' })
    expect(failed.processedAt).toBeUndefined()
    expect((await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}/conversations-issues`)).body.count).toBe(0)
    control.fail = undefined
    await call(w.api, w.tokens.ada, 'POST', `/v1/orgs/${w.org.id}/conversations`, { id: 'c', parts: parts('The PDF export fails.') })
    await w.api.idle()
    const fixed = (await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}/conversations/c`)).body.conversation
    expect(fixed.status).toBe('processed')
    expect(fixed.error).toBeUndefined()
  })

  it('a re-ingest during processing supersedes it: only the latest parts become issues', async () => {
    const w = await createWorld()
    const release = hold()
    await call(w.api, w.tokens.ada, 'POST', `/v1/orgs/${w.org.id}/conversations`, { id: 'c', parts: parts('The PDF export fails.') })
    await call(w.api, w.tokens.ada, 'POST', `/v1/orgs/${w.org.id}/conversations`, { id: 'c', parts: parts('Search returns no results for my pages.') })
    release()
    await w.api.idle()
    const issues = (await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}/conversations-issues`)).body
    expect(issues.items.map((i: { issue: { title: string } }) => i.issue.title)).toEqual(['Search returns no results for my pages'])
    expect((await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}/conversations-clusters`)).body.count).toBe(1)
  })
})
