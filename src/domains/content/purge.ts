import type { Context } from '../context.js'

/**
 * Remove every content row of a space being purged: its revisions, the index buckets they name,
 * the page versions those buckets hold, and its files. Buckets and page versions are never
 * shared across spaces (duplicating a space copies them, see copy.ts; loading a state document
 * refuses one that shares them, see seed.ts), so nothing another space reads goes with them; and
 * every bucket and page version is named by a revision of its space (the seed checks that too),
 * so walking the revisions finds them all. Cost: O(revisions × 64 + the buckets' entries).
 *
 * File bytes stay in the blob port: a blob may be shared by a duplicated space's files and by
 * the API's snapshots and forks (the port keeps no reference counts). Reusable content versions
 * are found by their space's index (never shared across spaces either).
 */
export function removeSpaceContent(ctx: Context, spaceId: string): void {
  const buckets = new Set<string>()
  for (const { row } of ctx.tx.scan('revisions', 'bySpace', spaceId)) {
    for (const bucket of row.buckets) if (bucket !== '') buckets.add(bucket)
    ctx.tx.delete('revisions', row.id)
  }
  for (const id of buckets) {
    const bucket = ctx.tx.get('contentBuckets', id)
    if (!bucket) continue
    // Unchanged pages keep their version from revision to revision: a version may be in several buckets.
    for (const version of Object.values(bucket.entries)) ctx.tx.delete('pageVersions', version)
    ctx.tx.delete('contentBuckets', id)
  }
  for (const { row } of ctx.tx.scan('files', 'bySpace', spaceId)) ctx.tx.delete('files', row.id)
  for (const { row } of ctx.tx.scan('reusableContentVersions', 'bySpace', spaceId)) ctx.tx.delete('reusableContentVersions', row.id)
}
