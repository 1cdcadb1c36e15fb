import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import remarkFrontmatter from 'remark-frontmatter'
import remarkGfm from 'remark-gfm'
import remarkParse from 'remark-parse'
import { unified } from 'unified'
import { beforeAll, describe, expect, it } from 'vitest'
import { loadFigures } from '../../../src/domains/git-sync/gitbook/figure.js'
import { MarkdownError, markdownToDocument } from '../../../src/domains/content/markdown.js'
import { MAX_INLINE_MARKUP, MAX_LAZY_LINES, markdownBudget, withinBudget } from '../../../src/domains/content/markdown/budget.js'
import { readGitbookMarkdown } from '../../../src/domains/git-sync/gitbook/markdown.js'
import { parseSummary } from '../../../src/domains/git-sync/layout/summary.js'
import { call, createWorld, expectError } from '../../helpers.js'
import { markdownShape, parseCostRatio, prose, type MarkdownShape } from '../../fuzz/pathological.js'
import { FUZZ_SEED } from '../../fuzz/config.js'

// unified and remark load on first use (content/markdown-libs.ts); the functions tested here are called directly.
beforeAll(() => loadFigures())

/**
 * Markdown parses in time proportional to its length (content/markdown/budget.ts): generated
 * worst cases (test/fuzz/pathological.ts) against ordinary prose of the same size, as ratios of
 * parse times measured side by side, never absolute times. Before the budget, `*a` × 16,000 took
 * some 400 times as long as prose of its size, and the ratio grew with the size (quadratic).
 */

const page = (markdown: string) => markdownToDocument(markdown, { takeTitle: true })
const gitbook = (markdown: string) => readGitbookMarkdown(markdown, { takeTitle: true })

/**
 * The cost of a shape against prose at two sizes four times apart: a linear parse costs about
 * the same per byte at both (its ratio to prose stays put, or falls as fixed costs fade), a
 * quadratic one four times more per byte at the larger.
 */
function growth(parse: (markdown: string) => unknown, shape: MarkdownShape): { atSmall: number; atLarge: number } {
  const atSmall = parseCostRatio(parse, shape.make(SMALL), prose(SMALL))
  const atLarge = parseCostRatio(parse, shape.make(SMALL * 4), prose(SMALL * 4))
  return { atSmall, atLarge }
}

/**
 * A busy machine (CI runs test files side by side) can slow one timing of a pair: a shape past a
 * bound is measured again, up to three times in all, and the best of the tries counts. A
 * quadratic parse stays past the bound at every try.
 */
function expectLinear(name: string, parse: (markdown: string) => unknown, shape: MarkdownShape): void {
  let { atSmall, atLarge } = growth(parse, shape)
  const within = () => atLarge < MAX_RATIO && atLarge / Math.max(atSmall, 1) < MAX_GROWTH
  for (let tries = 1; tries < 3 && !within(); tries++) ({ atSmall, atLarge } = growth(parse, shape))
  const what = `${name} parser, ${shape.name}: ${atSmall.toFixed(1)}× prose at ${SMALL} bytes, ${atLarge.toFixed(1)}× at ${SMALL * 4}`
  expect(atLarge, what).toBeLessThan(MAX_RATIO)
  expect(atLarge / Math.max(atSmall, 1), what).toBeLessThan(MAX_GROWTH)
}

const repeat = (unit: string, bytes: number) => unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes)
/** The inputs of the issue and of the budget's comments, by name, and the parsers they reach. */
const NAMED: Array<MarkdownShape & { parsers?: 'all' }> = [
  { name: '*a (the issue: 200 KB did not finish in 300 s)', make: (n) => repeat('*a', n), parsers: 'all' },
  { name: '**a (the issue: 96 KB held the server 17–29 s)', make: (n) => repeat('**a', n), parsers: 'all' },
  { name: 'a* ', make: (n) => repeat('a* ', n) },
  { name: '~~a', make: (n) => repeat('~~a', n) },
  { name: '[ then ]', make: (n) => '['.repeat(n / 2) + 'a' + ']'.repeat(n / 2) },
  { name: '[a', make: (n) => repeat('[a', n) },
  { name: '](', make: (n) => repeat('](', n) },
  {
    name: 'code spans of growing length',
    make: (n) => {
      let s = ''
      for (let k = 1; s.length < n; k++) s += '`'.repeat(k) + 'a'
      return s.slice(0, n)
    },
  },
  { name: 'unclosed HTML comments', make: (n) => repeat('a <!--', n) },
  { name: '_www.a (GFM URL search)', make: (n) => repeat('_www.a', n) },
  { name: 'lines cut in two', make: (n) => repeat('a b\n', n) },
  { name: 'nested list pairs', make: (n) => repeat('- a\n  - b\n', n), parsers: 'all' },
  { name: 'quotes in list items', make: (n) => repeat('- > a\n', n) },
  { name: 'setext headings', make: (n) => repeat('a\n=\n', n) },
  {
    name: 'definitions then references',
    make: (n) => {
      let s = ''
      for (let i = 0; s.length < n / 2; i++) s += `[d${i}]: /u\n`
      return s + '\n' + repeat('[d1] ', n / 2)
    },
  },
  {
    name: 'nested hints (GitBook)',
    make: (n) => {
      const k = Math.max(1, Math.floor(n / 38))
      return '{% hint style="info" %}\n'.repeat(k) + 'a\n' + '{% endhint %}\n'.repeat(k)
    },
    parsers: 'all',
  },
]

