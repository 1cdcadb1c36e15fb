/**
 * Copy-on-write changes deep inside a document (or any JSON value): `visit` is called on every
 * object, top down, and answers what it becomes; `children(obj)` gives the object with its own
 * fields mapped the same way. Only the objects on the way to a change are copied: an unchanged
 * value comes back as the same object, so unchanged documents stay shared (revisions share them).
 *
 * @example
 * // every file reference to a new id, without looking inside references
 * mapObjects(doc, (o, children) => (o.kind === 'file' ? { ...o, file: ids.get(o.file) } : children(o)))
 */
export type ObjectVisitor = (obj: Record<string, unknown>, children: (obj: Record<string, unknown>) => Record<string, unknown>) => Record<string, unknown>

export function mapObjects<T>(value: T, visit: ObjectVisitor): T {
  const map = (v: unknown): unknown => {
    if (Array.isArray(v)) {
      let out: unknown[] | undefined
      v.forEach((item, i) => {
        const next = map(item)
        if (next !== item) (out ??= [...v])[i] = next
      })
      return out ?? v
    }
    if (v === null || typeof v !== 'object') return v
    return visit(v as Record<string, unknown>, children)
  }
  const children = (obj: Record<string, unknown>): Record<string, unknown> => {
    let out: Record<string, unknown> | undefined
    for (const key in obj) {
      const next = map(obj[key])
      if (next !== obj[key]) (out ??= { ...obj })[key] = next
    }
    return out ?? obj
  }
  return map(value) as T
}
