import { describe, expect, it } from 'vitest'
import { call, createWorld, expectError } from '../../helpers.js'
import { expectOfficialResponse } from '../../conformance/official.js'

const doc = (text: string) => ({
  object: 'document',
  data: {},
  nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] }],
})

describe('agent instructions', () => {
  it('404 until set; admins set them (updatedAt from the clock, updatedBy the caller); members read them', async () => {
    const w = await createWorld()
    const path = `/v1/orgs/${w.org.id}/agent-instructions`
    expectError(await call(w.api, w.tokens.ada, 'GET', path), 404, 'no agent instructions yet')
    w.clock.advance(60_000)
    const put = await call(w.api, w.tokens.ada, 'PUT', path, { instructions: doc('Answer in English.') })
    expect(put.status).toBe(200)
    expect(put.body).toEqual({
      object: 'agent-instructions',
      instructions: doc('Answer in English.'),
      updatedAt: '2026-03-01T10:01:00.000Z',
      updatedBy: w.users.ada.id,
      urls: { location: `http://localhost:4000/v1/orgs/${w.org.id}/agent-instructions` },
    })
    expectOfficialResponse('updateOrganizationAgentInstructions', 200, put.body)
    const got = await call(w.api, w.tokens.rita, 'GET', path)
    expect(got.body).toEqual(put.body)
    expectOfficialResponse('getOrganizationAgentInstructions', 200, got.body)
    // Replacing them moves updatedAt.
    w.clock.advance(1000)
    const again = await call(w.api, w.tokens.ada, 'PUT', path, { instructions: doc('Be brief.') })
    expect(again.body.updatedAt).toBe('2026-03-01T10:01:01.000Z')
    // The organization itself does not show them.
    expect((await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}`)).body.agentInstructions).toBeUndefined()
  })

  it('refuses bad input (naming the field), non-admins (403), guests and outsiders (404), no token (401); a failed request writes nothing', async () => {
    const w = await createWorld()
    const path = `/v1/orgs/${w.org.id}/agent-instructions`
    await call(w.api, w.tokens.ada, 'PUT', path, { instructions: doc('Keep') })
    const before = w.api.dump()
    expectError(await call(w.api, w.tokens.ada, 'PUT', path, {}), 400, 'instructions')
    expectError(await call(w.api, w.tokens.ada, 'PUT', path, { instructions: { object: 'document', nodes: 'x' } }), 400, 'instructions.nodes')
    expectError(await call(w.api, w.tokens.rita, 'PUT', path, { instructions: doc('Mine') }), 403, 'admin')
    expectError(await call(w.api, w.tokens.gina, 'GET', path), 403, '')
    expectError(await call(w.api, w.tokens.olga, 'GET', path), 404, 'not found')
    expectError(await call(w.api, w.tokens.olga, 'PUT', path, { instructions: doc('Mine') }), 404, 'not found')
    expect((await call(w.api, undefined, 'GET', path)).status).toBe(401)
    expectError(await call(w.api, w.tokens.ada, 'GET', '/v1/orgs/nope/agent-instructions'), 404, 'not found')
    expect(w.api.dump()).toEqual(before)
    // Unknown keys are ignored, as in most bodies.
    const extra = await call(w.api, w.tokens.ada, 'PUT', path, { instructions: doc('x'), extra: 1 })
    expect(extra.status).toBe(200)
    expect(extra.body.instructions).toEqual(doc('x'))
  })

  it('through @gitbook/api', async () => {
    const w = await createWorld()
    const gb = w.client(w.tokens.ada)
    const put = await gb.orgs.updateOrganizationAgentInstructions(w.org.id, { instructions: doc('Cite pages.') as never })
    expect(put.data.updatedBy).toBe(w.users.ada.id)
    expectOfficialResponse('updateOrganizationAgentInstructions', 200, put.data)
    const got = await gb.orgs.getOrganizationAgentInstructions(w.org.id)
    expect(got.data.instructions).toEqual(doc('Cite pages.'))
    expectOfficialResponse('getOrganizationAgentInstructions', 200, got.data)
  })

  it('round-trips through a state document, and a seed naming an unknown updater is refused', async () => {
    const w = await createWorld()
    await call(w.api, w.tokens.ada, 'PUT', `/v1/orgs/${w.org.id}/agent-instructions`, { instructions: doc('Stay') })
    const dumped = w.api.dump()
    expect(dumped.organizations!.find((o) => o.id === w.org.id)!.agentInstructions).toMatchObject({ updatedBy: w.users.ada.id })
    await expect(
      w.api.fixtures.load({ organizations: [{ id: 'o2', title: 'Two', agentInstructions: { instructions: doc('x'), updatedBy: 'ghost' } }] }),
    ).rejects.toThrow('`organizations[0].agentInstructions.updatedBy`: no user "ghost"')
  })
})
