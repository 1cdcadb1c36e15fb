import { beforeAll, describe, expect, it } from 'vitest'
import { decodeBase64, inspectFile, loadFileInspection } from '../../../src/domains/content/file-info.js'

const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0))
const text = (s: string) => new TextEncoder().encode(s)

// Real tiny images, built here: each is what its format's reader needs and no more.
/** A 3x2 RGBA PNG (made with zlib: signature, IHDR, IDAT, IEND, valid CRCs). */
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAMAAAACCAYAAACddGYaAAAAC0lEQVR4nGNgwAUAABoAAbw84EEAAAAASUVORK5CYII='
/** A 5x4 GIF: header, logical screen descriptor, trailer. */
const GIF = new Uint8Array([...ascii('GIF89a'), 5, 0, 4, 0, 0, 0, 0, 0x3b])
/** A 10x7 WebP in the extended (VP8X) layout: canvas width-1 and height-1 in 24 bits. */
const WEBP = new Uint8Array([...ascii('RIFF'), 22, 0, 0, 0, ...ascii('WEBPVP8X'), 10, 0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 6, 0, 0])
/** A 9x7 baseline JPEG frame header after a JFIF APP0 segment. */
const SOF = [0xff, 0xc0, 0, 17, 8, 0, 7, 0, 9, 3, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0, 0xff, 0xd9]
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, ...ascii('JFIF'), 0, 1, 1, 0, 0, 1, 0, 1, 0, 0, ...SOF])
/** The same JPEG with EXIF orientation 6 (rotated a quarter turn): displayed 7 wide, 9 high. */
const EXIF = [...ascii('Exif'), 0, 0, ...ascii('MM'), 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0]
const JPEG_ROTATED = new Uint8Array([0xff, 0xd8, 0xff, 0xe1, 0, EXIF.length + 2, ...EXIF, ...SOF])
const SVG = text('<svg xmlns="http://www.w3.org/2000/svg" width="30" height="20"><rect width="1" height="1"/></svg>')

describe('inspectFile', () => {
  // image-size is loaded on first use: the API awaits this before inspecting files.
  beforeAll(() => loadFileInspection())
  it.each([
    ['png', decodeBase64(PNG_BASE64), 'image/png', { width: 3, height: 2 }],
    ['gif', GIF, 'image/gif', { width: 5, height: 4 }],
    ['webp', WEBP, 'image/webp', { width: 10, height: 7 }],
    ['jpeg', JPEG, 'image/jpeg', { width: 9, height: 7 }],
    ['jpeg rotated by EXIF', JPEG_ROTATED, 'image/jpeg', { width: 7, height: 9 }],
    ['svg', SVG, 'image/svg+xml', { width: 30, height: 20 }],
    [
      'svg after an XML declaration',
      text('<?xml version="1.0"?>\n<svg viewBox="0 0 8 6" xmlns="http://www.w3.org/2000/svg"></svg>'),
      'image/svg+xml',
      { width: 8, height: 6 },
    ],
  ])('reads type and dimensions of a %s', (_, bytes, contentType, dimensions) => {
    expect(inspectFile(bytes, {})).toEqual({ size: bytes.byteLength, contentType, dimensions })
  })

  it('believes the bytes over a declared type that contradicts them', () => {
    expect(inspectFile(GIF, { declared: 'image/png', name: 'a.png' }).contentType).toBe('image/gif')
  })

  it('sniffs pdf and zip, and keeps a declared zip-based type', () => {
    expect(inspectFile(text('%PDF-1.7\n...'), {})).toEqual({ size: 12, contentType: 'application/pdf' })
    const zip = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0, 0])
    expect(inspectFile(zip, {}).contentType).toBe('application/zip')
    const docx = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'
    expect(inspectFile(zip, { declared: docx }).contentType).toBe(docx)
  })

  it('keeps the declared type when the bytes say nothing, then falls back to the extension, then octet-stream', () => {
    const bytes = text('# Title\n')
    expect(inspectFile(bytes, { declared: 'text/x-custom; charset=utf-8', name: 'a.md' }).contentType).toBe('text/x-custom; charset=utf-8')
    expect(inspectFile(bytes, { name: 'docs/README.MD' }).contentType).toBe('text/markdown')
    expect(inspectFile(bytes, { declared: 'application/octet-stream', name: 'a.csv' }).contentType).toBe('text/csv')
    expect(inspectFile(bytes, { declared: 'not a type', name: 'noextension' }).contentType).toBe('application/octet-stream')
    expect(inspectFile(bytes, { name: '.hidden' }).contentType).toBe('application/octet-stream')
  })

  it('gives no dimensions for non-images or broken images, and never throws', () => {
    expect(inspectFile(text('P1\n2 2\n0 1 1 0\n'), { name: 'a.txt' })).toEqual({ size: 15, contentType: 'text/plain' })
    const truncated = decodeBase64(PNG_BASE64).slice(0, 12)
    expect(inspectFile(truncated, {})).toEqual({ size: 12, contentType: 'image/png' })
    expect(inspectFile(text('<svg xmlns="http://www.w3.org/2000/svg"></svg>'), {})).toEqual({ size: 46, contentType: 'image/svg+xml' })
    expect(inspectFile(new Uint8Array(), {})).toEqual({ size: 0, contentType: 'application/octet-stream' })
  })

  it('does not take an HTML page that mentions <svg for an SVG', () => {
    expect(inspectFile(text('<!doctype html><svg width="1" height="1"></svg>'), { name: 'a.html' }).contentType).toBe('text/html')
  })
})

describe('decodeBase64', () => {
  const decoded = (s: string) => [...decodeBase64(s)]

  it('decodes standard base64, with or without padding, ignoring whitespace', () => {
    expect(decoded('aGVsbG8=')).toEqual(ascii('hello'))
    expect(decoded('aGVsbG8')).toEqual(ascii('hello'))
    expect(decoded(' aGVs\n bG8=\r\n')).toEqual(ascii('hello'))
    expect(decoded('')).toEqual([])
  })

  it('decodes URL-safe base64', () => {
    expect(decoded('-_8')).toEqual([0xfb, 0xff])
    expect(decoded('-_8=')).toEqual([0xfb, 0xff])
    expect(decoded('+/8=')).toEqual([0xfb, 0xff])
  })

  it.each([
    ['aGVs*G8=', /unexpected character "\*" at position 4/],
    ['aGVsbG8===', /padding/],
    ['aGV=sbG8', /only allowed at the end/],
    ['aGVsb', /not a whole number of bytes/],
    ['+/-_', /mixes/],
    ['aGVsbG8\u00e9', /unexpected character/],
  ])('refuses %j with a TypeError naming the problem', (input, message) => {
    expect(() => decodeBase64(input)).toThrow(TypeError)
    expect(() => decodeBase64(input)).toThrow(message)
  })
})
