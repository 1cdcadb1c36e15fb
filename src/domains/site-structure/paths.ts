import { ApiError } from '../../core/errors.js'

/**
 * Paths of sections (unique in their site: groups add nothing to URLs) and of site-spaces (unique
 * in their section, or at the site's root). A path given by the caller must be free; one derived
 * from a title gets `-2`, `-3`... until it is.
 */

/** A URL-safe slug of a title: lower-case ASCII letters and digits joined by dashes. */
export function slugify(title: string, fallback: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 90)
    .replace(/-+$/g, '')
  return slug || fallback
}

/** The first free path derived from `title`. */
export function derivePath(title: string, fallback: string, taken: (path: string) => boolean): string {
  const base = slugify(title, fallback)
  if (!taken(base)) return base
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`
    if (!taken(candidate)) return candidate
  }
}

/** A path given by the caller: a 409 when a sibling already uses it. */
export function requireFreePath(path: string, taken: (path: string) => boolean, what: string): string {
  if (taken(path)) throw new ApiError('CONFLICT', `The path \`${path}\` is already used by another ${what}`)
  return path
}
