/**
 * Valid JSON documents' blocks, one or more per official block type, each using the optional
 * fields and inner types its official component allows (so that accepting and answering them
 * back exercises every part of the document schema), and the official component of each type.
 */
type Json = Record<string, any>

export const text = (t: string, marks: Json[] = []): Json => ({ object: 'text', leaves: [{ object: 'leaf', text: t, marks }] })
export const paragraph = (...nodes: Json[]): Json => ({ object: 'block', type: 'paragraph', nodes: nodes.length ? nodes : [text('Some text')] })
const codeLine = (line: string): Json => ({ object: 'block', type: 'code-line', data: {}, nodes: [text(line)] })
export const code = (...lines: string[]): Json => ({ object: 'block', type: 'code', data: { syntax: 'js' }, nodes: lines.map(codeLine) })
const item = (...nodes: Json[]): Json => ({ object: 'block', type: 'list-item', nodes })
const fileRef = { kind: 'file', file: 'file-1' }
const urlRef = { kind: 'url', url: 'https://example.com/a.png' }
const specRef = { kind: 'openapi', spec: 'petstore' }
export const image = (ref: Json = fileRef): Json => ({ object: 'block', type: 'image', isVoid: true, data: { ref }, fragments: [] })

const MARKS: Json[] = [
  { object: 'mark', type: 'bold' },
  { object: 'mark', type: 'italic' },
  { object: 'mark', type: 'code' },
  { object: 'mark', type: 'keyboard' },
  { object: 'mark', type: 'strikethrough' },
  { object: 'mark', type: 'color', data: { text: 'red', background: '$info' } },
  { object: 'mark', type: 'superscript' },
  { object: 'mark', type: 'subscript' },
]

const annotation: Json = {
  object: 'inline',
  type: 'annotation',
  isVoid: false,
  nodes: [text('term')],
  fragments: [{ object: 'fragment', fragment: 'body', type: 'annotation-body', nodes: [paragraph(text('What the term means.')), code('x')] }],
}

/** A paragraph with every inline type and every mark. */
const richParagraph: Json = {
  object: 'block',
  type: 'paragraph',
  key: 'k1',
  data: { align: 'center' },
  nodes: [
    { object: 'text', key: 't1', leaves: MARKS.map((mark, i) => ({ object: 'leaf', text: `m${i}`, marks: [mark] })) },
    {
      object: 'inline',
      type: 'link',
      data: { ref: { kind: 'page', page: 'page-1' } },
      nodes: [text('a link'), { object: 'inline', type: 'inline-image', isVoid: true, data: { ref: urlRef } }],
    },
    { object: 'inline', type: 'link', isVoid: false, data: { ref: { kind: 'anchor', anchor: 'intro', page: 'page-1' } }, nodes: [text('an anchor')] },
    { object: 'inline', type: 'emoji', isVoid: true, data: { code: '1f600' } },
    { object: 'inline', type: 'icon', isVoid: true, data: { icon: 'gear', color: 'green' } },
    { object: 'inline', type: 'expression', isVoid: true, data: { expression: 'visitor.claims.name' } },
    { object: 'inline', type: 'inline-math', isVoid: true, data: { formula: 'e = mc^2' } },
    { object: 'inline', type: 'inline-image', isVoid: true, data: { ref: fileRef, refDark: urlRef, caption: 'c', alt: 'a', size: 'line' } },
    { object: 'inline', type: 'mention', isVoid: true, data: { ref: { kind: 'user', user: 'user-1' } } },
    annotation,
  ],
}

const table: Json = {
  object: 'block',
  type: 'table',
  isVoid: true,
  data: {
    view: { type: 'grid', columns: ['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7', 'c8', 'c9'], hideHeader: false, columnWidths: { c1: 120 }, stickyHeader: true },
    definition: {
      c1: { id: 'c1', title: 'Text', type: 'text', textAlignment: 'left', verticalAlignment: 'top' },
      c2: { id: 'c2', title: 'Number', type: 'number' },
      c3: { id: 'c3', title: 'Done', type: 'checkbox' },
      c4: { id: 'c4', title: 'Files', type: 'files' },
      c5: { id: 'c5', title: 'Owner', type: 'users', multiple: false },
      c6: { id: 'c6', title: 'Rating', type: 'rating', max: 5 },
      c7: { id: 'c7', title: 'State', type: 'select', multiple: true, options: [{ value: 'a', label: 'A', color: 'red' }] },
      c8: { id: 'c8', title: 'Link', type: 'content-ref' },
      c9: { id: 'c9', title: 'Picture', type: 'image' },
    },
    records: {
      r1: {
        orderIndex: 'a0',
        values: {
          c1: 'f1',
          c2: 4.5,
          c3: true,
          c4: ['file-1'],
          c5: null,
          c6: 3,
          c7: ['a'],
          c8: { kind: 'page', page: 'page-1' },
          c9: { ref: fileRef, objectFit: 'cover', alt: 'x' },
        },
      },
    },
    cellMerges: [{ anchor: { record: 'r1', column: 'c1' }, rowSpan: 1, colSpan: 2 }],
    fullWidth: false,
    search: true,
  },
  // A cell fragment may hold any block, even those that only stand inside another.
  fragments: [{ object: 'fragment', fragment: 'f1', nodes: [paragraph(), item(paragraph())] }],
}

