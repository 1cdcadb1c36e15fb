import { describe, expect, it } from 'vitest'
import { call, createWorld, expectError } from '../../helpers.js'

/**
 * Link targets: a link, an image or an embed goes to an http, https or mailto URL, or a relative
 * one. `javascript:`, `data:` and the like, written however a browser would still read them
 * (any case, white space and control characters around or inside, entities), are refused in what
 * a request sends (markdown and JSON documents alike, 400 naming the field) and in URL fields a
 * page shows (icons, logos, integration links). Git Sync imports drop them (git-sync/gitbook.test.ts).
 */

const SCHEMES = [
  'javascript:alert(1)',
  'JavaScript:alert(document.domain)',
  'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  'vbscript:msgbox(1)',
  'file:///etc/passwd',
]

/** Ways of writing a URL that a browser still reads with its scheme (or that a renderer writing HTML unescaped would). */
const TRICKS: Array<[string, (url: string) => string]> = [
  ['as is', (u) => u],
  ['upper case', (u) => u.toUpperCase()],
  ['mixed case', (u) => u.replace(/^[a-z]+/i, (s) => [...s].map((c, i) => (i % 2 ? c.toUpperCase() : c.toLowerCase())).join(''))],
  ['a leading space', (u) => ` ${u}`],
  ['leading control characters', (u) => `\u0001\u001f${u}`],
  ['a tab in the scheme', (u) => `${u.slice(0, 3)}\t${u.slice(3)}`],
  ['a line break in the scheme', (u) => `${u.slice(0, 3)}\n${u.slice(3)}`],
  ['a NUL in the scheme', (u) => `${u.slice(0, 2)}\u0000${u.slice(2)}`],
  ['a decimal entity', (u) => `&#${u.codePointAt(0)};${u.slice(1)}`],
  ['a padded decimal entity', (u) => `&#0000${u.codePointAt(0)}${u.slice(1)}`],
  ['a hex entity', (u) => `&#x${u.codePointAt(0)!.toString(16).toUpperCase()};${u.slice(1)}`],
  ['an entity colon', (u) => u.replace(':', '&colon;')],
]

const VARIANTS = SCHEMES.flatMap((scheme) => TRICKS.map(([trick, write]) => ({ what: `${scheme.split(':')[0]} (${trick})`, url: write(scheme) })))

const SAFE = [
  'https://example.com/a?b=c#d',
  'HTTP://EXAMPLE.COM',
  'mailto:team@example.com',
  '/files/abc',
  './other.md',
  '../up/page.md#part',
  '#anchor',
  '?q=1',
  '//cdn.example.com/x.png',
  'notes/a:b.md',
  'page',
]

/** Whether a browser resolving `url` on a docs page would go to an http, https or mailto URL: the oracle, the WHATWG parser itself. */
const browserSafe = (url: string) => ['http:', 'https:', 'mailto:'].includes(new URL(url, 'https://docs.example.com/space/page').protocol)

const text = (value: string) => ({ object: 'text', leaves: [{ object: 'leaf', text: value, marks: [] }] })
const paragraph = (...nodes: unknown[]) => ({ object: 'block', type: 'paragraph', data: {}, nodes })
const urlRef = (url: string) => ({ kind: 'url', url })

