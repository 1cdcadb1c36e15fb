import type { BlockContent, Nodes, Parent, Root, RootContent } from 'mdast'
import type { Processor } from 'unified'
import { markdownLibraries, onceLoaded } from '../../content/markdown-libs.js'
import type { DocBlock, JsonDocument } from '../../content/document.js'
import {
  documentToMdast,
  MARKDOWN_STYLE,
  markdownToDocument,
  readMarkdownSource,
  type MarkdownImport,
  type MarkdownSource,
  type SerializeOptions,
} from '../../content/markdown.js'
import { blocksFrom } from '../../content/markdown/blocks-from.js'
import { blocksTo } from '../../content/markdown/blocks-to.js'
import { markdownBudget, withinBudget } from '../../content/markdown/budget.js'
import type { ParseContext } from '../../content/markdown/inline-from.js'
import { allows, block, type Container, dataOf, leaf, nodeText, paragraph } from '../../content/markdown/nodes.js'
import { imageRef, linkRef, refUrl } from '../../content/markdown/refs.js'
import { figuresFrom, figuresTo, hasCaption } from './figure.js'
import { tagFromMarkdown, tagLine, tagSyntax, tagToMarkdown, type GitbookTag } from './tag-syntax.js'

/**
 * GitBook-flavoured markdown, as GitBook's own Git Sync writes it, around the shared conversion
 * (content/markdown.ts): `{% hint style %}`, `{% tabs %}`/`{% tab title %}`, `{% file src %}`,
 * `{% embed url %}`, `{% code title %}` and `{% content-ref url %}` become hint, tabs, file,
 * embed, code and content-ref blocks, `{% include "path" %}` a reusable content block, `<figure>` image blocks with captions (figure.ts); on
 * export they are written back in the same syntax, so an import then an export changes nothing.
 * Everything else is the shared conversion's: plain markdown bodies of the API are not touched.
 * An unknown tag (`{% stepper %}`) stays a paragraph of its text, written back as it was.
 */

/** A tag and what stands between it and its `end…` tag. */
interface GitbookBlock extends Parent {
  type: 'gitbookBlock'
  name: string
  attributes: Array<[string, string]>
  children: RootContent[]
}

declare module 'mdast' {
  interface RootContentMap {
    gitbookBlock: GitbookBlock
  }
}

/** Tags that open a block closed by `end<name>`; `file` and `embed` may also stand alone. */
const PAIRED = new Set(['hint', 'tabs', 'tab', 'file', 'embed', 'code', 'content-ref'])
const ALONE = new Set(['file', 'embed'])
const HINT_STYLES = new Set(['info', 'warning', 'danger', 'success'])
/** The block each tag makes. */
const BLOCK_TYPES = new Map([
  ['hint', 'hint'],
  ['tabs', 'tabs'],
  ['file', 'file'],
  ['embed', 'embed'],
  ['code', 'code'],
  ['content-ref', 'content-ref'],
])

function gitbookSyntax(this: Processor) {
  const data = this.data()
  ;(data.micromarkExtensions ??= []).push(tagSyntax)
  ;(data.fromMarkdownExtensions ??= []).push(tagFromMarkdown)
  ;(data.toMarkdownExtensions ??= []).push({
    ...tagToMarkdown,
    // GitBook writes a tag on the line next to what it wraps, and blank lines between blocks
    // (after an end tag, around a tag standing alone): `{% tabs %}` `{% tab %}` … `{% endtab %}`, blank, `{% tab %}`.
    join: [
      (left, right) => {
        if (isOpening(left)) return 0
        if (isClosing(right)) return left.type === 'table' ? undefined : 0
        return undefined
      },
    ],
  })
}

/** A tag that opens a block it wraps (not an end tag, nor a file or embed standing alone). */
const isOpening = (node: Nodes) => node.type === 'gitbookTag' && !node.name.startsWith('end') && !(node as GitbookTag & { alone?: boolean }).alone
const isClosing = (node: Nodes) => node.type === 'gitbookTag' && node.name.startsWith('end')

