import { readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { createDocsApi, POLICY, type OperationDef } from '../src/index.js'

/**
 * `npm run docs:operations`: prints the markdown table of implemented operations, generated from
 * the operation table, and rewrites the block between the markers in docs/reference/operations.md;
 * rewrites the coverage table (operations implemented out of the official document's, by area)
 * between its markers in README.md. `--check` writes nothing and exits 1 when either file is stale
 * (test/openapi.test.ts checks too).
 */

/** The file holding the generated table, from the project's root. */
export const TABLE_FILE = 'docs/reference/operations.md'
export const START = '<!-- operations:start -->'
export const END = '<!-- operations:end -->'

function permissionCell(op: OperationDef): string {
  if (op.auth === false) return 'anonymous'
  if (!op.permission) return 'any authenticated user'
  const { resource, action } = op.permission
  const level = (POLICY[op.permission.resource] as Record<string, string>)[action]
  const missing = op.permission.missingIsSuccess ? '; 204 when missing or hidden' : ''
  return `${resource}.${action} (${level})${missing}`
}

/** The markdown table (and a count line) of `operations`, in table order. */
export function renderOperationsTable(operations: readonly OperationDef[]): string {
  const beyond = operations.filter((op) => op.beyondOfficial).length
  const rows = operations.map((op) => `| ${op.method} | \`${op.path}\` | \`${op.id}\` | ${op.beyondOfficial ? 'beyond' : 'official'} | ${permissionCell(op)} |`)
  return [
    `${operations.length} operations: ${operations.length - beyond} from the official document, ${beyond} beyond it.`,
    `Permission is \`resource.action (minimum level)\` from the policy table (\`POLICY\` in src/core/policy.ts).`,
    '',
    '| Method | Path | operationId | Official | Permission |',
    '|---|---|---|---|---|',
    ...rows,
  ].join('\n')
}

/** `text` (the content of `file`) with the block between the markers `start` and `end` replaced by `block`. */
export function replaceBlock(text: string, block: string, markers: { start: string; end: string; file: string }): string {
  const start = text.indexOf(markers.start)
  const end = text.indexOf(markers.end)
  if (start === -1 || end === -1 || end < start) throw new Error(`${markers.file} needs the markers ${markers.start} and ${markers.end}`)
  return `${text.slice(0, start + markers.start.length)}\n${block}\n${text.slice(end)}`
}

/** `readme` with the block between the markers replaced by `table`. */
export function replaceOperationsBlock(readme: string, table: string): string {
  return replaceBlock(readme, table, { start: START, end: END, file: TABLE_FILE })
}

// --- The coverage table of README.md: how much of the official document is implemented, by area.

export const COVERAGE_FILE = 'README.md'
export const COVERAGE_START = '<!-- coverage:start -->'
export const COVERAGE_END = '<!-- coverage:end -->'

const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const

/** What the coverage table reads of the official OpenAPI document. */
export interface OfficialDocument {
  tags?: Array<{ name: string; 'x-page-title'?: string; 'x-parent'?: string }>
  paths: Record<string, Partial<Record<(typeof METHODS)[number], { operationId?: string; tags?: string[] }>>>
}

/** The official document of the installed `@gitbook/api` (spec/openapi.json). */
export function officialDocument(): OfficialDocument {
  const require = createRequire(import.meta.url)
  return JSON.parse(readFileSync(require.resolve('@gitbook/api/spec/openapi.json'), 'utf8')) as OfficialDocument
}

/** An area of the official document: a top-level tag and the operationIds under it and its sub-tags. */
export interface OfficialArea {
  title: string
  ids: string[]
}

/**
 * The official document's operations grouped by area: the top-level tag of each operation's first
 * tag (tags name their parent in `x-parent`: `space-content` is under `spaces`). An operation whose
 * tag the document does not declare (or that has none) goes with the nearest operation above its
 * path that has a declared tag (`.../comments/{commentId}/replies` with the space's comments); one
 * with none above it makes an area of its own tag. Areas come in the document's order of tags.
 */
export function officialAreas(doc: OfficialDocument): OfficialArea[] {
  const declared = new Map((doc.tags ?? []).map((t) => [t.name, t]))
  const topOf = (name: string): string => {
    const seen = new Set<string>()
    let tag = declared.get(name)!
    while (tag['x-parent'] && declared.has(tag['x-parent']) && !seen.has(tag.name)) {
      seen.add(tag.name)
      tag = declared.get(tag['x-parent'])!
    }
    return tag.name
  }
  // The area of each path's operations that have a declared tag, to place the others by their path.
  const areaOfPath = new Map<string, string>()
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const tag = item[method]?.tags?.[0]
      if (tag !== undefined && declared.has(tag) && !areaOfPath.has(path)) areaOfPath.set(path, topOf(tag))
    }
  }
  const above = (path: string): string | undefined => {
    for (let at = path.slice(0, path.lastIndexOf('/')); at !== ''; at = at.slice(0, at.lastIndexOf('/'))) {
      const area = areaOfPath.get(at)
      if (area) return area
    }
    return undefined
  }
  const areas = new Map<string, string[]>()
  for (const tag of doc.tags ?? []) if (topOf(tag.name) === tag.name) areas.set(tag.name, [])
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method]
      if (!op?.operationId) continue
      const tag = op.tags?.[0]
      const area = tag !== undefined && declared.has(tag) ? topOf(tag) : (above(path) ?? tag ?? 'untagged')
      if (!areas.has(area)) areas.set(area, [])
      areas.get(area)!.push(op.operationId)
    }
  }
  return [...areas].filter(([, ids]) => ids.length > 0).map(([name, ids]) => ({ title: declared.get(name)?.['x-page-title'] ?? `\`${name}\``, ids }))
}

