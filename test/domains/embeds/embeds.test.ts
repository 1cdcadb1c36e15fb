import { describe, expect, it } from 'vitest'
import { oembedResolver, type EmbedResolver } from '../../../src/index.js'
import { call, createWorld } from '../../helpers.js'

/** docs/behaviour/embeds.md: the resolver option, its fallback, and the oEmbed resolver through the outgoing-fetch guard. */

const embedOf = async (w: Awaited<ReturnType<typeof createWorld>>, url: string) =>
  call(w.api, w.tokens.rita, 'GET', `/v1/urls/embed?url=${encodeURIComponent(url)}`)

/** A fake network: answers by URL, and records every URL asked. */
function fakeFetch(routes: Record<string, () => Response>) {
  const asked: string[] = []
  const fetch = (async (input: RequestInfo | URL) => {
    const url = String(input instanceof Request ? input.url : input)
    asked.push(url)
    const route = routes[url]
    return route ? route() : new Response('not found', { status: 404 })
  }) as typeof globalThis.fetch
  return { fetch, asked }
}

const json = (value: unknown) => () => new Response(JSON.stringify(value), { headers: { 'content-type': 'application/json' } })
const html = (text: string) => () => new Response(text, { headers: { 'content-type': 'text/html' } })

describe('embeds: the resolver option', () => {
  it('the default link embed is made from the URL alone: title from the last path segment (decoded), or the host', async () => {
    const { fetch, asked } = fakeFetch({})
    const w = await createWorld({ fetch })
    expect((await embedOf(w, 'https://docs.example.com/guides/getting_started.html?x=1')).body).toEqual({
      type: 'link',
      title: 'getting started',
      site: 'docs.example.com',
    })
    expect((await embedOf(w, 'http://www.example.com')).body).toEqual({ type: 'link', title: 'example.com', site: 'example.com' })
    expect((await embedOf(w, 'https://example.com/caf%C3%A9-au-lait')).body.title).toBe('café au lait')
    expect(asked).toEqual([])
  })

  it('a resolver answers the embed (sync or async); one that throws or answers a non-Embed gets the link embed', async () => {
    let mode: 'rich' | 'throw' | 'bad' = 'rich'
    const embeds: EmbedResolver = async (url) => {
      if (mode === 'throw') throw new Error('boom')
      if (mode === 'bad') return { type: 'video', title: 1 } as never
      return { type: 'rich', html: `<iframe src="${url}"></iframe>`, title: 'Video', site: 'Tube' }
    }
    const w = await createWorld({ embeds })
    expect((await embedOf(w, 'https://tube.example/v/1')).body).toEqual({
      type: 'rich',
      html: '<iframe src="https://tube.example/v/1"></iframe>',
      title: 'Video',
      site: 'Tube',
    })
    mode = 'throw'
    const thrown = await embedOf(w, 'https://tube.example/v/1')
    expect(thrown.status).toBe(200)
    expect(thrown.body).toEqual({ type: 'link', title: '1', site: 'tube.example' })
    mode = 'bad'
    expect((await embedOf(w, 'https://tube.example/v/1')).body).toEqual({ type: 'link', title: '1', site: 'tube.example' })
  })

  it('the resolver is not called for a caller without access, nor for a bad URL', async () => {
    let calls = 0
    const w = await createWorld({ embeds: (url) => (calls++, { type: 'link', title: url, site: 's' }) })
    const space = await w.api.fixtures.createSpace(w.org.id, { title: 'S' })
    expect((await call(w.api, w.tokens.olga, 'GET', `/v1/spaces/${space.id}/embed?url=https%3A%2F%2Fa.example%2F`)).status).toBe(404)
    expect((await embedOf(w, 'file:///etc/passwd')).status).toBe(400)
    expect(calls).toBe(0)
  })
})

