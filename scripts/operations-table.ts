import { readFileSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { createDocsApi, POLICY, type OperationDef } from '../src/index.js'

/**
 * `npm run docs:operations`: prints the markdown table of implemented operations, generated from
 * the operation table, and rewrites the block between the markers in docs/reference/operations.md.
 * `--check` writes nothing and exits 1 when the file is stale (test/openapi.test.ts checks too).
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
  const rows = operations.map(
    (op) => `| ${op.method} | \`${op.path}\` | \`${op.id}\` | ${op.beyondOfficial ? 'beyond' : 'official'} | ${permissionCell(op)} |`,
  )
  return [
    `${operations.length} operations: ${operations.length - beyond} from the official document, ${beyond} beyond it.`,
    `Permission is \`resource.action (minimum level)\` from the policy table (\`POLICY\` in src/core/policy.ts).`,
    '',
    '| Method | Path | operationId | Official | Permission |',
    '|---|---|---|---|---|',
    ...rows,
  ].join('\n')
}

/** `readme` with the block between the markers replaced by `table`. */
export function replaceOperationsBlock(readme: string, table: string): string {
  const start = readme.indexOf(START)
  const end = readme.indexOf(END)
  if (start === -1 || end === -1 || end < start) throw new Error(`${TABLE_FILE} needs the markers ${START} and ${END}`)
  return `${readme.slice(0, start + START.length)}\n${table}\n${readme.slice(end)}`
}

/** The operation table of a default API. */
export function currentOperations(): readonly OperationDef[] {
  return createDocsApi().operations
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href
if (isMain) {
  const file = resolve(process.cwd(), TABLE_FILE)
  const table = renderOperationsTable(currentOperations())
  const before = readFileSync(file, 'utf8')
  const after = replaceOperationsBlock(before, table)
  if (process.argv.includes('--check')) {
    if (before !== after) {
      console.error(`${TABLE_FILE} is stale: run \`npm run docs:operations\``)
      process.exit(1)
    }
    console.log(`${TABLE_FILE} is up to date`)
  } else {
    console.log(table)
    if (before !== after) writeFileSync(file, after)
    console.error(before !== after ? `\n${TABLE_FILE} updated` : `\n${TABLE_FILE} already up to date`)
  }
}