const cardsTable: Json = {
  object: 'block',
  type: 'table',
  isVoid: true,
  data: {
    view: { type: 'cards', cardSize: 'large', columns: ['c1'], coverDefinition: 'c1', wrap: true },
    definition: { c1: { id: 'c1', title: 'Cover', type: 'image' } },
    records: {},
  },
  fragments: [],
}

const essentials: Json[] = [
  paragraph(),
  { object: 'block', type: 'heading-1', data: { id: 'intro', align: 'start' }, meta: { id: 'intro' }, nodes: [text('Title')] },
  { object: 'block', type: 'heading-2', data: {}, nodes: [text('Sub')] },
  { object: 'block', type: 'heading-3', data: {}, isVoid: false, nodes: [text('Subsub')] },
  {
    object: 'block',
    type: 'list-ordered',
    data: { start: 3 },
    nodes: [item(paragraph(), code('x'), { object: 'block', type: 'math', isVoid: true, data: { formula: 'x' } })],
  },
  { object: 'block', type: 'list-unordered', nodes: [item(paragraph(), { object: 'block', type: 'list-unordered', data: {}, nodes: [item(paragraph())] })] },
  { object: 'block', type: 'list-tasks', data: {}, nodes: [{ ...item(paragraph()), data: { checked: true } }, item(paragraph(), table)] },
  { object: 'block', type: 'divider', isVoid: true, data: {} },
]

const hint: Json = {
  object: 'block',
  type: 'hint',
  data: { style: 'warning', icon: 'bell' },
  nodes: [paragraph(), { object: 'block', type: 'embed', isVoid: true, data: { url: 'https://example.com/video' } }],
}
const prompt: Json = {
  object: 'block',
  type: 'prompt',
  data: { description: 'Ask the assistant', openInAIProviders: true, defaultExpanded: 'partial' },
  nodes: [code('Summarize this page')],
}
const integration: Json = {
  object: 'block',
  type: 'integration',
  isVoid: true,
  data: {
    integration: 'github',
    block: 'file',
    props: { options: { nested: null } },
    action: { action: '@ui.url.open', url: 'https://example.com' },
    fullWidth: true,
  },
  meta: { spaceId: 'space-1' },
}
const expandable: Json = {
  object: 'block',
  type: 'expandable',
  isVoid: true,
  data: { defaultExpanded: false },
  meta: { id: 'faq' },
  fragments: [
    { object: 'fragment', fragment: 'expandable-title', type: 'expandable-title', nodes: [paragraph(text('Question'))] },
    { object: 'fragment', fragment: 'expandable-body', type: 'expandable-body', nodes: [paragraph(text('Answer')), hint] },
  ],
}
const images: Json = {
  object: 'block',
  type: 'images',
  isVoid: false,
  data: { align: 'center', fullWidth: false, withFrame: true },
  nodes: [
    {
      ...image(),
      data: { ref: fileRef, refDark: urlRef, width: 320, height: { unit: 'px', value: 200 }, alt: 'A dot' },
      fragments: [{ object: 'fragment', fragment: 'caption', nodes: [paragraph(text('The caption'))] }],
    },
    image(urlRef),
  ],
}
const stepper: Json = {
  object: 'block',
  type: 'stepper',
  nodes: [{ object: 'block', type: 'stepper-step', data: { icon: 'check' }, nodes: [paragraph(), expandable, prompt] }],
}

