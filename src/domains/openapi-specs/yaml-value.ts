import type { Document, Pair } from 'yaml'
import { yamlLibrary } from '../content/markdown-libs.js'
import { STEP, type Steps } from './steps.js'

/**
 * The plain value (objects, arrays, scalars) of a composed YAML document, in place of yaml's own
 * `toJS`, which is not fit for a hostile text: it finds the anchor of each alias by scanning every
 * anchor and alias of the document (quadratic in their number), and duplicate keys are only found
 * by the composer's `uniqueKeys` check, which compares each key with every earlier key of its map
 * (quadratic in the size of a map). Here both are linear: anchors are kept in a map as they come
 * (an alias names the last anchor before it, as in yaml), and each map's keys in a set.
 *
 * An alias stands for its anchor's value: the same object, not a copy (as yaml does), so memory
 * stays linear, but whoever walks the result walks that object once per alias. The walks after
 * this (the checks of processing.ts) are bounded by counting, for each alias, the nodes of its
 * anchor: past `limit` nodes in all (a limit proportional to the length of the text), the
 * document is refused. A "billion laughs" text (aliases of aliases, each doubling the size) ends
 * there in time linear in its length. The conversion walks with its own stack (no recursion) and
 * yields every `STEP` nodes.
 */

export interface ValueError {
  message: string
  code: string
  /** Offset in the text of the node at fault (-1 when unknown). */
  offset: number
}

/** A node of the document (a map, a sequence, a scalar). */
type Node = object
type Out = Record<string, unknown> | unknown[]

/** The slot of a `<<` merge key (YAML 1.1 documents): its maps are merged into the map. */
const MERGE = Symbol('merge')

interface Frame {
  /** The pairs of a map, or the items of a sequence. */
  items: readonly unknown[]
  out: Out
  next: number
  /** The keys a map was given (a second one is a duplicate); none for a sequence. */
  keys?: Set<string>
  /** Where the value being converted goes in a map. */
  slot: string | typeof MERGE
  /** The anchored node this frame converts (its value and size are kept for its aliases). */
  anchored?: Node
  /** The node count when the frame opened: its size when it closes is the difference. */
  start: number
}

const offsetOf = (node: unknown) => (node as { range?: [number, number, number] } | null)?.range?.[0] ?? -1

/** Set a key as yaml does: a key an object inherits (`__proto__`, `constructor`) becomes an own property. */
function assign(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key in out) Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true })
  else out[key] = value
}