// Made on first use: unified and remark load on first use (content/markdown-libs.ts, loadFigures).
const parser = onceLoaded(({ unified, remarkParse, remarkGfm, remarkFrontmatter }) =>
  unified().use(remarkParse).use(remarkGfm).use(remarkFrontmatter, ['yaml']).use(gitbookSyntax).use(markdownBudget),
)
const writer = onceLoaded(({ unified, remarkStringify, remarkGfm }) => unified().use(remarkStringify, MARKDOWN_STYLE).use(remarkGfm).use(gitbookSyntax))
type Writer = ReturnType<typeof writer>

/** The markers a file writes (`__bold__`, `_italic_`, `*` bullets, `~~~` fences): new parts of a changed page are written alike. */
export interface MarkdownMarkers {
  strong?: '*' | '_'
  emphasis?: '*' | '_'
  bullet?: '*' | '-' | '+'
  fence?: '`' | '~'
}

const styledWriters = new Map<string, Writer>()
function writerFor(markers: MarkdownMarkers | undefined): Writer {
  if (!markers || Object.keys(markers).length === 0) return writer()
  const key = JSON.stringify(markers)
  let styled = styledWriters.get(key)
  if (!styled) {
    const { unified, remarkStringify, remarkGfm } = markdownLibraries.get()
    styled = unified()
      .use(remarkStringify, { ...MARKDOWN_STYLE, ...markers })
      .use(remarkGfm)
      .use(gitbookSyntax) as unknown as Writer
    styledWriters.set(key, styled)
  }
  return styled
}

/** How much of a file markersOf reads. */
const MARKERS_SAMPLE = 16_384

