/**
 * A page slug from its title: lower-case kebab ("Getting Started" → `getting-started`). Letters
 * and digits of every script are kept (NFKD, combining marks dropped so "Café" → `cafe`); any
 * other run of characters becomes one `-`. At most 100 characters (the official limit).
 */
export function slugify(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100)
    .replace(/-+$/, '')
  return slug === '' ? 'page' : slug
}

/** `base`, or `base-2`, `base-3`... : the first not in `taken` (derived slugs never collide). */
export function uniqueSlug(base: string, taken: { has(slug: string): boolean }): string {
  if (!taken.has(base)) return base
  for (let n = 2; ; n++) {
    const suffix = `-${n}`
    const candidate = `${base.slice(0, 100 - suffix.length)}${suffix}`
    if (!taken.has(candidate)) return candidate
  }
}

/**
 * What an explicit slug may be: one path segment a page's path can carry and `getPageByPath` can
 * find again, raw or encoded. No whitespace or control characters, none of `/ \\ % ? #` (a
 * separator, an escape, or the end of a URL's path), and not `.` or `..`. Letters of every script
 * are fine (URLs percent-encode them).
 */
export const SLUG_PATTERN = /^(?!\.{1,2}$)[^\s\p{Cc}/\\%?#]+$/u
export const SLUG_RULE = 'must be one path segment: not empty, no whitespace, none of / \\ % ? #, and not . or ..'
