import fc from 'fast-check'

/**
 * Inputs a careful client never sends. Each is something a parser, a regex, a JSON encoder or a
 * sort has been known to choke on: NUL, lone surrogates (valid in a JS string, not in UTF-8),
 * bidi overrides, combining marks, emoji sequences, path tricks, prototype keys.
 */
export const HOSTILE_STRINGS: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff',
  'x\ud83dy',
  '\u202eevil\u202c',
  'שלום עולם',
  'مرحبا',
  '👩‍👩‍👧‍👦',
  '🏳️‍🌈x',
  'e\u0301\u0301\u0301',
  '\ufeffbom',
  '../..',
  '%2e%2e%2f',
  '/',
  '?#&=',
  '__proto__',
  'constructor',
  'toString',
  '<script>alert(1)</script>',
  "'; DROP TABLE spaces; --",
  '\r\n\t',
  'null',
  'undefined',
  'NaN',
  '0x10',
  '1e2',
  '-0',
  'Infinity',
]

/**
 * URLs no outgoing request may reach, and link targets no page may carry: loopback, private,
 * link-local (cloud metadata) and unspecified addresses in their spellings, local names, and
 * schemes other than http and https (URL fields are fetched or shown as links).
 */
export const HOSTILE_URLS: readonly string[] = [
  'http://127.0.0.1/spec.json',
  'http://127.1:4000/v1/orgs',
  'http://0x7f000001/a.png',
  'http://2130706433/a.png',
  'http://[::1]/spec.yaml',
  'http://[::ffff:127.0.0.1]/a.png',
  'http://169.254.169.254/latest/meta-data/',
  'http://10.0.0.7/a.png',
  'http://192.168.1.1/spec.json',
  'http://0.0.0.0/',
  'http://localhost:4000/v1/orgs',
  'http://metadata.google.internal/computeMetadata/v1/',
  'https://user:secret@127.0.0.1/repo.git',
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'file:///etc/passwd',
  'ftp://example.com/a.png',
]

/** Strings past every limit: the schema's maximum plus one, and a few long ones. */
export const longString = (max: number | undefined): fc.Arbitrary<string> => fc.constantFrom((max ?? 1000) + 1, 5_000, 70_000).map((n) => 'x'.repeat(n))

/** Any JSON value of a type a field does not expect (the mutation picks one at random). */
export const wrongTyped: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1.5, 2 ** 53 + 1, -(2 ** 31) - 1, 1e308, -1e308, [], {}, [null], { '': null }),
  fc.constantFrom(...HOSTILE_STRINGS),
  fc.jsonValue({ maxDepth: 2 }),
)

/** Values for numeric query parameters that `Number()` reads in surprising ways. */
export const NUMERIC_QUERY_VALUES = [
  '',
  ' ',
  '0x10',
  '1e2',
  '1e400',
  '-1',
  '-0',
  '0',
  '1.5',
  'NaN',
  'Infinity',
  '1001',
  '9007199254740993',
  '١٢',
  '5abc',
  '0b11',
  '+3',
]

/** Raw request bodies that are not the JSON object an operation takes. */
export const MALFORMED_BODIES: readonly string[] = [
  '{',
  '{"a":',
  '[1,]',
  'nul',
  "{'a':1}",
  '{"a":1}}',
  '\u0000',
  '\ud800',
  '[]',
  '"x"',
  '1',
  'null',
  'true',
  '{"__proto__":{"admin":true}}',
  ' {} ',
]

/** Content types an operation must refuse (415) or treat as JSON (`+json`). */
export const CONTENT_TYPES: readonly string[] = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=utf-16',
  'application/vnd.api+json',
  'APPLICATION/JSON',
  '',
]

/**
 * Ids nothing in the world has, and strings that are not ids at all. No `.` or `..`: the URL
 * parser resolves those path segments (even as `%2e`) before any server sees the request.
 */
export const UNKNOWN_IDS: readonly string[] = [
  'id999999',
  'nope',
  'x'.repeat(300),
  '0',
  '-1',
  '...',
  '%00',
  '\ud800',
  '👩‍👩‍👧‍👦',
  'ID1',
  'id1 ',
  ' id1',
  'null',
  '__proto__',
]