/** Top-level blocks: at least one of every official block type, here or nested. */
export const EXAMPLES: Json[] = [
  richParagraph,
  ...essentials,
  { object: 'block', type: 'blockquote', data: {}, nodes: [paragraph(), { object: 'block', type: 'blockquote', nodes: [paragraph()] }] },
  hint,
  prompt,
  {
    object: 'block',
    type: 'if',
    data: { expression: 'visitor.claims.beta' },
    nodes: [paragraph(), { object: 'block', type: 'if', data: { expression: 'true' }, nodes: [images] }],
  },
  images,
  { object: 'block', type: 'file', isVoid: true, data: { ref: fileRef } },
  { object: 'block', type: 'drawing', isVoid: true, data: {} },
  { object: 'block', type: 'embed', isVoid: true, data: { url: 'https://example.com', fullWidth: true } },
  {
    object: 'block',
    type: 'code',
    data: { syntax: 'ts', title: 'a.ts', overflow: 'wrap', lineNumbers: true, fullWidth: false, expandable: true, collapsedLineCount: 3 },
    nodes: [
      {
        object: 'block',
        type: 'code-line',
        data: { highlighted: true },
        nodes: [text('const a = '), { object: 'inline', type: 'expression', isVoid: true, data: { expression: 'x' } }, annotation],
      },
      codeLine(''),
    ],
  },
  { object: 'block', type: 'math', isVoid: true, data: { formula: '\\int x' } },
  expandable,
  {
    object: 'block',
    type: 'tabs',
    data: { fullWidth: true },
    nodes: [
      {
        object: 'block',
        type: 'tabs-item',
        data: { title: 'First', icon: 'star', slug: 'first' },
        meta: { id: 'first' },
        nodes: [paragraph(), images, integration],
      },
    ],
  },
  table,
  cardsTable,
  { object: 'block', type: 'swagger', isVoid: true, data: { path: '/pets', method: 'get', ref: urlRef, expanded: true }, meta: { id: 'op' } },
  { object: 'block', type: 'openapi-operation', isVoid: true, data: { path: '/pets', method: 'post', ref: specRef } },
  { object: 'block', type: 'openapi-schemas', isVoid: true, data: { schemas: ['Pet'], grouped: false, title: 'Models', ref: specRef } },
  { object: 'block', type: 'openapi-webhook', isVoid: true, data: { name: 'newPet', method: 'post', ref: specRef } },
  { object: 'block', type: 'content-ref', isVoid: true, data: { ref: { kind: 'space', space: 'space-1' } } },
  integration,
  { object: 'block', type: 'reusable-content', isVoid: true, data: { ref: { kind: 'reusable-content', reusableContent: 'rc-1' } }, meta: { token: 't' } },
  stepper,
  {
    object: 'block',
    type: 'columns',
    isVoid: false,
    data: { fullWidth: false },
    nodes: [
      { object: 'block', type: 'column', data: { width: 50, verticalAlignment: 'middle' }, nodes: [paragraph(), stepper] },
      { object: 'block', type: 'column', data: { width: { unit: '%', value: 50 } }, nodes: [table] },
    ],
  },
  {
    object: 'block',
    type: 'updates',
    data: { format: 'short' },
    nodes: [
      {
        object: 'block',
        type: 'update',
        data: { date: '2026-03-01T10:00:00+02:00', tags: [{ kind: 'tag', tag: 'release' }] },
        nodes: [paragraph(), { object: 'block', type: 'tabs', nodes: [] }],
      },
    ],
  },
]

/** The official component of each block and inline type. */
export const COMPONENT_OF: Record<string, string> = {
  paragraph: 'DocumentBlockParagraph',
  'heading-1': 'DocumentBlockHeading',
  'heading-2': 'DocumentBlockHeading',
  'heading-3': 'DocumentBlockHeading',
  'list-ordered': 'DocumentBlockListOrdered',
  'list-unordered': 'DocumentBlockListUnordered',
  'list-tasks': 'DocumentBlockListTasks',
  'list-item': 'DocumentBlockListItem',
  divider: 'DocumentBlockDivider',
  blockquote: 'DocumentBlockQuote',
  hint: 'DocumentBlockHint',
  prompt: 'DocumentBlockPrompt',
  if: 'DocumentBlockIf',
  images: 'DocumentBlockImages',
  image: 'DocumentBlockImage',
  file: 'DocumentBlockFile',
  drawing: 'DocumentBlockDrawing',
  embed: 'DocumentBlockEmbed',
  code: 'DocumentBlockCode',
  'code-line': 'DocumentBlockCodeLine',
  math: 'DocumentBlockMath',
  expandable: 'DocumentBlockExpandable',
  tabs: 'DocumentBlockTabs',
  'tabs-item': 'DocumentBlockTabsItem',
  table: 'DocumentBlockTable',
  swagger: 'DocumentBlockOpenAPI',
  'openapi-operation': 'DocumentBlockOpenAPIOperation',
  'openapi-schemas': 'DocumentBlockOpenAPISchemas',
  'openapi-webhook': 'DocumentBlockOpenAPIWebhook',
  'content-ref': 'DocumentBlockContentRef',
  integration: 'DocumentBlockIntegration',
  'reusable-content': 'DocumentBlockReusableContent',
  stepper: 'DocumentBlockStepper',
  'stepper-step': 'DocumentBlockStepperStep',
  columns: 'DocumentBlockColumns',
  column: 'DocumentBlockColumn',
  updates: 'DocumentBlockUpdates',
  update: 'DocumentBlockUpdate',
  link: 'DocumentInlineLink',
  'inline-image': 'DocumentInlineImage',
  emoji: 'DocumentInlineEmoji',
  icon: 'DocumentInlineIcon',
  expression: 'DocumentInlineExpression',
  'inline-math': 'DocumentInlineMath',
  mention: 'DocumentInlineMention',
  annotation: 'DocumentInlineAnnotation',
}

/** Every block and inline in a value (nodes and fragments, at any depth), in document order. */
export function nodesIn(value: unknown, out: Json[] = []): Json[] {
  if (Array.isArray(value)) value.forEach((v) => nodesIn(v, out))
  else if (value && typeof value === 'object') {
    const node = value as Json
    if (node.object === 'block' || node.object === 'inline') out.push(node)
    nodesIn(node.nodes, out)
    nodesIn(node.fragments, out)
  }
  return out
}
