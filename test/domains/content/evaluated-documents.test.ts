import { describe, expect, it } from 'vitest'
import { createDocsApi } from '../../../src/index.js'
import { sequentialIds } from '../../../src/testing.js'
import type { ReadContext } from '../../../src/domains/context.js'
import type { JsonDocument } from '../../../src/domains/content/document.js'
import type { RevisionRow } from '../../../src/domains/content/rows.js'
import { evaluateDocument, expressionInputs } from '../../../src/domains/content/evaluate.js'
import { expectOfficialResponse } from '../../conformance/official.js'
import { BASE, call, createWorld } from '../../helpers.js'
import { paragraph, text } from './document-examples.js'

/**
 * `getPageDocumentInRevisionById?evaluated=...` (docs/behaviour/content-and-change-requests.md):
 * `if` blocks resolved and inline expressions replaced by their value, over the visitor's claims
 * and the revision's variables; `deterministic-only` leaves what reads anything else.
 */
const expression = (source: string) => ({ object: 'inline', type: 'expression', isVoid: true, data: { expression: source } })
const ifBlock = (source: string, ...nodes: object[]) => ({ object: 'block', type: 'if', data: { expression: source }, nodes })

const DOCUMENT = {
  object: 'document',
  data: {},
  nodes: [
    paragraph(text('Version '), expression('space.vars.version'), text(' for '), expression('visitor.claims.plan ?? "everyone"'), text('.')),
    ifBlock('space.vars.version == "2.1"', paragraph(text('New in 2.1')), ifBlock('visitor.claims.isBetaUser', paragraph(text('Beta, nested')))),
    ifBlock('visitor.claims.isBetaUser', paragraph(text('Beta only'))),
    ifBlock('Date.now() > 0', paragraph(text('Depends on the clock'))),
    ifBlock('this is not JavaScript', paragraph(text('Broken condition'))),
  ],
}

/** The texts of a document's blocks, `if` blocks marked, in order. */
function outline(nodes: any[]): string[] {
  return nodes.flatMap((n: any) =>
    n.type === 'if'
      ? [`if(${n.data.expression})`, ...outline(n.nodes).map((t) => `  ${t}`)]
      : [n.nodes.map((c: any) => (c.object === 'text' ? c.leaves.map((l: any) => l.text).join('') : `{${c.data.expression}}`)).join('')],
  )
}

