import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Options } from 'tsup'
import { describe, expect, it } from 'vitest'
import configs from '../../tsup.config.js'
import { SERVE_NODE_FLAGS } from '../../src/cli/node-flags.js'

const root = resolve(import.meta.dirname, '../..')
const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>
  files: string[]
  license: string
  exports: Record<string, string | Record<string, { types: string; default: string }>>
  repository?: { url: string }
  homepage?: string
  bugs?: { url: string }
  keywords?: string[]
}
const tsup = [configs].flat() as Options[]

// What `npm pack` ships is built when it packs (scripts/check-package.sh proves it end to end on
// the real tarball in CI); these checks are the cheap, offline part of it.
describe('package.json', () => {
  it('builds dist when packed or installed from git (`prepare`), and ships it with the license', () => {
    expect(pkg.scripts.prepare).toMatch(/\bnpm run build\b/)
    expect(pkg.files).toEqual(expect.arrayContaining(['dist', 'LICENSE', 'README.md']))
    expect(pkg.license).toBe('MIT')
    expect(readFileSync(resolve(root, 'LICENSE'), 'utf8')).toMatch(/^MIT License/)
  })

  it('says where the project lives', () => {
    expect(pkg.repository?.url).toMatch(/^git\+https:\/\/github\.com\//)
    expect(pkg.homepage).toMatch(/^https:\/\//)
    expect(pkg.bugs?.url).toMatch(/^https:\/\//)
    expect(pkg.keywords?.length).toBeGreaterThan(0)
  })

  it('every export path points at files tsup builds, for import and require, with types', () => {
    // The command line (`bin`) is an entry of its own, not an export path; so is the script of the
    // offload's worker threads, which the node entry starts from the file next to it.
    const entries = new Set(tsup.flatMap((c) => Object.keys(c.entry as Record<string, string>)).filter((e) => e !== 'cli' && e !== 'offload-worker'))
    const formats = new Set(tsup.filter((c) => !(typeof c.dts === 'object' && c.dts.only)).flatMap((c) => [c.format].flat()))
    const dts = tsup.some((c) => typeof c.dts === 'object' && c.dts.only && [c.format].flat().includes('cjs'))
    expect(formats).toEqual(new Set(['esm', 'cjs']))
    expect(dts).toBe(true)
    const subpaths = Object.keys(pkg.exports).filter((k) => k !== './package.json')
    expect(subpaths.length).toBe(entries.size)
    for (const subpath of subpaths) {
      const name = subpath === '.' ? 'index' : subpath.slice(2)
      expect(entries, `tsup entry for ${subpath}`).toContain(name)
      expect(pkg.exports[subpath]).toEqual({
        import: { types: `./dist/${name}.d.ts`, default: `./dist/${name}.js` },
        require: { types: `./dist/${name}.d.cts`, default: `./dist/${name}.cjs` },
      })
    }
  })

  it('the bin is the command line tsup builds, a Node script run with the Node flags of serve; npm start passes them too', () => {
    expect((pkg as { bin?: unknown }).bin).toEqual({ 'docs-content-api': './dist/cli.js' })
    const cli = tsup.find((c) => Object.keys(c.entry as Record<string, string>).includes('cli'))!
    expect(cli.format).toBe('esm')
    expect(SERVE_NODE_FLAGS).toContain('--max-semi-space-size=4')
    expect(SERVE_NODE_FLAGS).toContain('--heap-growing-percent=50')
    expect(cli.banner).toEqual({ js: `#!/usr/bin/env -S node ${SERVE_NODE_FLAGS.join(' ')}` })
    expect(pkg.scripts.start).toBe(`node ${SERVE_NODE_FLAGS.join(' ')} --import tsx src/cli/bin.ts serve --cors`)
  })

  it('ships no source maps', () => {
    for (const config of tsup) expect(config.sourcemap ?? false).toBe(false)
  })
})
