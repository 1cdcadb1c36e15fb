import { describe, expect, it } from 'vitest'
import { filesUnder, importsOf } from './imports.js'

/**
 * Which layer may import which: the HTTP adapter maps requests onto the operation table and holds
 * no domain rule, nor reads the store (src/http/fetch-handler.ts); the core and the storage layer
 * name no area (the areas plug into them: src/domains/index.ts). A forbidden import fails here,
 * naming the file and the import, rather than showing up later as a URL answered outside the table.
 */

const RULES: Array<{ layer: string; forbidden: Array<{ prefix: string; why: string }> }> = [
  {
    layer: 'src/http',
    forbidden: [
      { prefix: 'src/domains/', why: 'the HTTP adapter holds no domain rule: a URL is an operation of an area (src/domains/<area>/operations.ts)' },
      { prefix: 'src/storage/memory', why: 'the HTTP adapter never reads the store: handlers do, through their transaction' },
    ],
  },
  {
    layer: 'src/core',
    forbidden: [
      { prefix: 'src/domains/', why: 'the core names no area: it is generic over the storage schema, which src/domains/context.ts binds' },
      { prefix: 'src/state/', why: "state documents are loaded through the areas' seed rules, above the core" },
      { prefix: 'src/http/', why: 'the core runs operations; the HTTP adapter is one way to call it' },
    ],
  },
  {
    layer: 'src/storage',
    forbidden: [
      { prefix: 'src/domains/', why: 'the storage layer knows rows, keys and indexes, nothing of an area (rows live in src/domains/<area>/rows.ts)' },
      { prefix: 'src/core/', why: 'the storage port and its adapters stand alone, below the core' },
    ],
  },
]

describe('layers: what each layer may import', () => {
  it('finds the imports it checks (the parser sees static, type-only and dynamic imports)', () => {
    expect(importsOf('src/http/fetch-handler.ts')).toContain('src/http/router.ts')
    expect(importsOf('src/http/fetch-handler.ts')).toContain('src/core/execute.ts')
    expect(filesUnder('src/http')).toContain('src/http/codec.ts')
  })

  it.each(RULES.map((rule) => [rule.layer, rule] as const))('%s imports nothing it must not', (layer, rule) => {
    const found = filesUnder(layer).flatMap((file) =>
      importsOf(file).flatMap((target) => rule.forbidden.filter((f) => target.startsWith(f.prefix)).map((f) => `${file} imports ${target}: ${f.why}`)),
    )
    expect(found).toEqual([])
  })
})
