import { relative, sep } from 'node:path'
import { describe, expect, it } from 'vitest'
import { filesUnder, importsOf } from './imports.js'

/**
 * No import cycle among the domain folders (issue 18): each area builds on areas below it (common
 * < access < users < members < teams < collections < spaces < space-permissions; spaces < content
 * < change-requests < comments, git-sync; access, spaces and content < sites < share-links,
 * adaptive-content; spaces and sites < site-structure), and what an area below must see happen above it goes through a hook
 * or an ownership rule the area above declares (src/domains/hooks.ts, ownership.ts). Every import counts, type-only and dynamic ones too, except that of another
 * area's rows.ts: the row types are the shared vocabulary (and rows.ts imports no area's logic).
 * A file at the root of src/domains (area.ts, hooks.ts...) belongs to no area: importing it counts
 * as importing what it imports.
 */
const DOMAINS = 'src/domains'

/** The area folder of a file under src/domains, or undefined for a file at its root (or outside it). */
function areaOf(file: string): string | undefined {
  const parts = relative(DOMAINS, file).split(sep)
  return parts.length > 1 && parts[0] !== '..' ? parts[0] : undefined
}

/** The area a file's import leads to, through files at the root of src/domains: each target file with the area it is in. */
function targetsOf(file: string, seen = new Set<string>()): string[] {
  return importsOf(file).flatMap((target) => {
    if (!target.startsWith(`${DOMAINS}/`) || seen.has(target)) return []
    seen.add(target)
    return areaOf(target) === undefined ? targetsOf(target, seen) : [target]
  })
}

/** Edges between areas: `from -> to` with the imports behind each (`file -> target`). */
function areaGraph(): Map<string, Map<string, string[]>> {
  const graph = new Map<string, Map<string, string[]>>()
  for (const file of filesUnder(DOMAINS)) {
    const from = areaOf(file)
    if (!from) continue
    for (const target of targetsOf(file)) {
      const to = areaOf(target)!
      if (to === from || target.endsWith('/rows.ts')) continue
      if (!graph.has(from)) graph.set(from, new Map())
      const edges = graph.get(from)!
      edges.set(to, [...(edges.get(to) ?? []), `${relative(DOMAINS, file)} -> ${relative(DOMAINS, target)}`])
    }
  }
  return graph
}

/** The areas `start` reaches through its imports. */
function reached(graph: Map<string, Map<string, string[]>>, start: string): Set<string> {
  const seen = new Set<string>()
  const stack = [start]
  for (let area = stack.pop(); area !== undefined; area = stack.pop()) {
    for (const next of graph.get(area)?.keys() ?? []) {
      if (seen.has(next)) continue
      seen.add(next)
      stack.push(next)
    }
  }
  return seen
}

describe('areas: no import cycle among the domain folders', () => {
  const graph = areaGraph()

  it("sees the imports it checks (type-only ones; another area's rows.ts left out)", () => {
    // `import type { MoveInput } from '../collections/placement.js'`
    expect(graph.get('spaces')?.get('collections')).toContain('spaces/placement.ts -> collections/placement.ts')
    // access/levels.ts reads spaces' and collections' rows, and imports nothing else of theirs.
    expect(graph.get('access')?.has('spaces')).toBeFalsy()
    expect(graph.size).toBeGreaterThan(20)
  })

  it('no area reaches itself through its imports (a cycle lists its edges with the files behind them)', () => {
    const reach = new Map([...graph.keys()].map((area) => [area, reached(graph, area)]))
    const cycles = [...graph].flatMap(([from, edges]) =>
      [...edges]
        // An edge is in a cycle when its target reaches back to its source.
        .filter(([to]) => reach.get(to)?.has(from))
        .map(([to, files]) => `${from} -> ${to}: ${files.slice(0, 3).join(', ')}${files.length > 3 ? ` (+${files.length - 3})` : ''}`),
    )
    expect(cycles).toEqual([])
  })
})