async function setup() {
  const w = await createWorld()
  const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Handbook' })
  const cr = (await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Edit' })).body
  const inserted = await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, {
    changes: [{ operation: 'insert_page', title: 'Release', document: { document: DOCUMENT } }],
  })
  expect(inserted.status, JSON.stringify(inserted.body)).toBe(200)
  const page = inserted.body.changes[0].page.id as string
  expect((await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`)).status).toBe(200)
  // Variables come with a state document (no operation sets them).
  const doc = w.api.dump()
  const revision = w.api.store.read((tx) => tx.get('spaces', space.id)!.revision)
  doc.revisions = doc.revisions!.map((r) => (r.id === revision ? { ...r, variables: { version: '2.1' } } : r))
  const api = createDocsApi({ baseUrl: BASE, now: w.clock.now, ids: sequentialIds('t'), seed: doc })
  const read = (query = '') => call(api, w.tokens.ada, 'GET', `/v1/spaces/${space.id}/revisions/${revision}/page/${page}/document${query}`)
  return { ...w, api, space, revision, page, read }
}

describe('evaluated page documents', () => {
  it('without `evaluated` (or false), the document is answered as stored; `dereferenced` changes nothing', async () => {
    const w = await setup()
    const stored = await w.read()
    expect(stored.status).toBe(200)
    expectOfficialResponse('getPageDocumentInRevisionById', 200, stored.body)
    expect(outline(stored.body.nodes)).toEqual([
      'Version {space.vars.version} for {visitor.claims.plan ?? "everyone"}.',
      'if(space.vars.version == "2.1")',
      '  New in 2.1',
      '  if(visitor.claims.isBetaUser)',
      '    Beta, nested',
      'if(visitor.claims.isBetaUser)',
      '  Beta only',
      'if(Date.now() > 0)',
      '  Depends on the clock',
      'if(this is not JavaScript)',
      '  Broken condition',
    ])
    expect((await w.read('?evaluated=false&dereferenced=reusable-contents')).body).toEqual(stored.body)
    expect((await w.read('?dereferenced=true')).body).toEqual(stored.body)
  })

  it('`deterministic-only`: conditions and inline expressions over the claims and variables are resolved, the others left', async () => {
    const w = await setup()
    const res = await w.read('?evaluated=deterministic-only&dereferenced=reusable-contents')
    expect(res.status).toBe(200)
    expectOfficialResponse('getPageDocumentInRevisionById', 200, res.body)
    // A member's token carries no visitor claims: `visitor.claims.isBetaUser` does not hold.
    expect(outline(res.body.nodes)).toEqual([
      'Version 2.1 for everyone.',
      'New in 2.1',
      'if(Date.now() > 0)',
      '  Depends on the clock',
      'if(this is not JavaScript)',
      '  Broken condition',
    ])
  })

  it('`true`: every expression is evaluated; what this API cannot evaluate does not hold', async () => {
    const w = await setup()
    const res = await w.read('?evaluated=true')
    expectOfficialResponse('getPageDocumentInRevisionById', 200, res.body)
    expect(outline(res.body.nodes)).toEqual(['Version 2.1 for everyone.', 'New in 2.1'])
    // The stored document is untouched.
    expect(outline((await w.read()).body.nodes)).toHaveLength(11)
  })

  it('page reads take `evaluated` too: the page as a document or as markdown, with its body resolved', async () => {
    const w = await setup()
    const base = `/v1/spaces/${w.space.id}`
    const evaluated = await call(w.api, w.tokens.ada, 'GET', `${base}/revisions/${w.revision}/page/${w.page}?evaluated=deterministic-only`)
    expectOfficialResponse('getPageInRevisionById', 200, evaluated.body)
    expect(evaluated.body.document).toEqual((await w.read('?evaluated=deterministic-only')).body)
    const byPath = await call(w.api, w.tokens.ada, 'GET', `${base}/content/path/release?evaluated=true`)
    expect(outline(byPath.body.document.nodes)).toEqual(['Version 2.1 for everyone.', 'New in 2.1'])
    const markdown = await call(w.api, w.tokens.ada, 'GET', `${base}/content/page/${w.page}?format=markdown&evaluated=true`)
    expect(markdown.body.markdown).toBe('Version 2.1 for everyone.\n\nNew in 2.1\n')
    const stored = await call(w.api, w.tokens.ada, 'GET', `${base}/content/page/${w.page}`)
    expect(outline(stored.body.document.nodes)).toHaveLength(11)
  })

  it("a site token's visitor claims feed the expressions (the grant's claims, `unsigned` always there)", () => {
    const ctx = (claims?: Record<string, unknown>) =>
      ({
        actor: claims
          ? {
              user: '',
              content: { kind: 'site', organization: 'o', site: 's', siteSpace: 'ss', space: 'sp', spaces: ['sp'], claims, visitorType: 'human' },
            }
          : { user: 'u' },
      }) as unknown as ReadContext
    const rev = { variables: { version: '2.1' } } as unknown as RevisionRow
    const document = DOCUMENT as unknown as JsonDocument
    const beta = evaluateDocument(document, 'deterministic', expressionInputs(ctx({ isBetaUser: true, plan: 'pro' }), rev))
    expect(outline(beta.nodes)).toEqual([
      'Version 2.1 for pro.',
      'New in 2.1',
      'Beta, nested',
      'Beta only',
      'if(Date.now() > 0)',
      '  Depends on the clock',
      'if(this is not JavaScript)',
      '  Broken condition',
    ])
    expect(expressionInputs(ctx({ a: 1 }), rev)).toEqual({
      visitor: { claims: { unsigned: {}, a: 1 } },
      space: { vars: { version: '2.1' } },
      page: { vars: {} },
    })
    expect(expressionInputs(ctx(), rev).visitor).toEqual({ claims: { unsigned: {} } })
  })

  it('expressions in fragments (an expandable body) are resolved too; blocks around them stay the same objects', () => {
    const untouched = paragraph(text('Untouched'))
    const expandable = {
      object: 'block',
      type: 'expandable',
      isVoid: true,
      data: {},
      fragments: [
        { object: 'fragment', fragment: 'expandable-title', type: 'expandable-title', nodes: [paragraph(text('Which version?'))] },
        { object: 'fragment', fragment: 'expandable-body', type: 'expandable-body', nodes: [paragraph(text('Version '), expression('space.vars.version'))] },
      ],
    }
    const document = { object: 'document', data: {}, nodes: [untouched, expandable] } as unknown as JsonDocument
    const out = evaluateDocument(document, 'deterministic', { visitor: { claims: {} }, space: { vars: { version: '3.0' } }, page: { vars: {} } }) as any
    expect(out.nodes[0]).toBe(untouched)
    expect(out.nodes[1].fragments[0]).toBe(expandable.fragments[0])
    expect(out.nodes[1].fragments[1].nodes[0].nodes.map((n: any) => n.leaves[0].text)).toEqual(['Version ', '3.0'])
    expect((document.nodes[1] as any).fragments[1].nodes[0].nodes[1].type).toBe('expression')
  })

  it('a document without expressions comes back as the same object (nothing copied)', () => {
    const plain = { object: 'document', data: {}, nodes: [paragraph(text('a')), paragraph(text('b'))] } as unknown as JsonDocument
    expect(evaluateDocument(plain, 'all', { visitor: { claims: {} } })).toBe(plain)
  })
})
