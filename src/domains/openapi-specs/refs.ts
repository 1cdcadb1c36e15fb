import { at, type Path } from './json-path.js'
import type { ProcessError } from './read.js'
import { STEP, type Steps } from './steps.js'

/**
 * The `$ref`s of a document, checked without expanding any: each one must point at a node of the
 * document. A full dereference (what @readme/openapi-parser's `validate` does first) copies each
 * target into each place that uses it, and a target holds its own `$ref`s: a schema that refers
 * to every earlier one grows as 2^n, so a small document of such schemas takes far too long. Here
 * the document is walked once, and each distinct pointer is resolved once (memoized): the work
 * is linear in the size of the document.
 *
 * A pointer is read as json-schema-ref-parser reads it: `#/a/b~1c` (`~1` is `/`, `~0` is `~`,
 * then percent-decoding); a `$ref` met in the middle of a pointer is followed (`#/A/properties/x`
 * where A is itself a `$ref`), at most `MAX_REF_CHAIN` deep, and a pointer that leads back to
 * itself is an error. Only own properties count (`#/constructor` points nowhere). A `$ref` to
 * another file or URL is not followed: it is reported (a spec is one self-contained document).
 */

export const MAX_REF_CHAIN = 256

export interface Refs {
  /** What a node stands for: itself, or the target of its `$ref` (followed until a node that is not one); undefined when that resolves nowhere. */
  deref(value: unknown): unknown
}

type Resolved = { value: unknown } | { error: string }

interface Entry {
  value: object
  parent: Entry | undefined
  key: string | number
}

const isRef = (value: unknown): value is { $ref: string } =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && typeof (value as { $ref?: unknown }).$ref === 'string'

function decodeToken(raw: string): string {
  const token = raw.replace(/~1/g, '/').replace(/~0/g, '~')
  try {
    return decodeURIComponent(token)
  } catch {
    return token
  }
}

const escapeToken = (key: string | number) => String(key).replace(/~/g, '~0').replace(/\//g, '~1')

function pathOf(entry: Entry): Path {
  const out: Array<string | number> = []
  for (let e: Entry | undefined = entry; e?.parent; e = e.parent) out.push(e.key)
  return out.reverse()
}

/** Check every `$ref` of `document` (errors go to `report`, in document order); what is returned follows them for later checks. */
export function* checkRefs(document: object, report: (error: ProcessError) => void): Steps<Refs> {
  const resolved = new Map<string, Resolved>()
  const resolving = new Set<string>()
  const followed = new Map<object, Resolved>()

  const resolve = (ref: string, depth: number): Resolved => {
    const known = resolved.get(ref)
    if (known) return known
    if (resolving.has(ref)) return { error: `Circular $ref pointer "${ref}": it leads back to itself` }
    resolving.add(ref)
    const result = walk(ref, depth)
    resolving.delete(ref)
    resolved.set(ref, result)
    return result
  }

  const walk = (ref: string, depth: number): Resolved => {
    if (depth > MAX_REF_CHAIN) return { error: `The $ref pointer "${ref}" goes through more than ${MAX_REF_CHAIN} other $refs` }
    const hash = ref.slice(1)
    if (hash === '') return { value: document }
    if (!hash.startsWith('/')) return { error: `Invalid $ref pointer "${hash}". Pointers must begin with "#/"` }
    let node: unknown = document
    for (const raw of hash.slice(1).split('/')) {
      const token = decodeToken(raw)
      const through = follow(node, depth + 1)
      if ('error' in through) return through
      node = through.value
      if (node === null || typeof node !== 'object' || !Object.prototype.hasOwnProperty.call(node, token)) {
        return { error: `Missing $ref pointer "${ref}". Token "${token}" does not exist.` }
      }
      node = (node as Record<string, unknown>)[token]
    }
    return { value: node }
  }

  /** A node, or the end of the chain of `$ref`s it starts (each link resolved once, the chain walked once). */
  const follow = (node: unknown, depth: number): Resolved => {
    const chain: object[] = []
    let result: Resolved | undefined
    let current = node
    while (isRef(current)) {
      const known = followed.get(current)
      if (known) {
        result = known
        break
      }
      if (chain.includes(current)) {
        result = { error: `Circular $ref pointer "${current.$ref}": it leads back to itself` }
        break
      }
      if (chain.length >= MAX_REF_CHAIN) {
        result = { error: `The $ref "${current.$ref}" is the end of a chain of more than ${MAX_REF_CHAIN} $refs` }
        break
      }
      chain.push(current)
      if (!current.$ref.startsWith('#')) {
        result = { error: `The $ref "${current.$ref}" points outside the document` }
        break
      }
      const next = resolve(current.$ref, depth)
      if ('error' in next) {
        result = next
        break
      }
      current = next.value
    }
    result ??= { value: current }
    for (const link of chain) followed.set(link, result)
    return result
  }

  // The walk: depth first, in document order; an object met twice (a YAML alias) is walked once.
  const seen = new Set<object>()
  const stack: Entry[] = [{ value: document, parent: undefined, key: '' }]
  let steps = 0
  while (stack.length > 0) {
    if (++steps % STEP === 0) yield
    const entry = stack.pop()!
    if (seen.has(entry.value)) continue
    seen.add(entry.value)
    const value = entry.value
    if (isRef(value)) {
      const ref = value.$ref
      if (!ref.startsWith('#')) {
        const pointer = pathOf(entry)
          .map((key) => `/${escapeToken(key)}`)
          .join('')
        report({ message: `Unresolved $ref "${ref}" at ${pointer || '/'}: only references inside the document (#/...) are resolved`, code: 'UNRESOLVED_REF' })
      } else {
        const target = resolve(ref, 0)
        if ('error' in target) report({ message: at(pathOf(entry), target.error), code: 'UNRESOLVED_REF' })
      }
    }
    const children: Entry[] = []
    if (Array.isArray(value)) value.forEach((item, i) => item !== null && typeof item === 'object' && children.push({ value: item, parent: entry, key: i }))
    else for (const [key, item] of Object.entries(value)) if (item !== null && typeof item === 'object') children.push({ value: item, parent: entry, key })
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!)
  }

  return {
    deref(value) {
      const got = follow(value, 0)
      return 'error' in got ? undefined : got.value
    },
  }
}