/** JSON documents holding `url` where each url-bearing field of the official schema is, and the path of that field from the document. */
const CONSTRUCTS: Array<[string, (url: string) => unknown, string]> = [
  ['a link', (url) => paragraph({ object: 'inline', type: 'link', data: { ref: urlRef(url) }, nodes: [text('x')] }), 'nodes[0].nodes[0].data.ref.url'],
  [
    'an inline image',
    (url) => paragraph({ object: 'inline', type: 'inline-image', isVoid: true, data: { ref: urlRef(url) } }),
    'nodes[0].nodes[0].data.ref.url',
  ],
  ['a mention', (url) => paragraph({ object: 'inline', type: 'mention', isVoid: true, data: { ref: urlRef(url) } }), 'nodes[0].nodes[0].data.ref.url'],
  [
    'an image',
    (url) => ({
      object: 'block',
      type: 'images',
      isVoid: false,
      data: {},
      nodes: [{ object: 'block', type: 'image', isVoid: true, data: { ref: urlRef(url) }, fragments: [] }],
    }),
    'nodes[0].nodes[0].data.ref.url',
  ],
  [
    "an image's dark variant",
    (url) => ({
      object: 'block',
      type: 'images',
      isVoid: false,
      data: {},
      nodes: [{ object: 'block', type: 'image', isVoid: true, data: { ref: urlRef('https://x.test/a.png'), refDark: urlRef(url) }, fragments: [] }],
    }),
    'nodes[0].nodes[0].data.refDark.url',
  ],
  ['an embed', (url) => ({ object: 'block', type: 'embed', isVoid: true, data: { url } }), 'nodes[0].data.url'],
  ['a content ref', (url) => ({ object: 'block', type: 'content-ref', isVoid: true, data: { ref: urlRef(url) } }), 'nodes[0].data.ref.url'],
  [
    'an integration block',
    (url) => ({ object: 'block', type: 'integration', isVoid: true, data: { integration: 'x', block: 'y', props: {}, url } }),
    'nodes[0].data.url',
  ],
  [
    "an integration block's action",
    (url) => ({
      object: 'block',
      type: 'integration',
      isVoid: true,
      data: { integration: 'x', block: 'y', props: {}, action: { action: '@ui.url.open', url } },
    }),
    'nodes[0].data.action.url',
  ],
]
const documentOf = (node: unknown) => ({ object: 'document', data: {}, nodes: [node] })

/** Markdown forms that make a link, an image or a reference (a URL with white space goes in `<…>`, as markdown wants). */
const MARKDOWN: Array<[string, (url: string) => string]> = [
  ['a link', (url) => `A [link](<${url}>).`],
  ['an image', (url) => `An image: ![alt](<${url}>)`],
  ['a reference link', (url) => `A [link][r].\n\n[r]: <${url}>`],
  ['an autolink', (url) => `<${url}>`],
]

