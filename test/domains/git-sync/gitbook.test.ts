import { describe, expect, it } from 'vitest'
import { call } from '../../helpers.js'
import { expectOfficialResponse } from '../../conformance/official.js'
import { exportSpace, gitInfo, gitWorld, importRepo, type GitWorld, useGitServer } from './helpers.js'

/**
 * A repository in GitBook's own export format: `<figure>` images with captions, `{% file %}`,
 * `{% hint %}`, `{% embed %}`, `{% tabs %}`, `{% code %}`, `{% content-ref %}`, `layout:`
 * frontmatter, `<…>` link targets. Import gives the blocks and imports the assets; an export with
 * nothing changed makes no commit; written anew, the syntax comes back byte for byte.
 */
const git = useGitServer()
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64')

const README = `---
description: The welcome page
icon: hand-wave
layout:
  title:
    visible: true
  description:
    visible: false
  tableOfContents:
    visible: true
---

# Welcome

Start with the [Quickstart](getting-started/quickstart.md) or read about [media](basics/images-and-media.md#files).
`
const QUICKSTART = `# Quickstart

![](<../.gitbook/assets/image (1).png>)

{% hint style="info" %}
**Info hints** are great for tips.
{% endhint %}

{% embed url="https://www.youtube.com/watch?v=abc123" %}

{% content-ref url="../basics/tabs.md" %}
[tabs.md](../basics/tabs.md)
{% endcontent-ref %}
`
const MEDIA = `# Images & media

<figure><img src="../.gitbook/assets/figure.png" alt=""><figcaption><p>A <strong>bold</strong> caption</p></figcaption></figure>

<figure><img src="../.gitbook/assets/diagram.png" alt="A diagram" width="375"><figcaption></figcaption></figure>

## Files

{% file src="../.gitbook/assets/attachment.zip" %}
An attachment
{% endfile %}

{% file src="../.gitbook/assets/guide.pdf" %}

{% hint style="warning" %}
Mind the steps:

- one
- two
{% endhint %}

{% embed url="https://example.com/video" %}
A video
{% endembed %}
`
const TABS = `# Tabs

{% tabs %}
{% tab title="npm" %}
\`\`\`bash
npm install acme
\`\`\`
{% endtab %}

{% tab title="yarn" %}
Run this:

\`\`\`bash
yarn add acme
\`\`\`
{% endtab %}
{% endtabs %}

{% code title="index.js" overflow="wrap" lineNumbers="true" %}
\`\`\`javascript
console.log('hi')
\`\`\`
{% endcode %}

{% stepper %}
An unknown tag stays text.
`
const SUMMARY = `# Table of contents

* [Welcome](README.md)

## Getting Started

* [Quickstart](getting-started/quickstart.md)

## Basics

* [Images & media](basics/images-and-media.md)
* [Tabs](basics/tabs.md)
`
const REPO: Record<string, string | Uint8Array> = {
  'README.md': README,
  'SUMMARY.md': SUMMARY,
  'getting-started/quickstart.md': QUICKSTART,
  'basics/images-and-media.md': MEDIA,
  'basics/tabs.md': TABS,
  '.gitbook/assets/image (1).png': PNG,
  '.gitbook/assets/figure.png': PNG,
  '.gitbook/assets/diagram.png': PNG,
  '.gitbook/assets/attachment.zip': Buffer.from('PK\u0005\u0006'.padEnd(22, '\0'), 'binary'),
  '.gitbook/assets/guide.pdf': '%PDF-1.4\n%%EOF\n',
}

type Block = {
  type: string
  data?: Record<string, unknown>
  nodes?: Block[]
  fragments?: Array<{ fragment: string; nodes: Block[] }>
  leaves?: Array<{ text: string }>
  object: string
}
const text = (node: Block): string => (node.leaves ? node.leaves.map((l) => l.text).join('') : (node.nodes ?? []).map(text).join(''))

