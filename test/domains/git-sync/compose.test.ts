import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import type { DocBlock } from '../../../src/domains/content/document.js'
import { loadFigures } from '../../../src/domains/git-sync/gitbook/figure.js'
import { readGitbookMarkdown, readGitbookSource } from '../../../src/domains/git-sync/gitbook/markdown.js'
import { alignUnits, composePage, composeSummary } from '../../../src/domains/git-sync/layout/compose.js'

/**
 * A page file written back in its own style (layout/compose.ts): generated markdown in the styles
 * real repositories use (bullets `*` `-` `+`, 2 or 4 spaces of nesting, `__bold__` and `**bold**`,
 * `_x_` and `*x*`, aligned tables, deep and setext headings, HTML comments and blocks, reference
 * links and their definitions, GitHub alerts, `~~~` and indented code, `***` `___` rules, CRLF).
 * Unchanged, it comes back byte for byte; with one block changed, every other part of the file
 * stays as written and the file reads as the changed page.
 */

// Figures' HTML utilities load on first use: Git Sync's jobs and tasks await this before reading markdown.
beforeAll(() => loadFigures())

const word = fc.constantFrom('alpha', 'beta', 'gamma', 'delta', 'docs', 'API', 'token', 'users')
const words = fc.array(word, { minLength: 1, maxLength: 5 }).map((w) => w.join(' '))
const strong = fc.tuple(fc.constantFrom('__', '**'), word).map(([m, w]) => `${m}${w}${m}`)
const em = fc.tuple(fc.constantFrom('_', '*'), word).map(([m, w]) => `${m}${w}${m}`)
const inline = fc
  .array(
    fc.oneof(
      words,
      strong,
      em,
      word.map((w) => `\`${w}\``),
      word.map((w) => `[${w}](https://example.com/${w})`),
    ),
    {
      minLength: 1,
      maxLength: 4,
    },
  )
  .map((parts) => parts.join(' '))

/** One block of markdown and, for reference links, the definitions it needs (written at the end of the file). */
type Piece = { text: string; definitions?: string[] }
const pieces: fc.Arbitrary<Piece> = fc.oneof(
  inline.map((text) => ({ text })),
  fc.tuple(fc.integer({ min: 2, max: 6 }), words).map(([depth, text]) => ({ text: `${'#'.repeat(depth)} ${text}` })),
  fc.tuple(words, fc.constantFrom('=', '-')).map(([text, line]) => ({ text: `${text}\n${line.repeat(text.length)}` })),
  fc
    .tuple(fc.constantFrom('*', '-', '+'), fc.constantFrom(2, 4), fc.array(inline, { minLength: 1, maxLength: 3 }), fc.option(inline))
    .map(([bullet, indent, items, nested]) => ({
      text: items.map((item, i) => `${bullet} ${item}${i === 0 && nested !== null ? `\n${' '.repeat(indent)}${bullet} ${nested}` : ''}`).join('\n'),
    })),
  fc.tuple(fc.constantFrom('.', ')'), fc.integer({ min: 1, max: 3 }), fc.array(words, { minLength: 1, maxLength: 3 })).map(([delim, start, items]) => ({
    text: items.map((item, i) => `${start + i}${delim} ${item}`).join('\n'),
  })),
  fc
    .tuple(fc.array(fc.constantFrom(':---', ':---:', '---:', '---'), { minLength: 1, maxLength: 3 }), fc.array(word, { minLength: 3, maxLength: 3 }))
    .map(([align, cells]) => ({
      text: [`| ${align.map((_, i) => cells[i]).join(' | ')} |`, `|${align.join('|')}|`, `| ${align.map(() => 'x').join(' | ')} |`].join('\n'),
    })),
  words.map((text) => ({ text: `<!-- ${text} -->` })),
  words.map((text) => ({ text: `<details>\n<summary>${text}</summary>\n\nMore.\n\n</details>` })),
  word.map((w) => ({ text: `See [the ${w}][${w}-ref].`, definitions: [`[${w}-ref]: https://example.com/ref/${w}`] })),
  fc.tuple(fc.constantFrom('NOTE', 'TIP', 'IMPORTANT', 'WARNING', 'CAUTION'), words).map(([kind, text]) => ({ text: `> [!${kind}]\n> ${text}` })),
  fc.tuple(fc.constantFrom('```', '~~~'), words).map(([fence, code]) => ({ text: `${fence}js\n${code}\n${fence}` })),
  words.map((code) => ({ text: `    ${code}` })),
  fc.constantFrom('***', '___', '* * *').map((text) => ({ text })),
  words.map((text) => ({ text: `{% hint style="warning" %}\n${text}\n{% endhint %}` })),
)

