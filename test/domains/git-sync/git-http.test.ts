import { describe, expect, it } from 'vitest'
import { createGitHttp, GitTransportError } from '../../../src/domains/git-sync/git-http.js'
import { createMemoryFs } from '../../../src/domains/git-sync/memory-fs.js'
import { parseRemote, scrub } from '../../../src/domains/git-sync/remote.js'

/** A fetch answering from a table of URLs, recording what it was asked. */
function fakeFetch(routes: Record<string, () => Response>) {
  const seen: Array<{ url: string; authorization: string | null }> = []
  const fn = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = String(input)
    seen.push({ url, authorization: new Headers(init?.headers).get('authorization') })
    const route = routes[url]
    if (!route) throw new TypeError(`no route ${url}`)
    return route()
  }) as typeof fetch
  return { fn, seen }
}

const redirect = (location: string) => () => new Response(null, { status: 302, headers: { location } })

describe('the Git HTTP client', () => {
  const remote = parseRemote('https://bob:s3cr3t-token@git.example.com/acme/docs.git', 'url', false)
  const client = (fetch: typeof globalThis.fetch, allowPrivateNetwork = false) =>
    createGitHttp({ fetch, allowPrivateNetwork, remote, signal: new AbortController().signal, maxBytes: 100 })

  it('splits the credentials off the URL: the remote is stored without them, sent as basic auth', () => {
    expect(remote).toMatchObject({
      url: 'https://git.example.com/acme/docs.git',
      origin: 'https://git.example.com',
      repoName: 'acme/docs',
      authorization: `Basic ${btoa('bob:s3cr3t-token')}`,
    })
    expect(scrub('failed at https://bob:s3cr3t-token@git.example.com/x and s3cr3t-token', remote)).toBe('failed at https://git.example.com/x and ***')
  })

  it('sends the credentials to the remote origin only, never after a redirect elsewhere', async () => {
    const { fn, seen } = fakeFetch({
      'https://git.example.com/acme/docs.git/info/refs': redirect('https://cdn.example.net/docs/info/refs'),
      'https://cdn.example.net/docs/info/refs': () => new Response('ok'),
    })
    const res = await client(fn).request({ url: 'https://git.example.com/acme/docs.git/info/refs' })
    expect(res.statusCode).toBe(200)
    expect(seen).toEqual([
      { url: 'https://git.example.com/acme/docs.git/info/refs', authorization: remote.authorization },
      { url: 'https://cdn.example.net/docs/info/refs', authorization: null },
    ])
  })

  it('refuses private addresses, also behind a redirect, unless allowPrivateNetwork; caps what it reads', async () => {
    const { fn } = fakeFetch({
      'https://git.example.com/a': redirect('http://10.0.0.1/a'),
      'http://10.0.0.1/a': () => new Response('inside'),
      'https://git.example.com/big': () => new Response('x'.repeat(200)),
    })
    await expect(client(fn).request({ url: 'https://git.example.com/a' })).rejects.toThrow(
      /redirected to http:\/\/10\.0\.0\.1\/a: 10\.0\.0\.1 is a private address/,
    )
    await expect(client(fn).request({ url: 'http://127.0.0.1/a' })).rejects.toBeInstanceOf(GitTransportError)
    expect((await client(fn, true).request({ url: 'https://git.example.com/a' })).statusCode).toBe(200)
    const big = await client(fn).request({ url: 'https://git.example.com/big' })
    await expect(
      (async () => {
        for await (const _chunk of big.body) void _chunk
      })(),
    ).rejects.toThrow(/larger than 100 bytes/)
  })
})

describe('the in-memory file system', () => {
  it('behaves as isomorphic-git expects: ENOENT, EEXIST, ENOTEMPTY, stats, utf8 reads', async () => {
    const { promises: fs } = createMemoryFs()
    await expect(fs.readFile('/nope')).rejects.toMatchObject({ code: 'ENOENT' })
    await expect(fs.writeFile('/a/b', 'x')).rejects.toMatchObject({ code: 'ENOENT' })
    await fs.mkdir('/a')
    await expect(fs.mkdir('/a')).rejects.toMatchObject({ code: 'EEXIST' })
    await fs.writeFile('/a/b', 'héllo')
    expect(await fs.readFile('/a/b', 'utf8')).toBe('héllo')
    expect(new Uint8Array((await fs.readFile('/a/b')) as ArrayBuffer)).toEqual(new TextEncoder().encode('héllo'))
    expect((await fs.stat('/a/b')).isFile()).toBe(true)
    expect((await fs.stat('/a')).isDirectory()).toBe(true)
    expect(await fs.readdir('/a')).toEqual(['b'])
    await expect(fs.rmdir('/a')).rejects.toMatchObject({ code: 'ENOTEMPTY' })
    await expect(fs.readFile('/a/b/c')).rejects.toMatchObject({ code: 'ENOTDIR' })
    await fs.unlink('/a/b')
    await fs.rmdir('/a')
    expect(await fs.readdir('/')).toEqual([])
  })
})
