/**
 * Where a link, an image or an embed may point: an http, https or mailto URL, or a relative
 * reference (a path, `./x`, `/files/<id>`, `#anchor`, `?query`, `//host/path`). Anything else
 * (`javascript:`, `data:`, `vbscript:`, `file:`...) would be a script, or a page of its own, in
 * every front end that renders the document: it is refused in what a request sends and dropped
 * from what a Git repository holds (see content/link-targets.ts).
 *
 * The scheme is read as a browser reads it, and then some: entities decoded (`&#106;avascript:`,
 * `&colon;`, for a renderer that would write the URL into HTML unescaped), control characters
 * and ASCII white space dropped wherever they are (`java\tscript:`, ` javascript:`, `\0javascript:`),
 * letters of any case.
 */

const ALLOWED = new Set(['http', 'https', 'mailto'])

const NAMED: Record<string, string> = { colon: ':', tab: '\t', newline: '\n' }

/** HTML character references decoded (numeric ones, and the named ones that could write a scheme or hide one). */
function decodeEntities(text: string): string {
  if (!text.includes('&')) return text
  return text.replace(
    /&(?:#(\d{1,7})|#x([\da-f]{1,6})|([a-z]{2,8}));?/gi,
    (whole, dec: string | undefined, hex: string | undefined, name: string | undefined) => {
      if (name !== undefined) return NAMED[name.toLowerCase()] ?? whole
      const code = dec !== undefined ? Number(dec) : parseInt(hex!, 16)
      return code > 0x10ffff ? whole : String.fromCodePoint(code)
    },
  )
}

/** The scheme of a URL as a browser would read it (lower-case, without `:`), undefined for a relative reference. */
export function linkScheme(url: string): string | undefined {
  // Control characters (C0, DEL, C1) and ASCII white space go wherever they are: a browser drops
  // tabs and line breaks anywhere and the rest around the URL; dropping more refuses more.
  // eslint-disable-next-line no-control-regex
  const text = decodeEntities(url).replace(/[\u0000-\u0020\u007f-\u009f]/g, '')
  const colon = text.indexOf(':')
  if (colon < 0) return undefined
  const scheme = text.slice(0, colon)
  // A colon after a `/`, `?` or `#` is in a path, a query or a fragment; a scheme starts with a letter.
  return /^[a-z][a-z\d+.-]*$/i.test(scheme) ? scheme.toLowerCase() : undefined
}

/** Why `url` may not be a link's target (undefined when it may). */
export function linkTargetProblem(url: string): string | undefined {
  const scheme = linkScheme(url)
  if (scheme === undefined || ALLOWED.has(scheme)) return undefined
  return `has the scheme \`${scheme.slice(0, 40)}:\`: links, images and embeds may go to http, https and mailto URLs (and relative ones) only`
}
