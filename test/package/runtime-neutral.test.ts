import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const src = resolve(import.meta.dirname, '../../src')

/** Where Node built-ins and better-sqlite3 may be imported: the Node-only entries and the command line. */
const NODE_ONLY = [/^node\//, /^node\.ts$/, /^sqlite\//, /^sqlite\.ts$/, /^cli\//]

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []))
}

describe('src stays runtime-neutral outside its Node-only entries', () => {
  it('no node: module, no better-sqlite3, and no import of the Node-only code, from the rest of src', () => {
    const offending: string[] = []
    for (const file of files(src)) {
      const path = relative(src, file)
      if (NODE_ONLY.some((re) => re.test(path))) continue
      const text = readFileSync(file, 'utf8')
      for (const m of text.matchAll(/(?:from|import|require)\s*\(?\s*'([^']+)'/g)) {
        const target = m[1]!
        if (target.startsWith('node:') || target === 'better-sqlite3' || /(^|\/)(node|sqlite|cli)(\/|\.js$)/.test(target)) offending.push(`${path}: ${target}`)
      }
    }
    expect(offending).toEqual([])
  })
})
