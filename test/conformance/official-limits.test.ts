import { describe, expect, it } from 'vitest'
import type { OperationDef } from '../../src/core/operation.js'
import { operations } from '../../src/domains/index.js'
import { fieldPath } from '../../src/http/codec.js'
import { canonicalOf } from '../fuzz/canonical.js'
import { queryPairs } from '../fuzz/generators.js'
import { CERTIFICATE } from '../fixtures/pem.js'
import { BASE, createWorld } from '../helpers.js'
import { officialOperation, officialQueryParameters, officialValidator, resolveOfficial } from './official.js'
import { bodyFor, constraintsOf, jsonPath, violationOf, type Constraint } from './official-constraints.js'

/**
 * The official document's limits on request bodies hold here: for every operation of the table
 * that the official document has, its official request schema is walked, and for every
 * constrained field the API accepts (maxLength, minLength, maximum, minimum, pattern, enum, const,
 * maxItems, minItems), a body that breaks just that constraint (built from one that satisfies the
 * whole schema) must be a 400 naming the field. A field the API drops (an unknown key to it) is
 * listed in IGNORED; where the reference or this API's documented choice differs, EXCEPTIONS says why.
 */

/** Components validated on their own, node by node against the official schema (src/domains/content/document-schema). */
const SKIP = new Set(['Document', 'JSONDocument'])

/**
 * Constraints the API does not hold as the official document says, each with the reason (the
 * reference wins, or a documented choice). A key is `operation label keyword`, or `operation
 * label` for everything at and below a field.
 */
const EXCEPTIONS: Record<string, string> = {
  'renderIntegrationUIWithPost action<anyOf1>':
    "the official ContentKitAction is anyOf a custom action (any object with a string `action`) or a default one: every default action's enum is met by the custom branch, and the action goes to the integration's component, which answers for it (docs/behaviour/integrations.md)",
  'inviteUsersToOrganization emails[]<oneOf1>.role':
    'an entry is an address or `{ email, role }`: one that is neither is named as the entry (`emails[i]`), with the rules of both forms, the roles listed',
  'createOrganizationInvite <oneOf1>':
    'a documented choice: invite links are links to the organization; links to a space or a collection are not supported (docs/behaviour/organizations-and-members.md)',
  'createOrganizationInvite <oneOf2>':
    'a documented choice: invite links are links to the organization; links to a space or a collection are not supported (docs/behaviour/organizations-and-members.md)',
  'updateOrganizationInviteById <oneOf1>':
    'a documented choice: invite links are links to the organization; links to a space or a collection are not supported (docs/behaviour/organizations-and-members.md)',
  'moveSpace position.before<oneOf1>':
    'the reference: a space is placed next to a space (`{type: space, space}`); spaces and collections are ordered among their own kind',
  'moveSpace position.after<oneOf1>':
    'the reference: a space is placed next to a space (`{type: space, space}`); spaces and collections are ordered among their own kind',
  'moveCollection position.before<oneOf0>': 'the reference: a collection moves "as for space move", next to its own kind (`{type: collection, collection}`)',
  'moveCollection position.after<oneOf0>': 'the reference: a collection moves "as for space move", next to its own kind (`{type: collection, collection}`)',
  ...Object.fromEntries(
    ['jsonSchema.properties', 'jsonSchema.properties.unsigned.properties'].flatMap((at) =>
      ['<oneOf0><oneOf0><oneOf1>', '<oneOf0><oneOf1>', '<oneOf0><oneOf2>', '<oneOf1>', '<oneOf2>'].map((option) => [
        `updateSiteAdaptiveSchema ${at}{*}${option}`,
        'the reference: the adaptive schema holds boolean claims (and an `unsigned` object of boolean claims); string, number, array and object claims are refused (docs/behaviour/share-links-and-adaptive-content.md)',
      ]),
    ),
  ),
  'updateSiteAdaptiveSchema jsonSchema.properties.unsigned.description enum':
    'stored normalised rather than refused: `unsigned.description` is always the official text, so answers hold the official value (docs/behaviour/share-links-and-adaptive-content.md)',
  'updateChangeRequestById links':
    "the reference's body is `subject`, `description`, `status`: `links` is refused whole as an unknown key (400 naming it; docs/behaviour/everywhere.md)",
  ...Object.fromEntries(
    ['getComputedDocument', 'getComputedRevision'].flatMap((id) =>
      ['source<oneOf0><allOf0>.dependencies', 'source<oneOf0><allOf1>.props', 'source<oneOf1>.dependencies', 'source<oneOf2>.dependencies'].map((at) => [
        `${id} ${at}`,
        "computed content: this API computes none, so a source's props and the values of its dependencies feed nothing; it checks the source's type and that what it names is there (404/400), and answers empty content (docs/behaviour/content-and-change-requests.md)",
      ]),
    ),
  ),
  'streamAskInSite scope<oneOf0>.restrictTo':
    'no string meets this option of the official schema (minLength 2, maxLength 1); `restrictTo` is `currentSiteSpace` or `otherSiteSpaces` (the next option), held here',
  'searchSiteContent <allOf1><oneOf0>.scope<oneOf0>.restrictTo':
    'no string meets this option of the official schema (minLength 2, maxLength 1); `restrictTo` is `currentSiteSpace` or `otherSiteSpaces` (the next option), held here',
}

