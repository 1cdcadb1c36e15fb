/**
 * Paths of pages and files (always `/`-separated, relative to a root, no leading slash: a Git
 * repository's, or a revision's pages as `<path>.md` files) and the relative links between files
 * that markdown holds.
 */

/** `a/./b/../c` → `a/c`; undefined when the path climbs above the root. */
export function normalizePath(path: string): string | undefined {
  const out: string[] = []
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue
    if (part === '..') {
      if (out.length === 0) return undefined
      out.pop()
    } else out.push(part)
  }
  return out.join('/')
}

export const join = (...parts: Array<string | undefined>): string => normalizePath(parts.filter((p) => p !== undefined && p !== '').join('/')) ?? ''

export const dirname = (path: string): string => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '')

export const basename = (path: string): string => path.slice(path.lastIndexOf('/') + 1)

/** Whether `path` is `dir` or below it (`dir` '' is the root). */
export const isWithin = (path: string, dir: string): boolean => dir === '' || path === dir || path.startsWith(`${dir}/`)

/**
 * Characters a link target cannot hold raw, as they would change what it names (`%` starts an
 * escape, `#` an anchor, `?` a query; control characters). Spaces, brackets and parentheses stay:
 * the markdown writer puts such a target between `<` `>` or escapes them, as GitBook writes
 * `![](<../.gitbook/assets/image (1).png>)`.
 */
const encodeSegment = (segment: string): string =>
  [...segment].map((c) => ('%#?'.includes(c) || c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f ? encodeURIComponent(c) : c)).join('')

/** The link from a file in `fromDir` to `to` (both repository paths): `../b/c.md`, percent-encoded where needed. */
export function relativeLink(fromDir: string, to: string): string {
  const from = fromDir === '' ? [] : fromDir.split('/')
  const target = to.split('/')
  let common = 0
  while (common < from.length && common < target.length - 1 && from[common] === target[common]) common++
  const up = from.slice(common).map(() => '..')
  return [...up, ...target.slice(common)].map((s) => (s === '..' ? s : encodeSegment(s))).join('/')
}

/** A link target of a markdown file in `fromDir` as a repository path and anchor; undefined for URLs and in-page anchors. */
export function resolveLink(fromDir: string, rootDir: string, url: string): { path: string; anchor?: string } | undefined {
  if (url === '' || url.startsWith('#') || url.startsWith('//') || /^[a-z][a-z0-9+.-]*:/i.test(url)) return undefined
  const hash = url.indexOf('#')
  const anchor = hash >= 0 ? url.slice(hash + 1) : undefined
  let path = hash >= 0 ? url.slice(0, hash) : url
  const query = path.indexOf('?')
  if (query >= 0) path = path.slice(0, query)
  try {
    path = decodeURIComponent(path)
  } catch {
    return undefined
  }
  const resolved = normalizePath(path.startsWith('/') ? `${rootDir}/${path}` : `${fromDir}/${path}`)
  if (resolved === undefined || resolved === '') return undefined
  return anchor ? { path: resolved, anchor } : { path: resolved }
}