async function page(w: GitWorld, path: string) {
  const res = await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${w.space.id}/content/path/${path}`)
  expect(res.status).toBe(200)
  expectOfficialResponse('getPageByPath', 200, res.body)
  return res.body as { id: string; document: { nodes: Block[] } }
}

describe('GitBook-flavoured markdown', () => {
  it('imports figures, files, hints, embeds, tabs, titled code and content refs as their blocks, with the assets', async () => {
    const w = await gitWorld()
    git.server.createRepo('gitbook', REPO)
    await importRepo(w, { url: git.server.url('gitbook'), ref: 'refs/heads/main' })
    expect((await gitInfo(w)).body.operation.state).toBe('success')
    const files = (await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${w.space.id}/content/files`)).body.items as Array<{ id: string; name: string }>
    const fileId = (name: string) => files.find((f) => f.name === name)?.id
    expect(files.map((f) => f.name).sort()).toEqual(['attachment.zip', 'diagram.png', 'figure.png', 'guide.pdf', 'image (1).png'])

    const media = (await page(w, 'basics/images-and-media')).document.nodes
    expect(media.map((b) => b.type)).toEqual(['images', 'images', 'heading-2', 'file', 'file', 'hint', 'embed'])
    const [figure, diagram] = [media[0]!.nodes![0]!, media[1]!.nodes![0]!]
    expect(figure.data).toEqual({ ref: { kind: 'file', file: fileId('figure.png') } })
    expect(figure.fragments![0]).toMatchObject({ fragment: 'caption' })
    expect(text(figure.fragments![0]!.nodes[0]!)).toBe('A bold caption')
    expect(diagram.data).toEqual({ ref: { kind: 'file', file: fileId('diagram.png') }, alt: 'A diagram', width: 375 })
    expect(diagram.fragments).toEqual([expect.objectContaining({ fragment: 'caption', nodes: [expect.objectContaining({ type: 'paragraph' })] })])
    expect(media[3]!.data).toEqual({ ref: { kind: 'file', file: fileId('attachment.zip') }, caption: 'An attachment' })
    expect(media[4]!.data).toEqual({ ref: { kind: 'file', file: fileId('guide.pdf') } })
    expect(media[5]!.data).toEqual({ style: 'warning' })
    expect(media[5]!.nodes!.map((b) => b.type)).toEqual(['paragraph', 'list-unordered'])
    expect(media[6]!.data).toEqual({ url: 'https://example.com/video', caption: 'A video' })

    const quick = (await page(w, 'getting-started/quickstart')).document.nodes
    const tabsPage = await page(w, 'basics/tabs')
    expect(quick.map((b) => b.type)).toEqual(['images', 'hint', 'embed', 'content-ref'])
    expect(quick[0]!.nodes![0]!.data).toEqual({ ref: { kind: 'file', file: fileId('image (1).png') } })
    expect(quick[1]).toMatchObject({ data: { style: 'info' }, nodes: [{ type: 'paragraph' }] })
    expect(text(quick[1]!)).toBe('Info hints are great for tips.')
    expect(quick[2]!.data).toEqual({ url: 'https://www.youtube.com/watch?v=abc123' })
    expect(quick[3]!.data).toEqual({ ref: { kind: 'page', page: tabsPage.id } })

    const tabs = tabsPage.document.nodes
    expect(tabs.map((b) => b.type)).toEqual(['tabs', 'code', 'paragraph', 'paragraph'])
    expect(tabs[0]!.nodes!.map((t) => [t.type, t.data?.title, t.nodes!.map((b) => b.type)])).toEqual([
      ['tabs-item', 'npm', ['code']],
      ['tabs-item', 'yarn', ['paragraph', 'code']],
    ])
    expect(tabs[1]!.data).toEqual({ syntax: 'javascript', title: 'index.js', overflow: 'wrap', lineNumbers: true })
    expect(tabs.slice(2).map(text)).toEqual(['{% stepper %}', 'An unknown tag stays text.'])
  })

  it('an export with nothing changed makes no commit; written anew, the syntax and layout frontmatter come back as they were', async () => {
    const w = await gitWorld()
    git.server.createRepo('gitbook-back', REPO)
    await importRepo(w, { url: git.server.url('gitbook-back'), ref: 'refs/heads/main' })
    const head = git.server.git('gitbook-back', 'rev-parse', 'main').trim()
    await exportSpace(w, { url: git.server.url('gitbook-back'), ref: 'refs/heads/main', commitMessage: 'Nothing' })
    expect((await gitInfo(w)).body.operation).toMatchObject({ state: 'success', commit: head })
    expect(git.server.git('gitbook-back', 'rev-parse', 'main').trim()).toBe(head)

    // A change to every page makes the export write each file anew: only the changed line differs.
    const base = `/v1/spaces/${w.space.id}/change-requests`
    const cr = await call(w.api, w.tokens.ada, 'POST', base, { subject: 'Touch' })
    const pages = (await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${w.space.id}/content/pages`)).body.pages as Array<{
      id: string
      pages: Array<{ id: string }>
    }>
    const ids = [pages[0]!.id, ...pages.slice(1).flatMap((g) => g.pages.map((p) => p.id))]
    const changes = []
    for (const id of ids) {
      const current = (await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${w.space.id}/content/page/${id}`)).body
      changes.push({
        operation: 'update_page',
        page: id,
        document: {
          document: {
            ...current.document,
            nodes: [
              ...current.document.nodes,
              { object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Touched.', marks: [] }] }] },
            ],
          },
        },
      })
    }
    const edit = await call(w.api, w.tokens.ada, 'POST', `${base}/${cr.body.id}/content?compat=false`, { changes })
    expect(edit.status, JSON.stringify(edit.body)).toBe(200)
    expect((await call(w.api, w.tokens.ada, 'POST', `${base}/${cr.body.id}/merge`)).status).toBe(200)
    await exportSpace(w, { url: git.server.url('gitbook-back'), ref: 'refs/heads/main', commitMessage: 'Touched' })
    expect((await gitInfo(w)).body.operation.state).toBe('success')
    const touched = (file: string) => `${file.replace(/\n$/, '')}\n\nTouched.\n`
    expect(git.server.git('gitbook-back', 'show', 'main:README.md')).toBe(touched(README))
    expect(git.server.git('gitbook-back', 'show', 'main:getting-started/quickstart.md')).toBe(touched(QUICKSTART))
    expect(git.server.git('gitbook-back', 'show', 'main:basics/images-and-media.md')).toBe(touched(MEDIA))
    expect(git.server.git('gitbook-back', 'show', 'main:basics/tabs.md')).toBe(touched(TABS))
    expect(git.server.git('gitbook-back', 'diff', '--name-only', head, 'main').trim().split('\n')).toEqual([
      'README.md',
      'basics/images-and-media.md',
      'basics/tabs.md',
      'getting-started/quickstart.md',
    ])
  })

  it('a link, an image or an embed to `javascript:` or `data:` is imported without its target: its text (alt text, caption, the URL of an embed) stays, no script is stored', async () => {
    const w = await gitWorld()
    const UNSAFE = `# Unsafe

A [script link](javascript:alert(1)), an ![inline image](data:text/html;base64,PHNjcmlwdD4=) and a [safe one](https://example.com).

![](<JaVaScRiPt:alert(2)>)

{% embed url="javascript:alert(3)" %}

<figure><img src="java&#x09;script:alert(4)" alt="fig"><figcaption><p>Caption</p></figcaption></figure>

{% content-ref url="vbscript:alert(5)" %}
[x](vbscript:alert(5))
{% endcontent-ref %}

{% file src="data:text/html,<b>6</b>" %}
`
    git.server.createRepo('unsafe', {
      'README.md': '# Home\n',
      'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [Unsafe](unsafe.md)\n',
      'unsafe.md': UNSAFE,
    })
    await importRepo(w, { url: git.server.url('unsafe'), ref: 'refs/heads/main' })
    expect((await gitInfo(w)).body.operation.state).toBe('success')
    const nodes = (await page(w, 'unsafe')).document.nodes
    // Every target left is one a browser opens as a web page (or a mail).
    const targets = JSON.stringify(nodes).match(/"url":"[^"]*"/g) ?? []
    expect(targets).toEqual(['"url":"https://example.com"'])
    expect(nodes.map((b) => [b.type, text(b)])).toEqual([
      ['paragraph', 'A script link, an inline image and a safe one.'],
      ['paragraph', 'javascript:alert(3)'],
      ['paragraph', 'Caption'],
      ['paragraph', 'vbscript:alert(5)'],
      ['paragraph', 'data:text/html,<b>6</b>'],
    ])
  })
})
