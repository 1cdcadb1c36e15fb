import { z } from 'zod'
import type { Context } from '../domains/context.js'
import { ApiError } from '../core/errors.js'
import type { ReadTx, RowOf } from '../storage/port.js'
import type { AppSchema } from '../domains/schema.js'
import { appendPosition } from '../domains/common/sequence.js'
import { decodeBase64 } from '../domains/content/file-info.js'
import type { BlobPort } from '../storage/blobs.js'
import type { LazyModule } from '../core/lazy.js'

/**
 * The state document: every stored row by collection, as `api.dump()` writes it and
 * `createDocsApi({ seed })` / `api.fixtures.load()` read it. Loading does not trust the rows:
 * each area declares a seed rule per collection (its row schema with the defaults its domain
 * would write, and the references and invariants its operations keep), so a loaded state is one
 * the API itself could have reached.
 */
export const STATE_FORMAT = 'docs-content-api/state'
export const STATE_VERSION = 1

export type CollectionName = keyof AppSchema & string

/** The bytes of a file in a state document: `files` rows name it by `key` (their `blob`). */
export interface StateBlob {
  key: string
  contentType: string
  base64: string
}

export type StateDocument = { format?: typeof STATE_FORMAT; version?: typeof STATE_VERSION; blobs?: StateBlob[] } & {
  [C in CollectionName]?: Array<RowOf<AppSchema, C>>
}

/** Values a row schema may default to: the loading transaction's clock, ids, positions and rows loaded so far. */
export interface SeedDefaults {
  now: string
  newId: () => string
  position: () => number
  /** Rows of the collections loaded before this one (a row's organization from its site, say). */
  tx: ReadTx<AppSchema>
  /**
   * The blob port's key for a blob key of the document: where the bytes of its `blobs` entry were
   * stored, or the key itself when the port already holds it; undefined when neither has it.
   */
  blob(key: string): string | undefined
}

/** What a check sees: the loading transaction, and `fail` naming the field of the row at fault. */
export interface SeedCheck {
  ctx: Context
  /** Throw a 400 `Invalid seed: \`<collection>[<i>].<field>\`: <rule>`. */
  fail(field: string, rule: string): never
}

/**
 * How one collection is loaded. `I` is what a row may be written as in a document (the schema's
 * input: fields with a default optional), kept by `seedRule` for `StateDocumentInput`.
 */
export interface SeedRule<C extends CollectionName = CollectionName, I = unknown> {
  collection: C
  /** The row as the domain would have written it, defaults filled in (unknown keys are an error). */
  row(defaults: SeedDefaults): z.ZodType<RowOf<AppSchema, C>, I>
  /** References and uniqueness of one row, run once every row of the collection is in. */
  check?(s: SeedCheck, row: RowOf<AppSchema, C>): void
  /** Invariants over the whole collection (one default per container...), run after every collection is in. */
  finish?(s: Omit<SeedCheck, 'fail'> & { fail(path: string, rule: string): never }): void
  /**
   * Libraries loaded on first use that the checks of this collection's rows call synchronously
   * (as an operation's `needs`): loaded by `preloadFor` before a document holding such rows is
   * loaded, and by `preload()` in any case.
   */
  needs?: readonly LazyModule<unknown>[]
}

/** Declare a seed rule (keeps the collection's row type, and its schema's input type for `StateDocumentInput`). */
export const seedRule = <C extends CollectionName, S extends z.ZodType<RowOf<AppSchema, C>, unknown>>(
  rule: Omit<SeedRule<C>, 'row'> & { row(defaults: SeedDefaults): S },
): SeedRule<C, z.input<S>> => rule as SeedRule<C, unknown> as SeedRule<C, z.input<S>>

const invalid = (path: string, rule: string): never => {
  throw new ApiError('BAD_REQUEST', `Invalid seed: \`${path}\`: ${rule}`)
}

/** Ids of stored rows: non-empty, printable, no spaces (they go into URLs and index keys). */
export const SeedIdSchema = z.string().regex(/^[\x21-\x7e]{1,200}$/, 'must be 1..200 printable ASCII characters without spaces')
export const SeedTimestampSchema = z.iso.datetime({ error: 'must be an ISO 8601 date-time (e.g. 2026-01-01T00:00:00.000Z)' })

/**
 * Load `doc` in the caller's transaction (a failure leaves the store as it was): the bytes of its
 * `blobs` into the blob port, then collections in the order of `rules` (dependencies first), rows
 * in document order (so lists keep their order), then each rule's checks, then its
 * whole-collection invariants.
 */
