import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { DocBlock, JsonDocument } from '../../../src/domains/content/document.js'
import { blockIdentity, mergeBlocks, mergeDocuments } from '../../../src/domains/content/merge-blocks.js'

// A fixed seed, so a red property run is repeatable.
const SEED = 20260301

/** A paragraph of one text node; `key` (optional) on the block and `textKey` on the text. */
const p = (text: string, key?: string, textKey?: string): DocBlock => ({
  object: 'block',
  type: 'paragraph',
  ...(key === undefined ? {} : { key }),
  nodes: [{ object: 'text', ...(textKey === undefined ? {} : { key: textKey }), leaves: [{ object: 'leaf', text, marks: [] }] }],
})

const ids = (blocks: readonly DocBlock[]) => blocks.map(blockIdentity)
const texts = (blocks: readonly DocBlock[]) => blocks.map((b) => (b.nodes?.[0] as any)?.leaves[0].text)

/** The merged nodes, failing the test on a conflict. */
function merged(base: DocBlock[], ours: DocBlock[], theirs: DocBlock[]): DocBlock[] {
  const result = mergeBlocks(base, ours, theirs)
  if (!result.ok) throw new Error(`unexpected conflict: ${JSON.stringify(result.conflicts)}`)
  return result.nodes
}

describe('blockIdentity', () => {
  it('ignores keys at every depth and the order of object keys', () => {
    const a: DocBlock = { object: 'block', type: 'heading-1', key: 'k1', data: { id: 'x', level: 1 }, nodes: [p('t', 'k2', 'k3')] }
    const b: DocBlock = { nodes: [p('t', 'k9', 'k8')], data: { level: 1, id: 'x' }, type: 'heading-1', object: 'block' }
    expect(blockIdentity(a)).toBe(blockIdentity(b))
    expect(blockIdentity(a)).not.toContain('k1')
  })

  it('keeps a `key` that is content (inside data) and tells different content apart', () => {
    const withData = (key: string): DocBlock => ({ object: 'block', type: 'x', data: { key } })
    expect(blockIdentity(withData('a'))).not.toBe(blockIdentity(withData('b')))
    expect(blockIdentity(p('a'))).not.toBe(blockIdentity(p('b')))
  })
})

describe('mergeBlocks', () => {
  const base = [p('one', 'k1'), p('two', 'k2'), p('three', 'k3'), p('four', 'k4')]

  it('keeps edits to different blocks from both sides', () => {
    const ours = [p('ONE', 'k1'), p('two', 'k2'), p('three', 'k3'), p('four', 'k4')]
    const theirs = [p('one', 'k1'), p('two', 'k2'), p('THREE', 'k3'), p('four', 'k4')]
    expect(texts(merged(base, ours, theirs))).toEqual(['ONE', 'two', 'THREE', 'four'])
  })

  it('treats the same change on both sides as no conflict (false conflict)', () => {
    const ours = [p('one', 'k1'), p('TWO', 'k2'), p('four', 'k4')]
    const theirs = [p('one', 'k1'), p('TWO', 'k2b'), p('four', 'k4')]
    const nodes = merged(base, ours, theirs)
    expect(texts(nodes)).toEqual(['one', 'TWO', 'four'])
    expect(nodes[1]).toBe(ours[1]) // ours' object when both sides have the block
  })

  it('reports a conflict when both insert different blocks at the same place', () => {
    const ours = [p('one'), p('ours-new'), p('two'), p('three'), p('four')]
    const theirs = [p('one'), p('theirs-new'), p('two'), p('three'), p('four')]
    const result = mergeBlocks(base, ours, theirs)
    expect(result).toEqual({ ok: false, conflicts: [{ base: [], ours: [ours[1]], theirs: [theirs[1]] }] })
  })

  it('reports a conflict when both edit the same block differently', () => {
    const result = mergeBlocks(base, [p('one'), p('two (ours)'), p('three'), p('four')], [p('one'), p('two (theirs)'), p('three'), p('four')])
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.conflicts.map((c) => [texts(c.base), texts(c.ours), texts(c.theirs)])).toEqual([[['two'], ['two (ours)'], ['two (theirs)']]])
  })

  it('reports a conflict when one side edits a block the other deleted (either way round)', () => {
    const edited = [p('one'), p('two'), p('THREE'), p('four')]
    const deleted = [p('one'), p('two'), p('four')]
    for (const [ours, theirs] of [
      [edited, deleted],
      [deleted, edited],
    ] as const) {
      const result = mergeBlocks(base, ours, theirs)
      expect(result.ok).toBe(false)
      if (!result.ok) expect(result.conflicts).toHaveLength(1)
    }
  })

  it('takes inserted and edited blocks (with their keys) from the side that made them', () => {
    const ours = [p('one', 'o1'), p('two', 'o2'), p('three', 'o3'), p('four', 'o4')] // re-keyed only
    const theirs = [p('one', 'k1'), p('new', 'tN'), p('two', 'k2'), p('three', 'k3'), p('FOUR', 'tF')]
    const nodes = merged(base, ours, theirs)
    expect(texts(nodes)).toEqual(['one', 'new', 'two', 'three', 'FOUR'])
    expect(nodes.map((n) => n.key)).toEqual(['o1', 'tN', 'o2', 'o3', 'tF'])
  })

  it('merges lists with repeated identical blocks (empty paragraphs), each object once', () => {
    const empty = (key: string) => p('', key)
    const b = [p('a', 'a'), empty('e1'), empty('e2'), p('b', 'b'), empty('e3')]
    const ours = [p('a', 'a'), empty('e1'), p('ours', 'o'), empty('e2'), p('b', 'b'), empty('e3')]
    const theirs = [p('a', 'a'), empty('e1'), empty('e2'), p('b', 'b'), empty('e3'), empty('t4')]
    const nodes = merged(b, ours, theirs)
    expect(texts(nodes)).toEqual(['a', '', 'ours', '', 'b', '', ''])
    expect(new Set(nodes).size).toBe(nodes.length)
    expect(nodes.map((n) => n.key)).toEqual(['a', 'e1', 'o', 'e2', 'b', 'e3', 't4'])
    // both sides deleting one of two equal blocks is the same change
    expect(texts(merged(b, b.slice(0, 1).concat(b.slice(2)), b.slice(0, 1).concat(b.slice(2))))).toEqual(['a', '', 'b', ''])
  })

  it('handles empty lists', () => {
    expect(merged([], [], [])).toEqual([])
    expect(merged([], [], [p('x')])).toEqual([p('x')])
    expect(mergeBlocks([], [p('x')], [p('y')]).ok).toBe(false)
  })
})