/** The markdown coverage table: per area of the official document, how many of its operations are implemented. */
export function renderCoverageTable(operations: readonly OperationDef[], doc: OfficialDocument): string {
  const areas = officialAreas(doc)
  const official = new Set(areas.flatMap((a) => a.ids))
  const implemented = new Set(operations.filter((op) => !op.beyondOfficial).map((op) => op.id))
  // An operation marked official must be one of the document's (a typo would count nothing).
  const unknown = [...implemented].filter((id) => !official.has(id))
  if (unknown.length > 0) throw new Error(`operations marked official that the official document does not have: ${unknown.join(', ')}`)
  const beyond = operations.length - implemented.size
  const rows = areas.map((a) => {
    const done = a.ids.filter((id) => implemented.has(id)).length
    return `| ${a.title} | ${done} | ${a.ids.length} |`
  })
  return [
    `${implemented.size} of the official document's ${official.size} operations are implemented, and ${beyond} beyond it (every one is listed in [docs/reference/operations.md](docs/reference/operations.md)); the others answer 501 naming their operationId.`,
    '',
    '| Area (official tag) | Implemented | Official |',
    '|---|---:|---:|',
    ...rows,
    `| **All** | **${implemented.size}** | **${official.size}** |`,
  ].join('\n')
}

/** `readme` with the coverage block replaced by `table`. */
export function replaceCoverageBlock(readme: string, table: string): string {
  return replaceBlock(readme, table, { start: COVERAGE_START, end: COVERAGE_END, file: COVERAGE_FILE })
}

/** The operation table of a default API. */
export function currentOperations(): readonly OperationDef[] {
  return createDocsApi().operations
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href
if (isMain) {
  const operations = currentOperations()
  const table = renderOperationsTable(operations)
  const files = [
    { name: TABLE_FILE, replace: (text: string) => replaceOperationsBlock(text, table) },
    { name: COVERAGE_FILE, replace: (text: string) => replaceCoverageBlock(text, renderCoverageTable(operations, officialDocument())) },
  ]
  const check = process.argv.includes('--check')
  if (!check) console.log(table)
  let stale = false
  for (const { name, replace } of files) {
    const file = resolve(process.cwd(), name)
    const before = readFileSync(file, 'utf8')
    const after = replace(before)
    if (check) {
      if (before !== after) console.error(`${name} is stale: run \`npm run docs:operations\``)
      else console.log(`${name} is up to date`)
      stale ||= before !== after
    } else {
      if (before !== after) writeFileSync(file, after)
      console.error(before !== after ? `${name} updated` : `${name} already up to date`)
    }
  }
  if (stale) process.exit(1)
}