const files = fc
  .record({
    title: words,
    description: fc.option(words),
    pieces: fc.array(pieces, { minLength: 1, maxLength: 10 }),
    crlf: fc.boolean(),
    finalNewline: fc.boolean(),
  })
  .map(({ title, description, pieces, crlf, finalNewline }) => {
    const head = `${description !== null ? `---\ndescription: ${description}\n---\n\n` : ''}# ${title}\n`
    const definitions = pieces.flatMap((p) => p.definitions ?? [])
    const body = [...pieces.map((p) => p.text), ...(definitions.length ? [definitions.join('\n')] : [])].join('\n\n')
    let text = `${head}\n${body}${finalNewline ? '\n' : ''}`
    if (crlf) text = text.replace(/\n/g, '\r\n')
    return { text, head, pieces: pieces.length }
  })

const read = (text: string) => readGitbookMarkdown(text)

describe('a page file written back in its own style', () => {
  it('unchanged, comes back byte for byte, whatever its style', () => {
    fc.assert(
      fc.property(files, ({ text, head }) => {
        const { document } = read(text)
        expect(composePage(text, head, document, 'page.md', '')).toBe(text)
      }),
      { numRuns: 150 },
    )
  })

  it('with one block changed: that block alone is written anew, every other part stays as written', () => {
    fc.assert(
      fc.property(files, fc.nat(), ({ text, head }, at) => {
        const { document } = read(text)
        const paragraphs = document.nodes.map((b, i) => [b, i] as const).filter(([b]) => b.type === 'paragraph')
        fc.pre(paragraphs.length > 0)
        const [, index] = paragraphs[at % paragraphs.length]!
        const changed: DocBlock = {
          object: 'block',
          type: 'paragraph',
          data: {},
          nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Changed text.', marks: [] }] }],
        }
        const next = { ...document, nodes: document.nodes.map((b, i) => (i === index ? changed : b)) }
        const out = composePage(text, head, next, 'page.md', '')
        expect(out).toBeDefined()
        // It reads as the changed page.
        const back = read(out!)
        expect(JSON.stringify(back.document.nodes, (k, v: unknown) => (k === 'key' ? undefined : v))).toBe(
          JSON.stringify(next.nodes, (k, v: unknown) => (k === 'key' ? undefined : v)),
        )
        // Every other unit of the file is there as written.
        const source = readGitbookSource(text)
        let blockIndex = 0
        for (const unit of source.units) {
          const mine = blockIndex <= index && index < blockIndex + unit.blocks.length
          blockIndex += unit.blocks.length
          if (!mine) expect(out).toContain(text.slice(unit.start, unit.end))
        }
        expect(out).toContain('Changed text.')
      }),
      { numRuns: 150 },
    )
  })

  it('HTML comments never reach the document, and a title after them is the title', () => {
    const { document, title } = read('<!-- AUTOMATICALLY GENERATED, DO NOT MODIFY -->\n\n# Users\n\nText <!-- note --> here.\n\n<!--\nmany\nlines\n-->\n')
    expect(title).toBe('Users')
    expect(JSON.stringify(document)).not.toContain('<!--')
    expect(document.nodes).toHaveLength(1)
  })

  it('aligns the longest common run past a common prefix and suffix', () => {
    expect([...alignUnits(['a', 'b', 'c', 'd'], ['a', 'x', 'c', 'd'])].sort()).toEqual([
      [0, 0],
      [2, 2],
      [3, 3],
    ])
    expect([...alignUnits(['a', 'b', 'c'], ['b', 'c', 'a'])].sort()).toEqual([
      [0, 1],
      [1, 2],
    ])
  })
})

describe('a SUMMARY.md written back in its own style', () => {
  it('keeps its title, bullet, indentation-free labels as written for entries that did not change', () => {
    const existing = '# Summary\n\n- [Intro](README.md)\n- [~~Legacy~~ API](api.md)\n  - [__Users__](users.md)\n'
    const next = '# Table of contents\n\n* [Intro](README.md)\n* [Legacy API](api.md)\n  * [Users](users.md)\n* [New](new.md)\n'
    expect(composeSummary(existing, next, 'SUMMARY.md')).toBe(
      '# Summary\n\n- [Intro](README.md)\n- [~~Legacy~~ API](api.md)\n  - [__Users__](users.md)\n- [New](new.md)\n',
    )
  })
})