export function loadState(ctx: Context, doc: unknown, rules: readonly SeedRule[], blobs: BlobPort): LoadedIds {
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) invalid('(document)', 'must be an object of collections')
  const known = new Set(rules.map((r) => r.collection))
  for (const [key, value] of Object.entries(doc as Record<string, unknown>)) {
    if (key === 'format') {
      if (value !== STATE_FORMAT) invalid('format', `must be "${STATE_FORMAT}"`)
    } else if (key === 'version') {
      if (value !== STATE_VERSION) invalid('version', `must be ${STATE_VERSION} (this version of docs-content-api reads version ${STATE_VERSION})`)
    } else if (key === 'blobs') {
      if (!Array.isArray(value)) invalid(key, 'must be an array of {key, contentType, base64}')
    } else if (!known.has(key as CollectionName)) invalid(key, `unknown collection (known: ${[...known].join(', ')})`)
    else if (!Array.isArray(value)) invalid(key, 'must be an array of rows')
  }
  // Blobs first (the port is not transactional: the ones stored here are deleted if loading fails).
  const stored = new Map<string, string>()
  try {
    return loadRows(ctx, doc as Record<string, unknown>, rules, blobs, stored)
  } catch (error) {
    for (const key of stored.values()) blobs.delete(key)
    throw error
  }
}

const BlobEntrySchema = z.strictObject({
  key: z.string().min(1, 'must not be empty'),
  contentType: z.string().min(1, 'must not be empty'),
  base64: z.string(),
})

/** The ids of the rows a document loaded, by collection (the API resumes their unfinished work: core/resume.ts). */
export type LoadedIds = ReadonlyMap<CollectionName, ReadonlySet<string>>

function loadRows(ctx: Context, doc: Record<string, unknown>, rules: readonly SeedRule[], blobs: BlobPort, stored: Map<string, string>): LoadedIds {
  ;((doc.blobs as unknown[] | undefined) ?? []).forEach((raw, i) => {
    const parsed = BlobEntrySchema.safeParse(raw)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!
      return invalid(
        [`blobs[${i}]`, ...issue.path.map(String)].join('.'),
        issue.code === 'unrecognized_keys' ? `unknown key(s) ${issue.keys.join(', ')}` : issue.message,
      )
    }
    const { key, contentType, base64 } = parsed.data
    if (stored.has(key)) invalid(`blobs[${i}].key`, `"${key}" is given twice`)
    let bytes: Uint8Array
    try {
      bytes = decodeBase64(base64)
    } catch (error) {
      return invalid(`blobs[${i}].base64`, (error as Error).message)
    }
    // The port already holding these very bytes under the key (loading into the API that dumped
    // the document, or a fork of it) keeps them; otherwise they are stored, under the same key when free.
    const held = blobs.get(key)
    if (held && held.contentType === contentType && sameBytes(held.bytes, bytes)) return
    stored.set(key, blobs.put(bytes, contentType, key))
  })
  const defaults: SeedDefaults = {
    now: ctx.nowIso(),
    newId: () => ctx.newId(),
    position: () => appendPosition(ctx),
    tx: ctx.tx,
    blob: (key) => stored.get(key) ?? (blobs.get(key) ? key : undefined),
  }
  const loaded: Array<{ rule: SeedRule; rows: Array<{ row: never; at: string }> }> = []
  for (const rule of rules) {
    const input = (doc[rule.collection] as unknown[] | undefined) ?? []
    const schema = rule.row(defaults)
    const rows = input.map((raw, i) => {
      const at = `${rule.collection}[${i}]`
      const parsed = schema.safeParse(raw)
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!
        const rule = issue.code === 'unrecognized_keys' ? `unknown key(s) ${issue.keys.join(', ')}` : issue.message
        invalid([at, ...issue.path.map(String)].join('.'), rule)
      }
      const row = parsed.data as never as { id: string }
      if (ctx.tx.get(rule.collection, row.id)) invalid(`${at}.id`, `"${row.id}" is taken (another row of ${rule.collection} has it)`)
      ctx.tx.insert(rule.collection, row as never)
      return { row: row as never, at }
    })
    loaded.push({ rule, rows })
    for (const { row, at } of rows) rule.check?.({ ctx, fail: (field, why) => invalid(`${at}.${field}`, why) }, row)
  }
  for (const { rule } of loaded) rule.finish?.({ ctx, fail: invalid })
  return new Map(loaded.map(({ rule, rows }) => [rule.collection, new Set(rows.map(({ row }) => (row as { id: string }).id))]))
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false
  return true
}