/** The markers most used in a file's text, where it uses any (counted over its lines; a tie keeps the default). */
export function markersOf(file: string): MarkdownMarkers {
  // The head of the file tells its style; a bounded read keeps the lazy patterns below linear in practice.
  const text = file.slice(0, MARKERS_SAMPLE)
  const count = (re: RegExp) => (text.match(re) ?? []).length
  const out: MarkdownMarkers = {}
  const under = count(/(^|[^\w_])__[^\s_]/g)
  const stars = count(/(^|[^\w*])\*\*[^\s*]/g)
  if (under > stars) out.strong = '_'
  const underEm = count(/(^|[^\w_])_[^\s_][^_\n]{0,200}?[^\s_\\]_(?![\w_])/g)
  const starEm = count(/(^|[^\w*])\*[^\s*][^*\n]{0,200}?[^\s*\\]\*(?![\w*])/g)
  if (underEm > starEm) out.emphasis = '_'
  const bullets = { '*': count(/^[ \t]*\*[ \t]+\S/gm), '-': count(/^[ \t]*-[ \t]+\S/gm), '+': count(/^[ \t]*\+[ \t]+\S/gm) }
  const bullet = (Object.keys(bullets) as Array<keyof typeof bullets>).reduce((a, b) => (bullets[b] > bullets[a] ? b : a), '-')
  if (bullet !== '-') out.bullet = bullet
  if (count(/^[ \t]*~~~/gm) > count(/^[ \t]*```/gm)) out.fence = '~'
  return out
}

/**
 * Pair each opening tag with its `end…` tag among its siblings (nested tags of one name counted),
 * at every level: an opening tag pairs with the first `end…` after it that closes as many tags of
 * its name as opened in between, found for all tags of a list at once with a stack per name (so a
 * list of many tags is read once, not once per tag), then used where it falls inside the range
 * being paired (a pair inside another never reaches past it).
 */
function pairTags(parent: Parent): void {
  const kids = parent.children as RootContent[]
  const ends = new Map<number, number>()
  const open = new Map<string, number[]>()
  kids.forEach((node, i) => {
    if (node.type !== 'gitbookTag') return
    if (PAIRED.has(node.name)) {
      const stack = open.get(node.name) ?? []
      open.set(node.name, stack)
      stack.push(i)
    } else if (node.name.startsWith('end')) {
      const at = open.get(node.name.slice(3))?.pop()
      if (at !== undefined) ends.set(at, i)
    }
  })
  parent.children = pairRange(kids, 0, kids.length, ends) as Parent['children']
}

function pairRange(kids: RootContent[], from: number, to: number, ends: ReadonlyMap<number, number>): RootContent[] {
  const out: RootContent[] = []
  for (let i = from; i < to; i++) {
    const node = kids[i]!
    if (node.type === 'gitbookTag' && PAIRED.has(node.name)) {
      const end = ends.get(i)
      const paired = end !== undefined && end < to
      if (paired || ALONE.has(node.name)) {
        // Where it stands in the text: from its tag to its end tag (a changed page is written back from the parts that did not change).
        const last = paired ? kids[end]! : node
        out.push({
          type: 'gitbookBlock',
          name: node.name,
          attributes: node.attributes,
          children: paired ? pairRange(kids, i + 1, end, ends) : [],
          ...(node.position && last.position && { position: { start: node.position.start, end: last.position.end } }),
        })
        if (paired) i = end
        continue
      }
    }
    if ('children' in node) pairTags(node as Parent)
    out.push(node)
  }
  return out
}

function parse(markdown: string): Root {
  const tree = withinBudget(() => parser().parse(markdown) as Root)
  dropComments(tree)
  pairTags(tree)
  return tree
}

/** HTML comments alone (`<!-- … -->`, blank space between them). */
const isComment = (node: Nodes) => node.type === 'html' && node.value.trimStart().startsWith('<!--') && node.value.replace(/<!--[\s\S]*?-->/g, '').trim() === ''

/**
 * HTML comments are notes for the file's writers, never text for readers: they leave the document
 * (a page whose content did not change is written back from its file, comments and all; export-job.ts).
 */
function dropComments(node: Parent): void {
  if (!node.children.some(isComment) && !node.children.some((c) => 'children' in c)) return
  node.children = node.children.filter((c) => !isComment(c)) as Parent['children']
  for (const child of node.children) if ('children' in child) dropComments(child as Parent)
}

const attribute = (node: GitbookBlock, name: string) => node.attributes.find(([key]) => key === name)?.[1]

/** The plain text of blocks (a file's or an embed's caption). */
const captionOf = (blocks: DocBlock[]): string =>
  blocks
    .map(nodeText)
    .filter((t) => t !== '')
    .join('\n')

function blockFrom(node: RootContent, ctx: ParseContext, where: Container): DocBlock[] | undefined {
  if (node.type === 'html') {
    const figures = figuresFrom(node.value, ctx)
    if (!figures) return undefined
    // Where an images block cannot stand (a list item, a hint), the images go inline.
    return allows(where, 'images')
      ? figures
      : [
          paragraph(
            ctx,
            figures[0]!.nodes!.map((img) => ({ object: 'inline', type: 'inline-image', isVoid: true, data: dataOf(img as DocBlock) })),
          ),
        ]
  }
  // `{% include "../.gitbook/includes/x.md" %}`: a reusable content block naming the file as
  // written (the import resolves it to the reusable content read from that file, apply-import.ts).
  if (node.type === 'gitbookTag' && node.name === 'include') {
    const path = node.attributes.length === 1 && node.attributes[0]![0] === '' ? node.attributes[0]![1] : undefined
    if (path && allows(where, 'reusable-content'))
      return [block(ctx, 'reusable-content', { isVoid: true, data: { ref: { kind: 'reusable-content', reusableContent: path } } })]
  }
  // A tag that pairs with nothing, or of a kind not read: its text, as written.
  if (node.type === 'gitbookTag') return [paragraph(ctx, [leaf(node.value)])]
  if (node.type !== 'gitbookBlock') return undefined
  const inner = (container: Container) => blocksFrom(node.children, ctx, container)
  // Not allowed here: its content, as the shared rules would keep it (a file or embed that can be
  // read: nothing). Decided before the block is made, so nested blocks are read once, not once
  // for the block and again for its content (a hint in a hint in a hint… read 2^depth times).
  const type = BLOCK_TYPES.get(node.name)
  if (type === undefined || !allows(where, type)) {
    const readable = (node.name === 'file' && attribute(node, 'src') !== undefined) || (node.name === 'embed' && attribute(node, 'url') !== undefined)
    return readable ? [] : inner(where)
  }
  const made = ((): DocBlock | undefined => {
    switch (node.name) {
      case 'hint': {
        const style = attribute(node, 'style') ?? 'info'
        return block(ctx, 'hint', { data: { style: HINT_STYLES.has(style) ? style : 'info' }, nodes: inner('hint') })
      }
      case 'tabs': {
        const items = node.children.flatMap((tab) =>
          tab.type === 'gitbookBlock' && tab.name === 'tab'
            ? [block(ctx, 'tabs-item', { data: { title: attribute(tab, 'title') ?? '' }, nodes: blocksFrom(tab.children, ctx, 'tabs-item') })]
            : [],
        )
        return block(ctx, 'tabs', { nodes: items })
      }
      case 'file': {
        const src = attribute(node, 'src')
        if (src === undefined) return undefined
        const caption = captionOf(inner('document'))
        return block(ctx, 'file', { isVoid: true, data: { ref: imageRef(src), ...(caption && { caption }) } })
      }
      case 'embed': {
        const url = attribute(node, 'url')
        if (url === undefined) return undefined
        const caption = captionOf(inner('document'))
        return block(ctx, 'embed', { isVoid: true, data: { url, ...(caption && { caption }) } })
      }
      case 'code': {
        const [code, ...rest] = node.children
        if (code?.type !== 'code' || rest.length) return undefined
        const made = blocksFrom([code], ctx, 'document')[0]!
        const title = attribute(node, 'title')
        const overflow = attribute(node, 'overflow')
        const lineNumbers = attribute(node, 'lineNumbers')
        made.data = {
          ...made.data,
          ...(title !== undefined && { title }),
          ...((overflow === 'wrap' || overflow === 'scroll') && { overflow }),
          ...((lineNumbers === 'true' || lineNumbers === 'false') && { lineNumbers: lineNumbers === 'true' }),
        }
        return made
      }
      case 'content-ref': {
        const url = attribute(node, 'url')
        return url === undefined ? undefined : block(ctx, 'content-ref', { isVoid: true, data: { ref: linkRef(url) } })
      }
      default:
        return undefined
    }
  })()
  // Not readable as its block (no `src`...): its content.
  return made ? [made] : inner(where)
}

const tag = (name: string, attributes: Array<[string, string]> = []): GitbookTag => ({ type: 'gitbookTag', name, attributes, value: tagLine(name, attributes) })
const captionBlocks = (caption: unknown): BlockContent[] =>
  typeof caption === 'string' && caption !== '' ? [{ type: 'paragraph', children: [{ type: 'text', value: caption }] }] : []

function blockTo(b: DocBlock, opts: SerializeOptions): BlockContent[] | undefined {
  const data = dataOf(b)
  const children = (nodes: DocBlock['nodes']) => blocksTo(nodes ?? [], opts)
  switch (b.type) {
    case 'hint':
      return [tag('hint', [['style', String(data.style ?? 'info')]]), ...children(b.nodes), tag('endhint')]
    case 'tabs':
      return [
        tag('tabs'),
        ...(b.nodes ?? []).flatMap((item) =>
          item.object === 'block' ? [tag('tab', [['title', String(dataOf(item).title ?? '')]]), ...children(item.nodes), tag('endtab')] : [],
        ),
        tag('endtabs'),
      ]
    case 'file': {
      const caption = captionBlocks(data.caption)
      return caption.length
        ? [tag('file', [['src', refUrl(data.ref)]]), ...caption, tag('endfile')]
        : [{ ...tag('file', [['src', refUrl(data.ref)]]), alone: true } as GitbookTag]
    }
    case 'embed': {
      const caption = captionBlocks(data.caption)
      return caption.length
        ? [tag('embed', [['url', String(data.url ?? '')]]), ...caption, tag('endembed')]
        : [{ ...tag('embed', [['url', String(data.url ?? '')]]), alone: true } as GitbookTag]
    }
    case 'code': {
      const attributes: Array<[string, string]> = []
      if (typeof data.title === 'string') attributes.push(['title', data.title])
      if (typeof data.overflow === 'string') attributes.push(['overflow', data.overflow])
      if (typeof data.lineNumbers === 'boolean') attributes.push(['lineNumbers', String(data.lineNumbers)])
      if (!attributes.length) return undefined
      const { title: _t, overflow: _o, lineNumbers: _l, ...rest } = data
      return [tag('code', attributes), ...blocksTo([{ ...b, data: rest }], { ...opts, block: undefined }), tag('endcode')]
    }
    case 'content-ref': {
      const url = refUrl(data.ref)
      // GitBook's link text: the target's file name.
      const name = url.split('#')[0]!.split('/').filter(Boolean).pop() ?? url
      return [
        tag('content-ref', [['url', url]]),
        { type: 'paragraph', children: [{ type: 'link', url, title: null, children: [{ type: 'text', value: name }] }] },
        tag('endcontent-ref'),
      ]
    }
    case 'reusable-content': {
      // The export names the file (write.ts: the reference's id replaced by the relative path).
      const path = (data.ref as { reusableContent?: unknown } | undefined)?.reusableContent
      return typeof path === 'string' && path !== '' ? [{ ...tag('include', [['', path]]), alone: true } as GitbookTag] : undefined
    }
    case 'images':
      return hasCaption(b) ? [figuresTo(b)] : undefined
    case 'paragraph': {
      // A paragraph that is a tag's text (an unknown tag read as text) is written as it is, unescaped.
      const text = nodeText(b)
      if (!text.startsWith('{%') || (b.nodes ?? []).some((n) => n.object !== 'text' || n.leaves.some((l) => l.marks.length))) return undefined
      const read = parse(text).children
      return read.length === 1 && read[0]!.type === 'gitbookTag' ? [read[0] as GitbookTag] : undefined
    }
    default:
      return undefined
  }
}

/** GitBook-flavoured markdown to a document (markdownToDocument's options and answer). */
export function readGitbookMarkdown(markdown: string, options: { takeTitle?: boolean; newKey?: () => string } = {}): MarkdownImport {
  // A repository's file is no request: a link to a `javascript:` URL keeps its text, loses its target.
  return markdownToDocument(markdown, { ...options, extensions: { parse, block: blockFrom }, unsafeLinks: 'drop' })
}

/** GitBook-flavoured markdown read with where each block came from (readMarkdownSource). */
export function readGitbookSource(markdown: string): MarkdownSource {
  return readMarkdownSource(markdown, { takeTitle: true, extensions: { parse, block: blockFrom }, unsafeLinks: 'drop' })
}

/** A document as GitBook-flavoured markdown (with a file's `markers`, when given). */
export function writeGitbookMarkdown(document: JsonDocument, markers?: MarkdownMarkers): string {
  const tree = documentToMdast(document, { block: blockTo })
  return tree.children.length ? writerFor(markers).stringify(tree as Nodes as Root) : ''
}

/**
 * After an import resolved links: a file block whose `src` named no file of the repository
 * cannot stay a file block (it must reference a file): it becomes a paragraph linking to it.
 */
export function settleFileBlocks(document: JsonDocument): JsonDocument {
  const settle = (nodes: DocBlock[]): DocBlock[] =>
    nodes.map((n) => {
      if (n.type === 'file') {
        const ref = dataOf(n).ref as { kind?: string } | undefined
        if (ref?.kind === 'file') return n
        const url = refUrl(ref)
        const caption = dataOf(n).caption
        return {
          object: 'block',
          type: 'paragraph',
          ...(n.key !== undefined && { key: n.key }),
          data: {},
          nodes: [
            {
              object: 'inline',
              type: 'link',
              data: { ref: { kind: 'url', url } },
              nodes: [{ object: 'text', leaves: [leaf(typeof caption === 'string' && caption ? caption : url)] }],
            },
          ],
        } as DocBlock
      }
      if (!n.nodes?.some((c) => c.object === 'block')) return n
      return { ...n, nodes: settle(n.nodes as DocBlock[]) }
    })
  return { ...document, nodes: settle(document.nodes) }
}
