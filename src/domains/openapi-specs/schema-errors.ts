import type { ErrorObject } from 'ajv'
import { at, pointerPath, valueAt } from './json-path.js'
import type { ProcessError } from './read.js'
import { STEP, type Steps } from './steps.js'

/**
 * ajv's errors as a reader wants them, chosen as @readme/openapi-parser chose them (its
 * `reduceAjvErrors`, then @readme/better-ajv-errors' tree), in linear time (both compare errors
 * pairwise), and placed by their JSON path (ajv gives it; better-ajv-errors gave a code frame).
 *
 * - the noise of `oneOf` between an object and a Reference Object (`must have required property
 *   '$ref'`, `must match exactly one schema in oneOf`) is dropped;
 * - one error per node, and none on a node whose descendant already has one;
 * - on a node, a missing required property is the one error said; an `anyOf` with errors below
 *   says nothing itself; an `enum` error is dropped when a sibling has an error, and a node's
 *   `enum` errors become one, with every allowed value and the closest one as a suggestion.
 *
 * Each error keeps its rule as `code` (`REQUIRED`, `ENUM`, `TYPE`, `ADDITIONAL_PROPERTY`...).
 */

const NOISE = new Set(["must have required property '$ref'", 'must match exactly one schema in oneOf'])

interface TreeNode {
  errors: ErrorObject[]
  children: Map<string, TreeNode>
}

/** An error to tell: an ajv error, with the allowed values of all the `enum` errors of its node. */
export interface SchemaError {
  error: ErrorObject
  allowed?: unknown[]
}

const escapeToken = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1')

/** One error per node, none on a node that has an error below (the errors of ajv come deepest first). */
function* reduce(errors: ErrorObject[]): Steps<ErrorObject[]> {
  const kept = new Map<string, ErrorObject>()
  const covered = new Set<string>()
  let steps = 0
  for (const error of errors) {
    if (++steps % STEP === 0) yield
    if (NOISE.has(error.message ?? '')) continue
    const path = error.instancePath
    if (kept.has(path) || covered.has(path)) continue
    kept.set(path, error)
    // Every ancestor of a kept error is covered (stop at the first one already covered: so are its own).
    for (let cut = path.lastIndexOf('/'); cut >= 0; cut = path.lastIndexOf('/', cut - 1)) {
      const ancestor = path.slice(0, cut)
      if (covered.has(ancestor)) break
      covered.add(ancestor)
      if (cut === 0) break
    }
  }
  // Only noise: better that than nothing.
  return kept.size > 0 ? [...kept.values()] : errors
}

function filter(node: TreeNode, parent: TreeNode | undefined, key: string): void {
  const required = node.errors.filter((e) => e.keyword === 'required')
  if (required.length > 0) {
    node.errors = [required.at(-1)!]
    node.children = new Map()
  }
  if (node.children.size > 0 && node.errors.some((e) => e.keyword === 'anyOf')) node.errors = []
  if (parent && node.errors.length > 0 && node.errors.every((e) => e.keyword === 'enum') && parent.children.size > 1) parent.children.delete(key)
  for (const [childKey, child] of [...node.children]) filter(child, node, childKey)
}

function* collect(node: TreeNode, out: SchemaError[], counter = { steps: 0 }): Steps<void> {
  if (node.errors.length > 0 && node.errors.every((e) => e.keyword === 'enum')) {
    const allowed = new Set<unknown>()
    for (const e of node.errors) for (const value of (e.params as { allowedValues?: unknown[] }).allowedValues ?? []) allowed.add(value)
    out.push({ error: node.errors[0]!, allowed: [...allowed] })
  } else for (const error of node.errors) out.push({ error })
  if (++counter.steps % STEP === 0) yield
  for (const child of node.children.values()) yield* collect(child, out, counter)
}

/** The errors to tell, in document order, from ajv's `errors`. */
export function* chooseSchemaErrors(errors: ErrorObject[]): Steps<SchemaError[]> {
  const reduced = yield* reduce(errors)
  const root: TreeNode = { errors: [], children: new Map() }
  for (const error of reduced) {
    let node = root
    for (const token of error.instancePath === '' ? [] : error.instancePath.slice(1).split('/')) {
      let child = node.children.get(token)
      if (!child) node.children.set(token, (child = { errors: [], children: new Map() }))
      node = child
    }
    node.errors.push(error)
  }
  filter(root, undefined, '')
  const out: SchemaError[] = []
  yield* collect(root, out)
  return out
}

/** Levenshtein distance, or Infinity once it cannot be under `below` (the lengths alone say so). */
function distance(a: string, b: string, below: number): number {
  if (Math.abs(a.length - b.length) >= below) return Infinity
  let row = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const next = [i]
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
    row = next
  }
  return row[b.length]!
}

/** The allowed value closest to what the document says (better-ajv-errors' rule: the only one, or one closer than its own length). */
function suggestion(allowed: unknown[], current: unknown): string | undefined {
  if (!current) return undefined
  if (allowed.length === 1) return String(allowed[0])
  let best: { value: string; weight: number } | undefined
  for (const value of allowed.map(String)) {
    const weight = distance(value, String(current), value.length)
    if (!best || weight < best.weight) best = { value, weight }
  }
  return best && best.weight < best.value.length ? best.value : undefined
}

/** What an error says: `` `path`: message `` with its rule as `code`. */
export function describeSchemaError({ error, allowed }: SchemaError, document: unknown): ProcessError {
  const params = error.params as Record<string, unknown>
  const message = error.message ?? 'is not valid'
  // The node an error is about: for an unexpected property, the property.
  const pointer =
    error.keyword === 'additionalProperties'
      ? `${error.instancePath}/${escapeToken(String(params.additionalProperty))}`
      : error.keyword === 'unevaluatedProperties'
        ? `${error.instancePath}/${escapeToken(String(params.unevaluatedProperty))}`
        : error.keyword === 'pattern' && error.propertyName !== undefined
          ? `${error.instancePath}/${escapeToken(error.propertyName)}`
          : error.instancePath
  const path = pointerPath(document, pointer)
  if (allowed) {
    const close = suggestion(allowed, valueAt(document, error.instancePath))
    return { message: at(path, `${message}: ${allowed.map(String).join(', ')}${close !== undefined ? ` (did you mean ${close}?)` : ''}`), code: 'ENUM' }
  }
  const code =
    error.keyword === 'additionalProperties'
      ? 'ADDITIONAL_PROPERTY'
      : error.keyword === 'unevaluatedProperties'
        ? 'UNEVALUATED_PROPERTY'
        : error.keyword === 'pattern'
          ? 'PROPERTY'
          : error.keyword.toUpperCase()
  return { message: at(path, message), code }
}
