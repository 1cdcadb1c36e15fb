import { expect } from 'vitest'
import { expectOfficialResponse, expectOfficialSchema } from './official.js'

/**
 * Check a `RevisionSemanticChanges` answer against the official schemas. One part of them no
 * answer can match as written: `RevisionSemanticChangePageEdited.attributes` is a `oneOf` of the
 * document, group and link attributes, three objects with `minProperties: 1` whose properties a
 * document's attributes all share, without `additionalProperties: false`, so any attributes match
 * at least two of them (GitBook's own answers included). So an edited page is checked part by
 * part: its page (`ChangedRevisionPage`) and its attributes against the one schema of its page's
 * type; the rest of the answer against the operation's response schema, as it is.
 * docs/behaviour/content-and-change-requests.md, "Semantic changes".
 */
export function expectOfficialChanges(operationId: string, body: { changes: Array<Record<string, any>> }): void {
  const edited = body.changes.filter((c) => c.type === 'page_edited')
  expectOfficialResponse(operationId, 200, { ...body, changes: body.changes.filter((c) => c.type !== 'page_edited') })
  for (const change of edited) {
    expect(Object.keys(change).sort()).toEqual(['attributes', 'page', 'type'])
    expectOfficialSchema('ChangedRevisionPage', change.page)
    const kind = { document: 'Document', group: 'Group', link: 'Link' }[change.page.type as string]
    expect(kind, `page_edited of a ${change.page.type} page`).toBeDefined()
    expectOfficialSchema(`RevisionPage${kind}ChangeAttributes`, change.attributes)
  }
}