async function world() {
  const w = await createWorld()
  const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Links' })
  const cr = (await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Links' })).body
  const batch = (changes: unknown[]) => call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, { changes })
  const insert = (document: unknown) => batch([{ operation: 'insert_page', title: 'Page', document }])
  const page = async (id: string) => (await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content/page/${id}`)).body
  return { ...w, space, cr, batch, insert, page }
}

/** Every link target of a document: data `url`s and URL refs, at any depth. */
function targets(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) targets(v, out)
  else if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>
    if (typeof o.url === 'string') out.push(o.url)
    for (const v of Object.values(o)) targets(v, out)
  }
  return out
}

describe('link targets', () => {
  it('the variants tested are read by a browser with their scheme (but those refused beyond what a browser needs)', () => {
    // The oracle sees through case, white space and control characters around the URL and tabs
    // and line breaks in it, as a browser does. Refused beyond: entities (for a renderer that would
    // write a URL into HTML unescaped) and a NUL in the scheme (which some parsers drop).
    for (const { url, what } of VARIANTS.filter((v) => !/entity|NUL/.test(v.what))) expect(browserSafe(url), what).toBe(false)
    for (const url of SAFE) expect(browserSafe(url), url).toBe(true)
  })

  it('JSON documents: a target with another scheme, however written, is a 400 naming its field, wherever the official schema has one; nothing is written', async () => {
    const w = await world()
    const before = w.api.dump()
    for (const [construct, make, field] of CONSTRUCTS) {
      for (const { url, what } of VARIANTS) {
        const res = await w.insert({ document: documentOf(make(url)) })
        expectError(res, 400, `body field \`changes[0].document.document.${field}\`: has the scheme`)
        expect(res.body.error.message, `${construct}: ${what}`).toMatch(
          /links, images and embeds may go to http, https and mailto URLs \(and relative ones\) only/,
        )
      }
    }
    expect(w.api.dump()).toEqual(before)
    // Allowed targets are kept as written.
    for (const [construct, make] of CONSTRUCTS) {
      for (const url of SAFE) {
        const res = await w.insert({ document: documentOf(make(url)) })
        expect(res.status, `${construct}: ${url} ${JSON.stringify(res.body)}`).toBe(200)
        expect(targets((await w.page(res.body.changes[0].page.id)).document), `${construct}: ${url}`).toContain(url)
      }
    }
  })

  it('markdown: a link, an image or a reference to another scheme is a 400 naming `markdown`; what markdown does not read as a link is stored as text', async () => {
    const w = await world()
    for (const [construct, write] of MARKDOWN) {
      for (const { url, what } of VARIANTS) {
        const res = await w.insert({ markdown: write(url) })
        if (res.status === 400) {
          expect(res.body.error.message, `${construct}: ${what}`).toMatch(
            /^Invalid request: body field `changes\[0\]\.document\.markdown`: links to `.+`, which has the scheme `[a-z]+:`/s,
          )
          continue
        }
        // Not a link for markdown (a line break in it, a NUL made U+FFFD, an autolink of a URL
        // with spaces...): whatever was stored, no browser reads it as a script or a page of data.
        expect(res.status, `${construct}: ${what}: ${JSON.stringify(res.body)}`).toBe(200)
        const stored = targets((await w.page(res.body.changes[0].page.id)).document)
        for (const target of stored) expect(browserSafe(target), `${construct}: ${what}: ${JSON.stringify(target)}`).toBe(true)
      }
      // The plain ones are links, refused.
      for (const url of SCHEMES) expectError(await w.insert({ markdown: write(url) }), 400, 'changes[0].document.markdown`: links to `')
    }
    const ok = await w.insert({ markdown: SAFE.map((url, i) => `[link ${i}](<${url}>) ![image ${i}](<${url}>)`).join('\n\n') })
    expect(ok.status).toBe(200)
    // Kept as written (but a file's path and a link to an anchor, which become references of their own).
    expect(targets((await w.page(ok.body.changes[0].page.id)).document)).toEqual(
      SAFE.flatMap((url) => (url === '/files/abc' ? [] : url === '#anchor' ? [url] : [url, url])),
    )
  })

  it('comments, change request descriptions, agent instructions and translation instructions refuse them too', async () => {
    const w = await world()
    const bad = documentOf(CONSTRUCTS[0]![1]('javascript:alert(1)'))
    const path = 'nodes[0].nodes[0].data.ref.url`: has the scheme `javascript:`'
    expectError(
      await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${w.space.id}/comments`, { body: { markdown: 'See [this](javascript:alert(1))' } }),
      400,
      'body field `body.markdown`: is markdown that cannot be kept: it links to `javascript:alert(1)`',
    )
    expectError(
      await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${w.space.id}/comments`, { body: { document: bad } }),
      400,
      `body field \`body.document.${path}`,
    )
    expectError(
      await call(w.api, w.tokens.ada, 'PATCH', `/v1/spaces/${w.space.id}/change-requests/${w.cr.id}`, { description: bad }),
      400,
      `body field \`description.${path}`,
    )
    expectError(
      await call(w.api, w.tokens.ada, 'PUT', `/v1/orgs/${w.org.id}/agent-instructions`, { instructions: bad }),
      400,
      `body field \`instructions.${path}`,
    )
    expectError(
      await call(w.api, w.tokens.ada, 'POST', `/v1/orgs/${w.org.id}/translations`, {
        language: 'fr',
        source: { space: w.space.id, language: 'en' },
        instructions: bad,
      }),
      400,
      `body field \`instructions.${path}`,
    )
  })

  it('URL fields a page shows refuse them: a space icon, an organization logo', async () => {
    const w = await world()
    for (const { url } of VARIANTS) {
      expectError(await call(w.api, w.tokens.ada, 'PATCH', `/v1/spaces/${w.space.id}`, { icon: url }), 400, 'body field `icon`')
      expectError(await call(w.api, w.tokens.ada, 'PATCH', `/v1/orgs/${w.org.id}`, { logo: url }), 400, 'body field `logo`')
    }
    expect((await call(w.api, w.tokens.ada, 'PATCH', `/v1/spaces/${w.space.id}`, { icon: 'https://example.com/icon.png' })).status).toBe(200)
  })
})