/**
 * Sizes and bounds: before the budget, `*a` at 16,000 bytes cost some 400 times prose, and four
 * times more per byte at four times the size; after it, the worst shape measured costs 30 times
 * prose (many small blocks), the same at both sizes.
 */
const SMALL = 4_000
const MAX_RATIO = 80
const MAX_GROWTH = 3

describe('markdown budget: linear time', () => {
  for (const shape of NAMED) {
    it(`${shape.name}: its cost per byte does not grow with the size`, () => {
      expectLinear('page', page, shape)
      if (shape.parsers === 'all') {
        expectLinear('comment', (markdown) => markdownToDocument(markdown, { takeTitle: false, frontmatter: false }), shape)
        expectLinear('GitBook (Git Sync)', gitbook, shape)
        expectLinear('SUMMARY.md', parseSummary, shape)
      }
    }, 120_000)
  }

  it('generated worst cases (inline and block shapes, seeded mixtures): the same, for the page and GitBook parsers', () => {
    fc.assert(
      fc.property(markdownShape, fc.boolean(), (shape, git) => expectLinear(git ? 'GitBook (Git Sync)' : 'page', git ? gitbook : page, shape)),
      { numRuns: 16, seed: FUZZ_SEED },
    )
  }, 300_000)

  it(`a quote or list item continued lazily on more than ${MAX_LAZY_LINES} lines is refused, naming the line; ${MAX_LAZY_LINES} are read`, () => {
    const lazy = (lines: number) => `> a\n${'b\n'.repeat(lines - 1)}b`
    expect(page(lazy(MAX_LAZY_LINES)).document.nodes[0]!.type).toBe('blockquote')
    expect(() => page(lazy(MAX_LAZY_LINES + 1))).toThrow(MarkdownError)
    expect(() => page(lazy(MAX_LAZY_LINES + 1))).toThrow(/more than 200 lines: line \d+ is one too many/)
  })

  it(`past ${MAX_INLINE_MARKUP} markup characters, the rest of a paragraph is text, its markup kept as written`, () => {
    const markdown = `${'*a* '.repeat(MAX_INLINE_MARKUP / 2 + 10)}\n`
    const paragraph = page(markdown).document.nodes[0] as { nodes: Array<{ leaves: Array<{ text: string; marks?: Array<{ type: string }> }> }> }
    const leaves = paragraph.nodes.flatMap((n) => n.leaves)
    const italic = leaves.filter((l) => l.marks?.some((m) => m.type === 'italic'))
    expect(italic.length).toBe(MAX_INLINE_MARKUP / 2)
    expect(leaves.at(-1)!.text).toContain('*a* *a* ')
    expect(leaves.map((l) => l.text).join('')).toHaveLength(markdown.trim().length - 2 * italic.length)
  })
})

/** Every markdown file of node_modules under 200 KB (READMEs, changelogs, docs of the packages this repository installs). */
function realMarkdown(limit: number): Array<{ file: string; text: string }> {
  const out: Array<{ file: string; text: string }> = []
  const walk = (dir: string, depth: number) => {
    if (out.length >= limit || depth > 6) return
    let entries: string[]
    try {
      entries = readdirSync(dir).sort()
    } catch {
      return
    }
    for (const entry of entries) {
      if (out.length >= limit) return
      const path = join(dir, entry)
      let stats
      try {
        stats = statSync(path)
      } catch {
        continue
      }
      if (stats.isDirectory()) walk(path, depth + 1)
      else if (/\.md$/i.test(entry) && stats.size > 200 && stats.size < 200_000) out.push({ file: path, text: readFileSync(path, 'utf8') })
    }
  }
  walk(join(process.cwd(), 'node_modules'), 0)
  return out
}

describe('markdown budget: realistic markdown reads as without it', () => {
  const plain = unified().use(remarkParse).use(remarkGfm).use(remarkFrontmatter, ['yaml'])
  const budgeted = unified().use(remarkParse).use(remarkGfm).use(remarkFrontmatter, ['yaml']).use(markdownBudget)
  it('the same syntax tree, positions included, for the markdown files of node_modules', () => {
    const files = realMarkdown(400)
    expect(files.length).toBeGreaterThan(100)
    for (const { file, text } of files) {
      const expected = JSON.stringify(plain.runSync(plain.parse(text)))
      const actual = JSON.stringify(withinBudget(() => budgeted.runSync(budgeted.parse(text))))
      expect(actual === expected, file).toBe(true)
    }
  }, 120_000)
})

describe('markdown budget: through the API', () => {
  it('a comment of `*a` × 100,000 (200 KB) is stored; one continued lazily on 300 lines is a 400 naming the field and nothing is written', async () => {
    const w = await createWorld()
    const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Handbook' })
    const res = await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/comments`, { body: { markdown: '*a'.repeat(100_000) } })
    expect(res.status).toBe(200)
    const before = (await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${space.id}/comments`)).body.items.length
    expectError(
      await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/comments`, { body: { markdown: '> a\n' + 'b\n'.repeat(300) } }),
      400,
      'body field `body.markdown`',
    )
    expect((await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${space.id}/comments`)).body.items.length).toBe(before)
  }, 60_000)
})