describe('embeds: oembedResolver goes through the outgoing-fetch guard', () => {
  const video = { type: 'video', title: 'A talk', provider_name: 'Tube', html: '<iframe src="https://tube.example/e/1"></iframe>' }

  it('a listed provider: its endpoint is asked with the URL and format=json', async () => {
    const endpoint = 'https://tube.example/oembed?url=https%3A%2F%2Ftube.example%2Fv%2F1&format=json'
    const { fetch, asked } = fakeFetch({ [endpoint]: json(video) })
    const w = await createWorld({
      fetch,
      embeds: oembedResolver({ providers: [{ match: /^https:\/\/tube\.example\//, endpoint: 'https://tube.example/oembed' }] }),
    })
    const res = await embedOf(w, 'https://tube.example/v/1')
    expect(res.body).toEqual({ type: 'rich', html: video.html, title: 'A talk', site: 'Tube' })
    expect(asked).toEqual([endpoint])
  })

  it('discovery: the page names its oEmbed endpoint; a photo becomes an <img>; a page without one is a link titled by its <title>', async () => {
    const { fetch, asked } = fakeFetch({
      'https://pics.example/p/7': html(
        '<html><head><title>Seven &amp; more</title><link rel="alternate" type="application/json+oembed" href="/oembed?id=7&amp;f=json"></head></html>',
      ),
      'https://pics.example/oembed?id=7&f=json': json({ type: 'photo', url: 'https://pics.example/7.png', provider_name: 'Pics' }),
      'https://blog.example/post': html('<title>A post</title>'),
    })
    const w = await createWorld({ fetch, embeds: oembedResolver() })
    expect((await embedOf(w, 'https://pics.example/p/7')).body).toEqual({
      type: 'rich',
      html: '<img src="https://pics.example/7.png" alt="Seven &amp; more">',
      title: 'Seven & more',
      site: 'Pics',
    })
    expect((await embedOf(w, 'https://blog.example/post')).body).toEqual({ type: 'link', title: 'A post', site: 'blog.example' })
    expect(asked).toEqual(['https://pics.example/p/7', 'https://pics.example/oembed?id=7&f=json', 'https://blog.example/post'])
  })

  it('a private address is never fetched (the link embed is answered) unless allowPrivateNetwork', async () => {
    const routes = { 'http://169.254.169.254/latest': html('<title>metadata</title>'), 'http://localhost:8080/x': html('<title>local</title>') }
    const guarded = fakeFetch(routes)
    const w = await createWorld({ fetch: guarded.fetch, embeds: oembedResolver() })
    expect((await embedOf(w, 'http://169.254.169.254/latest')).body).toEqual({ type: 'link', title: 'latest', site: '169.254.169.254' })
    expect((await embedOf(w, 'http://localhost:8080/x')).body.title).toBe('x')
    expect(guarded.asked).toEqual([])

    const open = fakeFetch(routes)
    const w2 = await createWorld({ fetch: open.fetch, embeds: oembedResolver(), allowPrivateNetwork: true })
    expect((await embedOf(w2, 'http://localhost:8080/x')).body.title).toBe('local')
    expect(open.asked).toEqual(['http://localhost:8080/x'])
  })

  it('a redirect to a private address is not followed; a page over the size limit or an error status falls back to the link', async () => {
    const { fetch, asked } = fakeFetch({
      'https://a.example/r': () => new Response(null, { status: 302, headers: { location: 'http://10.0.0.1/admin' } }),
      'https://a.example/big': html(`<title>big</title>${'x'.repeat(2000)}`),
      'https://a.example/bad-json': html('<link type="application/json+oembed" href="https://a.example/o">'),
      'https://a.example/o': () => new Response('{not json'),
    })
    const w = await createWorld({ fetch, embeds: oembedResolver({ pageBytes: 1000 }) })
    expect((await embedOf(w, 'https://a.example/r')).body.title).toBe('r')
    expect((await embedOf(w, 'https://a.example/big')).body.title).toBe('big')
    expect((await embedOf(w, 'https://a.example/bad-json')).body).toEqual({ type: 'link', title: 'bad json', site: 'a.example' })
    expect(asked).not.toContain('http://10.0.0.1/admin')
  })
})
