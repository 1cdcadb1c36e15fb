import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import remarkGfm from 'remark-gfm'
import remarkParse from 'remark-parse'
import { unified } from 'unified'
import { describe, expect, it } from 'vitest'

// The documentation's relative links lead somewhere: every link of README.md, CHANGELOG.md,
// bench/README.md and docs/**/*.md to a file names a file that exists, and a link with a
// `#heading` names a heading of that file, as GitHub makes its anchors. Links are read by a
// markdown parser, so code spans and code blocks (where `[x](y)` is text) are not links.

const root = resolve(import.meta.dirname, '../..')

interface MdNode {
  type: string
  url?: string
  value?: string
  depth?: number
  children?: MdNode[]
  position?: { start: { line: number } }
}

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return markdownFiles(path)
    return name.endsWith('.md') ? [path] : []
  })
}

const FILES = [resolve(root, 'README.md'), resolve(root, 'CHANGELOG.md'), resolve(root, 'bench/README.md'), ...markdownFiles(resolve(root, 'docs'))]

const parser = unified().use(remarkParse).use(remarkGfm)
const trees = new Map<string, MdNode>()
function treeOf(file: string): MdNode {
  let tree = trees.get(file)
  if (!tree) trees.set(file, (tree = parser.parse(readFileSync(file, 'utf8')) as MdNode))
  return tree
}

function walk(node: MdNode, visit: (node: MdNode) => void): void {
  visit(node)
  for (const child of node.children ?? []) walk(child, visit)
}

/** The text a heading shows (inline code without its backticks, links by their text). */
function textOf(node: MdNode): string {
  if (node.type === 'text' || node.type === 'inlineCode') return node.value ?? ''
  return (node.children ?? []).map(textOf).join('')
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens; a repeated one gets -1, -2... */
function githubSlug(text: string, seen: Map<string, number>): string {
  const base = text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-')
  const n = seen.get(base) ?? 0
  seen.set(base, n + 1)
  return n === 0 ? base : `${base}-${n}`
}

function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>()
  const anchors = new Set<string>()
  walk(treeOf(file), (node) => {
    if (node.type === 'heading') anchors.add(githubSlug(textOf(node), seen))
  })
  return anchors
}

/** Every link of a file that is not to another site (no scheme, no `//host`), with its line. */
function relativeLinks(file: string): Array<{ url: string; line: number }> {
  const links: Array<{ url: string; line: number }> = []
  walk(treeOf(file), (node) => {
    if ((node.type === 'link' || node.type === 'image' || node.type === 'definition') && node.url !== undefined) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(node.url) || node.url.startsWith('//')) return
      links.push({ url: node.url, line: node.position?.start.line ?? 0 })
    }
  })
  return links
}

/** What is wrong with a link of `file` to `url`, or undefined when it leads somewhere. */
function brokenLink(file: string, url: string): string | undefined {
  const hash = url.indexOf('#')
  const path = decodeURIComponent(hash === -1 ? url : url.slice(0, hash))
  const anchor = hash === -1 ? undefined : decodeURIComponent(url.slice(hash + 1))
  const target = path === '' ? file : path.startsWith('/') ? join(root, path) : resolve(dirname(file), path)
  if (!existsSync(target)) return `no file ${relative(root, target)}`
  if (anchor === undefined || !target.endsWith('.md')) return undefined
  return anchorsOf(target).has(anchor) ? undefined : `no heading #${anchor} in ${relative(root, target)}`
}

describe('links of the documentation', () => {
  it('reads the files it should', () => {
    const names = FILES.map((f) => relative(root, f))
    expect(names).toEqual(expect.arrayContaining(['README.md', 'CHANGELOG.md', 'docs/reference/operations.md', 'docs/behaviour/everywhere.md']))
    expect(names.filter((n) => n.startsWith('docs/guide/')).length).toBeGreaterThanOrEqual(5)
  })

  it.each(FILES.map((f) => [relative(root, f), f]))('%s: every relative link names a file that exists, and a heading of it', (_name, file) => {
    const broken = relativeLinks(file)
      .map(({ url, line }) => ({ url, line, why: brokenLink(file, url) }))
      .filter((l) => l.why !== undefined)
      .map((l) => `line ${l.line}: (${l.url}) ${l.why}`)
    expect(broken).toEqual([])
  })

  it('anchors are made as GitHub makes them', () => {
    const seen = new Map<string, number>()
    expect(githubSlug('State documents (dump, seed, load)', seen)).toBe('state-documents-dump-seed-load')
    expect(githubSlug('Garbage collection and --max-semi-space-size', seen)).toBe('garbage-collection-and---max-semi-space-size')
    expect(githubSlug('The durable-storage measures (bench/durable.ts)', seen)).toBe('the-durable-storage-measures-benchdurablets')
    expect(githubSlug('State documents (dump, seed, load)', seen)).toBe('state-documents-dump-seed-load-1')
    // A broken link is found: a missing file, a missing heading.
    const readme = resolve(root, 'README.md')
    expect(brokenLink(readme, 'docs/nothing.md')).toBe('no file docs/nothing.md')
    expect(brokenLink(readme, 'docs/reference/errors.md#no-such-heading')).toBe('no heading #no-such-heading in docs/reference/errors.md')
    expect(brokenLink(readme, 'docs/reference/errors.md#statuses')).toBeUndefined()
  })

  it('the documentation files tests and sources cite exist (tests cite behaviour notes by file)', () => {
    const cited = new Set<string>()
    const sources = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const path = join(dir, name)
        if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : sources(path)
        return /\.(ts|mts)$/.test(name) ? [path] : []
      })
    // Only the project's documentation folders (Git Sync tests build repositories with a docs/ of their own); this file names missing files on purpose.
    const files = [...sources(resolve(root, 'test')), ...sources(resolve(root, 'src'))].filter((f) => f !== import.meta.filename)
    for (const file of files) {
      for (const [path] of readFileSync(file, 'utf8').matchAll(/\bdocs\/(?:behaviour|guide|reference)\/[\w.-]+\.md\b/g)) cited.add(path)
    }
    expect(cited.size).toBeGreaterThan(0)
    expect([...cited].filter((path) => !existsSync(resolve(root, path)))).toEqual([])
  })
})
