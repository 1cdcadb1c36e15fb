import { lazyModule } from '../../core/lazy.js'

/** image-size, loaded when the first file is inspected (not when the package is imported). */
const imageSizeLib = lazyModule('image-size', () => import('image-size'))

/** Load what `inspectFile` uses (image-size): awaited once before inspecting files. */
export function loadFileInspection(): Promise<unknown> {
  return imageSizeLib.load()
}

/** What a file's bytes say about it. */
export interface FileFacts {
  size: number
  contentType: string
  dimensions?: { width: number; height: number }
}

/**
 * Magic numbers of the types worth recognising, checked in order. A small table rather than a
 * sniffing library: the API needs the image types (for dimensions) and a few common documents,
 * and anything else keeps the type the client declared.
 */
const MAGIC: ReadonlyArray<{ type: string; at: number; bytes: readonly number[] }> = [
  { type: 'image/png', at: 0, bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { type: 'image/jpeg', at: 0, bytes: [0xff, 0xd8, 0xff] },
  { type: 'image/gif', at: 0, bytes: ascii('GIF87a') },
  { type: 'image/gif', at: 0, bytes: ascii('GIF89a') },
  { type: 'image/webp', at: 8, bytes: ascii('WEBP') }, // after "RIFF" and a length, checked below
  { type: 'application/pdf', at: 0, bytes: ascii('%PDF-') },
  { type: 'application/zip', at: 0, bytes: [0x50, 0x4b, 0x03, 0x04] },
  { type: 'application/zip', at: 0, bytes: [0x50, 0x4b, 0x05, 0x06] }, // an empty archive
]

/** Types by file extension: the last resort before application/octet-stream. */
const BY_EXTENSION: Readonly<Record<string, string>> = {
  md: 'text/markdown',
  markdown: 'text/markdown',
  txt: 'text/plain',
  json: 'application/json',
  csv: 'text/csv',
  html: 'text/html',
  htm: 'text/html',
  css: 'text/css',
  js: 'text/javascript',
  xml: 'application/xml',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
  zip: 'application/zip',
  mp4: 'video/mp4',
}

const OCTET_STREAM = 'application/octet-stream'
/** `type/subtype`, optionally with parameters: anything else declared is ignored, not stored. */
const MEDIA_TYPE = /^[\w!#$&^.+-]+\/[\w!#$&^.+-]+(\s*;.*)?$/

function ascii(text: string): number[] {
  return [...text].map((c) => c.charCodeAt(0))
}

function startsWith(bytes: Uint8Array, at: number, expected: readonly number[]): boolean {
  if (bytes.length < at + expected.length) return false
  return expected.every((b, i) => bytes[at + i] === b)
}

/** An SVG document: text starting with `<svg`, or an XML declaration or SVG doctype followed by `<svg`. */
function isSvg(bytes: Uint8Array): boolean {
  // The root element comes early; decoding a bounded head keeps this cheap for large files.
  const head = new TextDecoder()
    .decode(bytes.subarray(0, 2048))
    .replace(/^\uFEFF/, '')
    .trimStart()
    .toLowerCase()
  if (head.startsWith('<svg')) return true
  return (head.startsWith('<?xml') || head.startsWith('<!doctype svg')) && head.includes('<svg')
}

function sniff(bytes: Uint8Array): string | undefined {
  for (const { type, at, bytes: magic } of MAGIC) {
    if (type === 'image/webp' && !startsWith(bytes, 0, ascii('RIFF'))) continue
    if (startsWith(bytes, at, magic)) return type
  }
  return isSvg(bytes) ? 'image/svg+xml' : undefined
}

function essence(type: string): string {
  return type.split(';')[0]!.trim().toLowerCase()
}

/**
 * Zip is a container: an Office document, an EPUB or a JAR is a zip too. When the client
 * declared such a specific application type, the bytes confirm it rather than contradict it.
 */
function refines(declared: string, sniffed: string): boolean {
  const d = essence(declared)
  return sniffed === 'application/zip' && d.startsWith('application/') && d !== OCTET_STREAM
}

function extensionOf(name: string): string | undefined {
  const base = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1)
  const dot = base.lastIndexOf('.')
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : undefined
}

/**
 * Width and height of an image, or undefined when image-size cannot read them. Only asked of
 * bytes sniffed as an image: image-size also recognises loose formats (PNM's "P1", TGA) that
 * plain text could be mistaken for.
 */
function dimensionsOf(bytes: Uint8Array): { width: number; height: number } | undefined {
  const { imageSize } = imageSizeLib.get()
  try {
    const { width, height, orientation } = imageSize(bytes)
    if (!(width > 0 && height > 0 && Number.isFinite(width) && Number.isFinite(height))) return undefined
    // EXIF orientations 5-8 rotate a JPEG by a quarter turn: it is displayed height by width.
    return orientation !== undefined && orientation >= 5 ? { width: height, height: width } : { width, height }
  } catch {
    return undefined // truncated or malformed: the file is still stored, without dimensions
  }
}

/**
 * Size, content type and (for images) dimensions of bytes. `declared` is a content type the
 * client gave (kept when the bytes don't say otherwise), `name` the file name (extension as a hint).
 *
 * The type is, in order: what the magic numbers say (a PNG declared as image/jpeg is a PNG), the
 * declared type, the extension's, application/octet-stream. A declared application/octet-stream
 * says nothing, so the extension may still name the type.
 */
export function inspectFile(bytes: Uint8Array, options: { declared?: string; name?: string }): FileFacts {
  const declared = options.declared?.trim()
  const usable = declared && MEDIA_TYPE.test(declared) && essence(declared) !== OCTET_STREAM ? declared : undefined
  const sniffed = sniff(bytes)
  const extension = options.name === undefined ? undefined : extensionOf(options.name)
  const byExtension = extension === undefined ? undefined : BY_EXTENSION[extension]
  const contentType = sniffed && !(usable && refines(usable, sniffed)) ? sniffed : (usable ?? byExtension ?? OCTET_STREAM)
  const facts: FileFacts = { size: bytes.byteLength, contentType }
  if (sniffed?.startsWith('image/')) {
    const dimensions = dimensionsOf(bytes)
    if (dimensions) facts.dimensions = dimensions
  }
  return facts
}

/**
 * Decode standard or URL-safe base64 (with or without padding, whitespace ignored) into bytes,
 * or throw a TypeError naming the problem. Uses the web-standard atob, after checking the text
 * itself so the error says what is wrong (atob's own says only "invalid character").
 */
export function decodeBase64(text: string): Uint8Array {
  const compact = text.replace(/[\t\n\f\r ]+/g, '')
  const bad = /[^A-Za-z0-9+/_=-]/.exec(compact)
  if (bad) throw new TypeError(`Invalid base64: unexpected character ${JSON.stringify(bad[0])} at position ${bad.index}`)
  if (/[+/]/.test(compact) && /[-_]/.test(compact)) throw new TypeError('Invalid base64: mixes the standard (+/) and URL-safe (-_) alphabets')
  const padding = /=*$/.exec(compact)![0].length
  const body = compact.slice(0, compact.length - padding)
  if (body.includes('=')) throw new TypeError('Invalid base64: "=" padding is only allowed at the end')
  if (padding > 2 || (padding > 0 && compact.length % 4 !== 0)) throw new TypeError('Invalid base64: wrong padding')
  if (body.length % 4 === 1) throw new TypeError(`Invalid base64: a length of ${body.length} characters is not a whole number of bytes`)
  const standard = body.replace(/-/g, '+').replace(/_/g, '/')
  const binary = atob(standard + '='.repeat((4 - (standard.length % 4)) % 4))
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

/** Standard base64 of bytes (web-standard btoa, in chunks so a large file never makes one huge argument list). */
export function encodeBase64(bytes: Uint8Array): string {
  let binary = ''
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(binary)
}