export function* yamlValue(doc: Document.Parsed, limit: number): Steps<{ value: unknown } | { error: ValueError }> {
  const { isAlias, isMap, isPair, isScalar, isSeq } = yamlLibrary.get()
  // A `<<` key merges only where the document's schema has the merge tag (YAML 1.1, or `merge: true`).
  const merges = doc.schema.tags.some((tag) => tag.tag === 'tag:yaml.org,2002:merge' && tag.default)
  const anchors = new Map<string, Node>()
  const converted = new Map<Node, { value: unknown; size: number }>()
  const open = new Set<Node>()
  const stack: Frame[] = []
  let count = 0

  const fail = (message: string, node: unknown, code: string) => ({ error: { message, code, offset: offsetOf(node) } })
  const tooLarge = (node: unknown) =>
    fail(
      `The document's aliases expand it to more than ${limit} nodes (the limit for a text of this length): an alias names a large node too often`,
      node,
      'YAML_ALIAS_LIMIT',
    )

  /** The value of an alias: its anchor's, counted at the anchor's size. */
  const aliasValue = (node: { source: string }) => {
    const target = anchors.get(node.source)
    if (!target) return fail(`Unresolved alias (the anchor must be set before the alias): ${node.source}`, node, 'YAML_BAD_ALIAS')
    if (open.has(target)) return fail(`The alias *${node.source} is inside the node it names`, node, 'YAML_BAD_ALIAS')
    const known = converted.get(target)!
    count += known.size
    return count > limit ? tooLarge(node) : { value: known.value }
  }

  /** Start converting `node`: its value when it has one at once, else a frame is pushed (undefined). */
  const begin = (node: unknown, pairInSequence = false): { value: unknown } | { error: ValueError } | undefined => {
    if (node === null || node === undefined) {
      count++
      return { value: null }
    }
    if (isAlias(node)) return aliasValue(node)
    const anchor = (node as { anchor?: string }).anchor
    if (anchor) anchors.set(anchor, node as Node)
    count++
    if (isScalar(node)) {
      if (anchor) converted.set(node, { value: node.value, size: 1 })
      return { value: node.value }
    }
    if (isMap(node) || isSeq(node) || pairInSequence) {
      const map = !isSeq(node)
      // A pair in a sequence (`!!omap`, `!!pairs`) becomes an object of that one pair.
      const items = pairInSequence ? [node] : (node as { items: unknown[] }).items
      if (anchor) open.add(node as Node)
      stack.push({
        items,
        out: map ? {} : [],
        next: 0,
        ...(map && { keys: new Set<string>() }),
        slot: '',
        ...(anchor && { anchored: node as Node }),
        start: count - 1,
      })
      return undefined
    }
    return fail('A node of an unknown kind', node, 'YAML_ERROR')
  }

  /** The key of a pair as a string (as yaml's `toJS` makes it), or MERGE. */
  const keyOf = (key: unknown): string | typeof MERGE | { error: ValueError } => {
    if (key === null || key === undefined) return ''
    if (isScalar(key)) {
      if (key.anchor) {
        anchors.set(key.anchor, key as Node)
        converted.set(key as Node, { value: key.value, size: 1 })
      }
      count++
      if (typeof key.value === 'symbol' || (merges && key.value === '<<' && (!key.type || key.type === 'PLAIN'))) return MERGE
      return key.value === null ? '' : String(key.value)
    }
    if (isAlias(key)) {
      const got = aliasValue(key)
      if ('error' in got) return got
      if (got.value === null) return ''
      return typeof got.value === 'object' ? JSON.stringify(got.value) : String(got.value)
    }
    // A collection as a key (`? [a, b]`): stringified, as yaml does for an object's keys.
    count++
    return JSON.stringify(key)
  }

  /** Put a converted value in its frame: appended to a sequence, set or merged in a map. */
  const place = (frame: Frame, value: unknown, node: unknown): { error: ValueError } | undefined => {
    if (Array.isArray(frame.out)) {
      frame.out.push(value)
      return undefined
    }
    if (frame.slot !== MERGE) {
      assign(frame.out, frame.slot, value)
      return undefined
    }
    for (const source of Array.isArray(value) ? value : [value]) {
      if (!source || typeof source !== 'object' || Array.isArray(source)) return fail('Merge sources must be maps or map aliases', node, 'YAML_ERROR')
      for (const [key, item] of Object.entries(source)) {
        count++
        if (!Object.prototype.hasOwnProperty.call(frame.out, key)) assign(frame.out, key, item)
      }
    }
    return count > limit ? tooLarge(node) : undefined
  }

  const first = begin(doc.contents)
  if (first) return first
  let steps = 0
  for (;;) {
    if (++steps % STEP === 0) yield
    const frame = stack.at(-1)!
    if (frame.next >= frame.items.length) {
      stack.pop()
      if (frame.anchored) {
        open.delete(frame.anchored)
        converted.set(frame.anchored, { value: frame.out, size: count - frame.start })
      }
      const parent = stack.at(-1)
      if (!parent) return { value: frame.out }
      const failed = place(parent, frame.out, parent.items[parent.next - 1])
      if (failed) return failed
      continue
    }
    const item = frame.items[frame.next++]
    let valueNode = item
    if (frame.keys) {
      const pair = item as Pair
      const key = keyOf(pair.key)
      if (typeof key === 'object') return key
      if (key !== MERGE) {
        if (frame.keys.has(key)) return fail('Map keys must be unique', pair.key ?? pair.value, 'YAML_DUPLICATE_KEY')
        frame.keys.add(key)
      }
      frame.slot = key
      valueNode = pair.value
    }
    const got = begin(valueNode, !frame.keys && isPair(valueNode))
    // undefined: a frame was pushed; its value lands here when it closes.
    if (got === undefined) continue
    if ('error' in got) return got
    const failed = place(frame, got.value, item)
    if (failed) return failed
  }
}