/**
 * Official fields the API does not take: dropped (an unknown key to it, or kept aside unread), so
 * no limit of theirs matters. A key is `operation label`, covering everything below the field.
 * Each must be met (a stale entry fails), and a field the walk finds dropped must be here.
 */
const IGNORED: Record<string, string> = {
  'createSpace <allOf1><anyOf1><oneOf0>.template': 'space templates are not implemented: a new space starts empty (docs/behaviour/everywhere.md)',
  'createSpace <allOf1><anyOf1><oneOf1>.computedSource': 'computed content is not implemented: a new space starts empty (docs/behaviour/everywhere.md)',
  'addSectionToSite template': 'space templates are not implemented (docs/behaviour/everywhere.md)',
  'addSpaceToSite template': 'space templates are not implemented (docs/behaviour/everywhere.md)',
  'createChangeRequest template':
    'templates are not implemented; the reference gives the body further free properties, kept aside unread (docs/behaviour/everywhere.md)',
  'updateSiteById defaultLevel': "a site's `defaultLevel` is always `inherit` (docs/behaviour/sites.md)",
  'updateSiteSectionById localizedTitle': 'localized titles are not implemented (docs/behaviour/everywhere.md)',
  'updateSiteSectionById localizedDescription': 'localized descriptions are not implemented (docs/behaviour/everywhere.md)',
  'updateSiteSectionGroupById localizedTitle': 'localized titles are not implemented (docs/behaviour/everywhere.md)',
  'streamAIResponseInSite input[].attachments': "attachments are taken unread: the site's content alone answers (docs/behaviour/ask.md)",
  'streamAIResponseInSite tools': 'client tools are taken unread: the assistant calls none (docs/behaviour/ask.md)',
  'streamAIResponseInSite toolCall': "a client tool's result is taken unread: the assistant calls no client tool (docs/behaviour/ask.md)",
}

/** Values an operation's bodies need beyond the official schema's (this API's own rules), by top-level field. */
const FILL: Record<string, { values: Record<string, unknown>; why: string }> = {
  importGitRepository: {
    values: { url: 'https://example.com/repo.git', ref: 'refs/heads/main' },
    why: '`url` is a URL, `ref` a branch ref (docs/behaviour/git-sync.md)',
  },
  exportToGitRepository: {
    values: { url: 'https://example.com/repo.git', ref: 'refs/heads/main' },
    why: '`url` is a URL, `ref` a branch ref (docs/behaviour/git-sync.md)',
  },
}

/** A valid value for one constrained field where the official schema's own is not enough (`operation label`). */
const LEAF_VALUES: Record<string, unknown> = {
  // A certificate must be one PEM certificate (docs/behaviour/sso.md).
  'createOrganizationSAMLProvider certificate': CERTIFICATE,
  'updateOrganizationSAMLProvider certificate': CERTIFICATE,
}

/** The entry of `table` covering a constraint (its full key, or a field at or above it), if any. */
function entryFor(table: Record<string, string>, id: string, c: Constraint): string | undefined {
  const field = `${id} ${c.label}`
  return Object.keys(table).find((k) => k === `${field} ${c.keyword}` || k === field || (field.startsWith(k) && /^[.[<{]/.test(field.slice(k.length))))
}

const valueAt = (value: unknown, path: ReadonlyArray<string | number>): unknown =>
  path.reduce<unknown>((at, key) => (at !== null && typeof at === 'object' ? (at as Record<string | number, unknown>)[key] : undefined), value)

/** An enum of one value directly in a union's option: the option's discriminator. */
const discriminates = (c: Constraint) => {
  const last = c.route.at(-1)
  const before = c.route.at(-2)
  return (
    (c.keyword === 'enum' || c.keyword === 'const') &&
    last !== undefined &&
    'prop' in last &&
    before !== undefined &&
    'part' in before &&
    before.part !== 'allOf'
  )
}

const implemented = operations.filter((op) => op.body && officialOperation(op.id)?.operation.requestBody)

function pathOf(op: OperationDef): string {
  const params = (op.params ? canonicalOf(op.params, () => undefined) : {}) as Record<string, string>
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? 'x'))
  const query = op.query ? new URLSearchParams(queryPairs(canonicalOf(op.query, () => undefined))).toString() : ''
  return `${BASE}${path}${query ? `?${query}` : ''}`
}

