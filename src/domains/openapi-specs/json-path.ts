/**
 * Naming a node of a document in an error message: `paths./pets.get.parameters[0].in` (a key with
 * `.`, `[`, `]`, a quote or a space is written `["key"]`), from a path of keys or a JSON pointer.
 */

export type Path = ReadonlyArray<string | number>

export function formatPath(path: Path): string {
  let out = ''
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`
    else if (/^[^.[\]"\s]+$/.test(key)) out += out === '' ? key : `.${key}`
    else out += `[${JSON.stringify(key)}]`
  }
  return out
}

/** The keys of a JSON pointer (`/paths/~1pets/get` → `paths`, `/pets`, `get`), array indexes as numbers where the document has an array. */
export function pointerPath(document: unknown, pointer: string): Array<string | number> {
  if (pointer === '') return []
  const out: Array<string | number> = []
  let node = document
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    const index = Array.isArray(node) && /^\d+$/.test(key) ? Number(key) : undefined
    out.push(index ?? key)
    node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined
  }
  return out
}

/** The value at a JSON pointer (own properties only), or undefined. */
export function valueAt(document: unknown, pointer: string): unknown {
  let node = document
  if (pointer === '') return node
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    if (node === null || typeof node !== 'object' || !Object.prototype.hasOwnProperty.call(node, key)) return undefined
    node = (node as Record<string, unknown>)[key]
  }
  return node
}

/** A message placed at a node: `` `paths./pets.get`: what `` (the whole document is `(document)`). */
export function at(path: Path, what: string): string {
  return `\`${path.length === 0 ? '(document)' : formatPath(path)}\`: ${what}`
}
