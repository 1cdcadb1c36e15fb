import { describe, expect, it } from 'vitest'
import { createDocsApi } from '../../../src/index.js'
import type { TranslateContext } from '../../../src/domains/translations/translator.js'
import { sequentialIds } from '../../../src/testing.js'
import { BASE, call, createWorld } from '../../helpers.js'

/**
 * Text a reader sees that blocks hold in their data (a table's column titles and option labels,
 * alt texts, captions, tab titles, a prompt's description) goes through the translator too, as
 * `label`s; ids, URLs, select values and a code block's file name stay as written.
 */
const text = (t: string) => ({ object: 'text', leaves: [{ object: 'leaf', text: t, marks: [] }] })
const paragraph = (...nodes: object[]) => ({ object: 'block', type: 'paragraph', data: {}, nodes })
const fragment = (name: string, t: string) => ({ object: 'fragment', fragment: name, nodes: [paragraph(text(t))] })
const URL_REF = { kind: 'url', url: 'https://img.acme.test/a.png' }

const DOCUMENT = {
  object: 'document',
  data: {},
  nodes: [
    {
      object: 'block',
      type: 'table',
      isVoid: true,
      data: {
        view: { type: 'grid', columns: ['name', 'status', 'shot'], hideHeader: false },
        definition: {
          name: { id: 'name', title: 'Name', type: 'text', textAlignment: 'left' },
          status: { id: 'status', title: 'Status', type: 'select', multiple: false, options: [{ value: 'open', label: 'Open', color: 'green' }] },
          shot: { id: 'shot', title: '', type: 'image' },
        },
        records: { r1: { orderIndex: 'a0', values: { name: 'cell1', status: ['open'], shot: { ref: URL_REF, alt: 'A screenshot' } } } },
      },
      fragments: [fragment('cell1', 'Widget')],
    },
    {
      object: 'block',
      type: 'images',
      isVoid: false,
      data: {},
      nodes: [{ object: 'block', type: 'image', isVoid: true, data: { ref: URL_REF, alt: 'A diagram' }, fragments: [] }],
    },
    paragraph(
      text('See '),
      { object: 'inline', type: 'inline-image', isVoid: true, data: { ref: URL_REF, caption: 'Small icon', alt: 'An icon' } },
      text(' here.'),
    ),
    {
      object: 'block',
      type: 'tabs',
      isVoid: false,
      nodes: [
        { object: 'block', type: 'tabs-item', isVoid: false, data: { title: 'Install' }, nodes: [paragraph(text('Run it.'))] },
        { object: 'block', type: 'tabs-item', isVoid: false, data: { title: 'Use', slug: 'usage' }, nodes: [paragraph(text('Call it.'))] },
      ],
    },
    {
      object: 'block',
      type: 'code',
      isVoid: false,
      data: { title: 'app.js' },
      nodes: [{ object: 'block', type: 'code-line', isVoid: false, data: {}, nodes: [text('run()')] }],
    },
    {
      object: 'block',
      type: 'prompt',
      isVoid: false,
      data: { description: 'Ask the assistant' },
      nodes: [
        {
          object: 'block',
          type: 'code',
          isVoid: false,
          data: {},
          nodes: [{ object: 'block', type: 'code-line', isVoid: false, data: {}, nodes: [text('Summarize this page')] }],
        },
      ],
    },
  ],
}

describe('translations: labels held in block data', () => {
  it('column titles, option labels, alt texts, captions and tab titles are translated; the rest of data is kept', async () => {
    const w = await createWorld()
    const calls: Array<[string, TranslateContext['kind']]> = []
    const api = createDocsApi({
      baseUrl: BASE,
      now: w.clock.now,
      ids: sequentialIds('t'),
      seed: w.api.dump(),
      translate: (t, context) => (calls.push([t, context.kind]), t.toUpperCase()),
    })
    const space = await api.fixtures.createSpace(w.org.id, { title: 'Handbook' })
    const cr = (await call(api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Edit' })).body
    const edit = await call(api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, {
      changes: [{ operation: 'insert_page', title: 'Parts', document: { document: DOCUMENT } }],
    })
    expect(edit.status, JSON.stringify(edit.body)).toBe(200)
    expect((await call(api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`)).status).toBe(200)
    const created = (
      await call(api, w.tokens.ada, 'POST', `/v1/orgs/${w.org.id}/translations`, { language: 'fr', source: { space: space.id, language: 'en' } })
    ).body
    await api.idle()
    const done = (await call(api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}/translations/${created.id}`)).body
    expect(done.lastRunError).toBeUndefined()
    expect(calls.filter(([, kind]) => kind === 'label')).toEqual([
      ['Name', 'label'],
      ['Status', 'label'],
      ['Open', 'label'],
      ['A screenshot', 'label'],
      ['A diagram', 'label'],
      ['Small icon', 'label'],
      ['An icon', 'label'],
      ['Install', 'label'],
      ['Use', 'label'],
      ['Ask the assistant', 'label'],
    ])
    // Words sent: the labels count too ("Parts" 1, "Name Status Open" 3, "A screenshot A diagram" 4, "Small icon An icon" 4,
    // "Install Use" 2, "Ask the assistant" 3, "Widget" 1, "See here." 2, "Run it." 2, "Call it." 2); the prompt's code is not sent.
    expect(done.stats.latestWords).toBe(24)

    const pages = (await call(api, w.tokens.ada, 'GET', `/v1/spaces/${done.result.space}/content/pages`)).body.pages
    const page = (await call(api, w.tokens.ada, 'GET', `/v1/spaces/${done.result.space}/content/page/${pages[0].id}`)).body
    const [table, images, para, tabs, code, prompt] = page.document.nodes
    expect(table.data.definition).toEqual({
      name: { id: 'name', title: 'NAME', type: 'text', textAlignment: 'left' },
      status: { id: 'status', title: 'STATUS', type: 'select', multiple: false, options: [{ value: 'open', label: 'OPEN', color: 'green' }] },
      shot: { id: 'shot', title: '', type: 'image' },
    })
    expect(table.data.records.r1.values).toEqual({ name: 'cell1', status: ['open'], shot: { ref: URL_REF, alt: 'A SCREENSHOT' } })
    expect(table.fragments[0].nodes[0].nodes[0].leaves[0].text).toBe('WIDGET')
    expect(images.nodes[0].data).toEqual({ ref: URL_REF, alt: 'A DIAGRAM' })
    expect(para.nodes[1].data).toEqual({ ref: URL_REF, caption: 'SMALL ICON', alt: 'AN ICON' })
    // A tab without a slug keeps the one its title gave it; one with a slug keeps that.
    expect(tabs.nodes.map((t: { data: unknown }) => t.data)).toEqual([
      { title: 'INSTALL', slug: 'Install' },
      { title: 'USE', slug: 'usage' },
    ])
    expect(code.data).toEqual({ title: 'app.js' })
    expect(code.nodes[0].nodes[0].leaves[0].text).toBe('run()')
    expect(prompt.data).toEqual({ description: 'ASK THE ASSISTANT' })
    expect(JSON.stringify(prompt.nodes)).toContain('Summarize this page')
  })
})