describe('mergeDocuments', () => {
  const doc = (data: Record<string, unknown>, nodes: DocBlock[]): JsonDocument => ({ object: 'document', data, nodes })
  const base = doc({ schemaVersion: 1 }, [p('one'), p('two'), p('three')])

  it('merges blocks and takes data from the side that changed it', () => {
    const ours = doc({ schemaVersion: 1 }, [p('ONE'), p('two'), p('three')])
    const theirs = doc({ schemaVersion: 2 }, [p('one'), p('two'), p('THREE')])
    expect(mergeDocuments(base, ours, theirs)).toEqual({ ok: true, document: doc({ schemaVersion: 2 }, [p('ONE'), p('two'), p('THREE')]) })
    expect(mergeDocuments(base, theirs, ours)).toEqual({ ok: true, document: doc({ schemaVersion: 2 }, [p('ONE'), p('two'), p('THREE')]) })
  })

  it('reports data changed differently on both sides, with any block conflicts', () => {
    const result = mergeDocuments(base, doc({ schemaVersion: 2 }, [p('x')]), doc({ schemaVersion: 3 }, [p('y')]))
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.conflicts.map((c) => c.part)).toEqual(['data', 'nodes'])
    // the same data change on both sides is not a conflict
    expect(mergeDocuments(base, doc({ schemaVersion: 2 }, base.nodes), doc({ schemaVersion: 2 }, base.nodes)).ok).toBe(true)
  })
})

describe('mergeBlocks properties', () => {
  // Paragraphs from a small alphabet (so blocks repeat), with random keys that must not matter.
  const block = fc
    .record({ text: fc.constantFrom('', 'a', 'b', 'c', 'd'), key: fc.option(fc.string({ maxLength: 3 }), { nil: undefined }) })
    .map(({ text, key }) => p(text, key))
  const list = fc.array(block, { maxLength: 8 })

  it('merge(b, b, x), merge(b, x, b) and merge(b, x, x) are x', () => {
    fc.assert(
      fc.property(list, list, (b, x) => {
        for (const [ours, theirs] of [
          [b, x],
          [x, b],
          [x, x],
        ])
          expect(ids(merged(b, ours as DocBlock[], theirs as DocBlock[]))).toEqual(ids(x))
      }),
      { seed: SEED, numRuns: 300 },
    )
  })

  // Per base index: untouched, or replaced/deleted by one side; one side's indices are never next
  // to the other's (diff3 treats touching hunks as one region, hence a conflict).
  type Edit = { side: 'ours' | 'theirs'; op: 'replace' | 'delete' } | null
  const edit = fc.option(fc.record({ side: fc.constantFrom('ours' as const, 'theirs' as const), op: fc.constantFrom('replace' as const, 'delete' as const) }), {
    nil: null,
  })

  it('applies both edit scripts when they touch disjoint, non-adjacent blocks', () => {
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 12 }), (raw) => {
        const edits: Edit[] = []
        for (const [i, e] of raw.entries()) edits.push(e && i > 0 && edits[i - 1] && edits[i - 1]!.side !== e.side ? null : e)
        const base = edits.map((_, i) => p(`p${i}`))
        const apply = (side: 'ours' | 'theirs' | 'both') =>
          base.flatMap((b, i) => {
            const e = edits[i]
            if (!e || (side !== 'both' && e.side !== side)) return [b]
            return e.op === 'delete' ? [] : [p(`${e.side}-${i}`)]
          })
        expect(ids(merged(base, apply('ours'), apply('theirs')))).toEqual(ids(apply('both')))
      }),
      { seed: SEED, numRuns: 300 },
    )
  })

  it('keeps every block either side inserted when the merge is ok (no silent loss)', () => {
    const count = (blocks: DocBlock[]) => {
      const counts = new Map<string, number>()
      for (const id of ids(blocks)) counts.set(id, (counts.get(id) ?? 0) + 1)
      return counts
    }
    let oks = 0
    fc.assert(
      fc.property(list, list, list, (base, ours, theirs) => {
        const result = mergeBlocks(base, ours, theirs)
        if (!result.ok) return
        oks++
        const [inBase, inResult] = [count(base), count(result.nodes)]
        for (const side of [ours, theirs]) {
          for (const [id, n] of count(side)) expect(inResult.get(id) ?? 0).toBeGreaterThanOrEqual(n - (inBase.get(id) ?? 0))
        }
      }),
      { seed: SEED, numRuns: 500 },
    )
    expect(oks).toBeGreaterThan(20) // the property ran on real merges, not only on conflicts
  })
})
