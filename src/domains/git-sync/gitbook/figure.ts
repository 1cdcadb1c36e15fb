import type { Element, ElementContent, Root as HastRoot } from 'hast'
import type { Html, Paragraph, PhrasingContent, Root as MdastRoot } from 'mdast'
import { lazyModule } from '../../../core/lazy.js'
import { loadMarkdown } from '../../content/markdown-libs.js'
import type { DocBlock, DocFragment } from '../../content/document.js'
import { phrasingPieces, type ParseContext } from '../../content/markdown/inline-from.js'
import { phrasing } from '../../content/markdown/inline-to.js'
import { block, dataOf, nodeText, paragraph } from '../../content/markdown/nodes.js'
import { imageRef, refUrl } from '../../content/markdown/refs.js'

/**
 * GitBook's images with captions, `<figure><img src="…" alt=""><figcaption><p>Caption</p></figcaption></figure>`:
 * an HTML block read with an HTML parser (hast-util-from-html) into image blocks whose caption
 * (a `caption` fragment) is the figcaption's inline content (through hast-util-to-mdast and the
 * shared inline conversion), and written back the same way (mdast-util-to-hast, hast-util-to-html).
 * A figure with an empty `<figcaption></figcaption>` keeps an empty caption, one without a
 * figcaption none, so each is written back as it was. An HTML block of anything else than figures
 * is left to the shared rules (its text kept).
 */

/**
 * The HTML parser and the hast/mdast conversions, loaded when Git Sync first reads or writes
 * markdown (not when the package is imported): Git Sync's jobs and offload tasks await
 * `loadFigures()` before they run (job.ts, tasks.ts).
 */
const hast = lazyModule('the hast utilities (hast-util-from-html, hast-util-to-html, hast-util-to-mdast, mdast-util-to-hast)', async () => {
  const [{ fromHtml }, { toHtml }, { toMdast }, { toHast }] = await Promise.all([
    import('hast-util-from-html'),
    import('hast-util-to-html'),
    import('hast-util-to-mdast'),
    import('mdast-util-to-hast'),
  ])
  return { fromHtml, toHtml, toMdast, toHast }
})

/** Load what figures are read and written with; once per process. */
export function loadFigures(): Promise<unknown> {
  // unified, remark and yaml too (Git Sync's markdown, SUMMARY.md, .gitbook.yaml), loaded on first use.
  return Promise.all([hast.load(), loadMarkdown()])
}

const isElement = (node: ElementContent | HastRoot['children'][number], name?: string): node is Element =>
  node.type === 'element' && (name === undefined || node.tagName === name)
const blank = (node: ElementContent | HastRoot['children'][number]) => node.type === 'comment' || (node.type === 'text' && node.value.trim() === '')

/** The image blocks of an HTML block made of figures only (each an image and an optional caption), else undefined. */
export function figuresFrom(html: string, ctx: ParseContext): DocBlock[] | undefined {
  const tree = hast.get().fromHtml(html, { fragment: true })
  const figures = tree.children.filter((n) => !blank(n))
  if (figures.length === 0 || !figures.every((n) => isElement(n, 'figure'))) return undefined
  const images: DocBlock[] = []
  for (const figure of figures as Element[]) {
    const parts = figure.children.filter((n) => !blank(n))
    const [img, caption, ...rest] = parts
    if (!img || !isElement(img, 'img') || rest.length || (caption && !isElement(caption, 'figcaption'))) return undefined
    const src = img.properties.src
    if (typeof src !== 'string') return undefined
    const data: Record<string, unknown> = { ref: imageRef(src) }
    if (typeof img.properties.alt === 'string' && img.properties.alt !== '') data.alt = img.properties.alt
    for (const key of ['width', 'height'] as const) {
      const value = Number(img.properties[key])
      if (img.properties[key] !== undefined && Number.isFinite(value) && value > 0) data[key] = value
    }
    const fragments: DocFragment[] = caption
      ? [{ object: 'fragment', fragment: 'caption', type: 'caption', nodes: captionParagraphs(caption as Element, ctx) }]
      : []
    images.push(block(ctx, 'image', { isVoid: true, data, fragments }))
  }
  return [block(ctx, 'images', { isVoid: false, data: {}, nodes: images })]
}

/** A figcaption's content as paragraphs (one, empty, when it holds nothing). */
function captionParagraphs(caption: Element, ctx: ParseContext): DocBlock[] {
  const mdast = hast.get().toMdast({ type: 'root', children: caption.children }) as MdastRoot
  const paragraphs = mdast.children.flatMap((n): PhrasingContent[][] =>
    n.type === 'paragraph' ? [n.children] : 'children' in n ? [] : [[n as PhrasingContent]],
  )
  if (paragraphs.length === 0) return [paragraph(ctx, [])]
  return paragraphs.map((children) => paragraph(ctx, phrasingPieces(children, ctx)))
}

/** Whether an images block is written as figures: some image of it has a caption. */
export const hasCaption = (b: DocBlock): boolean =>
  (b.nodes ?? []).some((n) => n.object === 'block' && (n.fragments ?? []).some((f) => f.fragment === 'caption'))

/** An images block as one HTML block of figures (read back as the same images block). */
export function figuresTo(b: DocBlock): Html {
  const figures: Element[] = (b.nodes ?? []).flatMap((n) => {
    if (n.object !== 'block' || n.type !== 'image') return []
    const data = dataOf(n)
    const img: Element = {
      type: 'element',
      tagName: 'img',
      properties: { src: refUrl(data.ref), alt: typeof data.alt === 'string' ? data.alt : '' },
      children: [],
    }
    for (const key of ['width', 'height'] as const) if (typeof data[key] === 'number') img.properties[key] = String(data[key])
    const caption = (n.fragments ?? []).find((f) => f.fragment === 'caption')
    const children: Element[] = [img]
    if (caption) children.push({ type: 'element', tagName: 'figcaption', properties: {}, children: captionHast(caption.nodes) })
    return [{ type: 'element', tagName: 'figure', properties: {}, children }]
  })
  return { type: 'html', value: hast.get().toHtml({ type: 'root', children: figures }) }
}

/** Caption paragraphs as `<p>` elements (none for an empty caption). */
function captionHast(nodes: DocBlock[]): ElementContent[] {
  const paragraphs: Paragraph[] = nodes
    .filter((p) => nodeText(p) !== '' || (p.nodes ?? []).some((n) => n.object === 'inline'))
    .map((p) => ({ type: 'paragraph', children: phrasing(p.nodes ?? []) }))
  if (paragraphs.length === 0) return []
  const tree = hast.get().toHast({ type: 'root', children: paragraphs }) as HastRoot
  // mdast-util-to-hast puts a newline text between paragraphs; GitBook writes them side by side.
  return tree.children.filter((n): n is ElementContent => n.type !== 'text' || n.value.trim() !== '') as ElementContent[]
}
