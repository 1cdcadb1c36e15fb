import { diff3MergeRegions, LCS, type ILCSResult } from 'node-diff3'
import type { DocBlock, JsonDocument, JsonObject } from './document.js'

/** One place where both sides changed the same stretch of the base differently. */
export interface BlockConflict {
  base: DocBlock[]
  ours: DocBlock[]
  theirs: DocBlock[]
}

export type BlockMergeResult = { ok: true; nodes: DocBlock[] } | { ok: false; conflicts: BlockConflict[] }

/** A conflict of a document merge: in its block list, or in its `data` (both sides changed it). */
export type DocumentConflict = ({ part: 'nodes' } & BlockConflict) | { part: 'data'; base: JsonObject; ours: JsonObject; theirs: JsonObject }

export type DocumentMergeResult = { ok: true; document: JsonDocument } | { ok: false; conflicts: DocumentConflict[] }

// The node kinds that carry an editor `key`. Only their `key` is dropped: a `key` inside a
// block's `data` or `meta` record is content (an integration's setting, say), not an identity.
export const KEYED_NODES: ReadonlySet<unknown> = new Set(['block', 'inline', 'text', 'fragment'])

/** The value with object keys sorted and node keys removed, ready for JSON.stringify. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical)
  if (value === null || typeof value !== 'object') return value
  // Keep JSON's semantics for values that serialize themselves (a Date in loose data, say).
  const toJSON = (value as { toJSON?: unknown }).toJSON
  if (typeof toJSON === 'function') return canonical(toJSON.call(value))
  const record = value as Record<string, unknown>
  const isNode = KEYED_NODES.has(record.object)
  // A prototype-less object, so a `__proto__` property in loose data is copied, not a prototype.
  const out = Object.create(null) as Record<string, unknown>
  for (const name of Object.keys(record).sort()) {
    if (isNode && name === 'key') continue
    out[name] = canonical(record[name])
  }
  return out
}

/** A canonical string of a block without its keys (stable key order), used as the diff3 item. */
export function blockIdentity(block: DocBlock): string {
  return JSON.stringify(canonical(block))
}

const sameItems = (x: readonly string[], y: readonly string[]): boolean => x.length === y.length && x.every((item, i) => item === y[i])

/**
 * Three-way merge of top-level block lists: base (common ancestor), ours (e.g. main), theirs
 * (e.g. the change request). Blocks are compared by `blockIdentity` (keys are not content); the
 * result holds the input block objects themselves (not copies), each from the side its chunk came
 * from, so an inserted or edited block keeps that side's `key`, and a block both sides kept is
 * ours' object. A conflict is reported, never resolved by dropping either side's edit.
 */
export function mergeBlocks(base: readonly DocBlock[], ours: readonly DocBlock[], theirs: readonly DocBlock[]): BlockMergeResult {
  const baseIds = base.map(blockIdentity)
  const ourIds = ours.map(blockIdentity)
  const theirIds = theirs.map(blockIdentity)

  // diff3MergeRegions is the engine of node-diff3's diff3Merge; it is used directly because its
  // regions say which buffer (and where in it) each stable chunk comes from, which diff3Merge's
  // `ok` chunks (bare items) do not, and with repeated blocks (two empty paragraphs) an identity
  // alone cannot say which object, hence which key, belongs in the result.
  const regions = diff3MergeRegions(ourIds, baseIds, theirIds)

  // A region stable in the base is unchanged on both sides: take ours' objects, found through
  // the same LCS of base and ours that diff3MergeRegions's hunks were computed from.
  const oursAt = new Map<number, number>()
  for (let match: ILCSResult | null = LCS(baseIds, ourIds); match && match.buffer1index >= 0; match = match.chain) {
    oursAt.set(match.buffer1index, match.buffer2index)
  }

  const nodes: DocBlock[] = []
  const conflicts: BlockConflict[] = []
  for (const region of regions) {
    if (region.stable) {
      const { buffer, bufferStart: start, bufferLength: length } = region
      if (buffer === 'a') nodes.push(...ours.slice(start, start + length))
      else if (buffer === 'b') nodes.push(...theirs.slice(start, start + length))
      else {
        for (let i = start; i < start + length; i++) {
          const at = oursAt.get(i)
          // The fallback is unreachable (a stable base item is matched in ours) but keeps the block.
          nodes.push(at === undefined ? (base[i] as DocBlock) : (ours[at] as DocBlock))
        }
      }
    } else if (sameItems(region.aContent, region.bContent)) {
      // A false conflict (both sides made the same change), as diff3Merge's excludeFalseConflicts.
      nodes.push(...ours.slice(region.aStart, region.aStart + region.aLength))
    } else {
      conflicts.push({
        base: base.slice(region.oStart, region.oStart + region.oLength),
        ours: ours.slice(region.aStart, region.aStart + region.aLength),
        theirs: theirs.slice(region.bStart, region.bStart + region.bLength),
      })
    }
  }
  return conflicts.length ? { ok: false, conflicts } : { ok: true, nodes }
}

/**
 * Three-way merge of whole documents: the blocks as `mergeBlocks`; `data` (as one value) from
 * whichever side changed it, a conflict when both changed it differently. Block and data
 * conflicts are reported together, so one answer lists everything to resolve.
 */
export function mergeDocuments(base: JsonDocument, ours: JsonDocument, theirs: JsonDocument): DocumentMergeResult {
  const conflicts: DocumentConflict[] = []

  const [baseData, ourData, theirData] = [base.data, ours.data, theirs.data].map((data) => JSON.stringify(canonical(data)))
  let data = ours.data
  if (ourData === baseData) data = theirs.data
  else if (theirData !== baseData && theirData !== ourData) {
    conflicts.push({ part: 'data', base: base.data, ours: ours.data, theirs: theirs.data })
  }

  const blocks = mergeBlocks(base.nodes, ours.nodes, theirs.nodes)
  if (!blocks.ok) conflicts.push(...blocks.conflicts.map((conflict) => ({ part: 'nodes' as const, ...conflict })))

  if (!blocks.ok || conflicts.length) return { ok: false, conflicts }
  return { ok: true, document: { object: 'document', data, nodes: blocks.nodes } }
}