describe('official limits on request bodies', () => {
  it.each(implemented.map((op) => [op.id, op] as const))('%s', async (id, op) => {
    const w = await createWorld()
    const root = resolveOfficial(officialOperation(id)!.operation.requestBody).content['application/json'].schema
    const problems: string[] = []
    const met = new Set<string>()
    /** The body with the operation's FILL values, but for the field under test. */
    const fill = (body: unknown, c: Constraint) => {
      const tested = jsonPath(c.route)[0]
      return { ...(body as object), ...Object.fromEntries(Object.entries(FILL[id]?.values ?? {}).filter(([key]) => key !== tested)) }
    }
    for (const c of constraintsOf(root, SKIP)) {
      const key = `${id} ${c.label} ${c.keyword}`
      if (entryFor(EXCEPTIONS, id, c)) {
        met.add(entryFor(EXCEPTIONS, id, c)!)
        continue
      }
      if (entryFor(IGNORED, id, c)) {
        met.add(entryFor(IGNORED, id, c)!)
        continue
      }
      const validLeaf = `${id} ${c.label}` in LEAF_VALUES ? LEAF_VALUES[`${id} ${c.label}`] : bodyFor(c.node)
      if (!officialValidator(c.node)(validLeaf)) {
        problems.push(`${key}: no value found that the official schema takes (${JSON.stringify(validLeaf)})`)
        continue
      }
      const violation = violationOf(c.node, c.keyword, validLeaf)
      if (violation === undefined) continue // nothing breaks it alone (minLength 0, a pattern every string fits)
      const path = jsonPath(c.route)
      const valid = fill(bodyFor(root, c.route, { value: validLeaf }), c)
      if (!officialValidator(root)(valid)) {
        problems.push(`${key}: the body built is not valid for the official schema: ${JSON.stringify(valid).slice(0, 300)}`)
        continue
      }
      const parsed = op.body!.safeParse(valid)
      if (!parsed.success) {
        problems.push(
          `${key}: a body valid for the official schema is refused: ${JSON.stringify(valid).slice(0, 300)}: ${parsed.error.issues.map((i) => `${fieldPath(i.path)}: ${i.message}`).join('; ')}`,
        )
        continue
      }
      if (valueAt(parsed.data, path) === undefined) {
        problems.push(`${id} ${c.label}: dropped by the API: list it in IGNORED with the reason`)
        continue
      }
      const body = fill(bodyFor(root, c.route, { value: violation }), c)
      const res = await w.api.fetch(
        new Request(pathOf(op), {
          method: op.method,
          headers: { authorization: `Bearer ${w.tokens.ada}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
      )
      const message = res.status === 400 ? ((await res.json()) as { error: { message: string } }).error.message : `${res.status}`
      const names = [fieldPath(path), ...(discriminates(c) ? [fieldPath(path.slice(0, -1))] : [])].map((p) => (p ? `body field \`${p}\`` : 'body'))
      if (!names.some((n) => message.includes(n))) problems.push(`${key}: ${JSON.stringify(violation).slice(0, 80)} answered ${message.slice(0, 300)}`)
    }
    expect(problems).toEqual([])
    const entries = [...Object.keys(EXCEPTIONS), ...Object.keys(IGNORED)].filter((k) => k.startsWith(`${id} `))
    expect(
      entries.filter((k) => !met.has(k)),
      'entries that no constraint meets any more',
    ).toEqual([])
  })
})

/**
 * The same for query parameters: every constrained official query parameter the operation
 * declares (its value, or each value of a list) is refused past its limit with a 400 naming it.
 */
describe('official limits on query parameters', () => {
  const withQuery = operations.filter((op) => op.query && officialQueryParameters(op.id).length > 0)
  it.each(withQuery.map((op) => [op.id, op] as const))('%s', async (id, op) => {
    const w = await createWorld()
    const declared = new Set(Object.keys(op.query!.shape))
    const problems: string[] = []
    for (const param of officialQueryParameters(id).filter((p) => declared.has(p.name))) {
      for (const c of constraintsOf(param.schema, SKIP)) {
        if (c.route.some((step) => !('item' in step) && !('part' in step))) continue // no objects in a query string
        const violation = violationOf(c.node, c.keyword, bodyFor(c.node))
        if (violation === undefined) continue
        const url = new URL(pathOf(op))
        url.searchParams.set(param.name, String(violation))
        // The query is validated before the body is read: any body does.
        const init: RequestInit = { method: op.method, headers: { authorization: `Bearer ${w.tokens.ada}`, 'content-type': 'application/json' } }
        if (op.body) init.body = '{}'
        const res = await w.api.fetch(new Request(url, init))
        const message = res.status === 400 ? ((await res.json()) as { error: { message: string } }).error.message : `${res.status}`
        const names = c.route.some((step) => 'item' in step) ? [`\`${param.name}[0]\``] : [`\`${param.name}\``]
        if (!names.some((n) => message.includes(`query parameter ${n}`)))
          problems.push(`${param.name} ${c.label} ${c.keyword}: ${JSON.stringify(violation).slice(0, 80)} answered ${message.slice(0, 300)}`)
      }
    }
    expect(problems).toEqual([])
  })
})
