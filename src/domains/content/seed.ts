import { z } from 'zod'
import { SeedTimestampSchema, seedRule } from '../../state/seed.js'
import { ContentBucketRowSchema, FileRowSchema, PageVersionRowSchema, ReusableContentVersionRowSchema, RevisionRowSchema } from './rows.js'

const pageVersionRow = PageVersionRowSchema.shape
const revisionRow = RevisionRowSchema.shape
const revisionGit = revisionRow.git.unwrap()

/**
 * Content rows in a state document, as `api.dump()` writes them: files, page versions, index
 * buckets and revisions (immutable rows, loaded as they are, their references checked).
 * A file's bytes come in the document's `blobs` (see state/seed.ts); its row names them by key.
 */
export const contentSeedRules = [
  seedRule({
    collection: 'files',
    row: (d) =>
      FileRowSchema.extend({
        // The key the document's bytes were stored under (state/seed.ts).
        blob: FileRowSchema.shape.blob.transform(
          (key, c) => d.blob(key) ?? (c.addIssue({ code: 'custom', message: `no bytes for blob "${key}" (give them in the document's \`blobs\`)` }), z.NEVER),
        ),
        createdAt: SeedTimestampSchema.default(d.now),
      }),
    check: ({ ctx, fail }, row) => {
      if (!ctx.tx.get('spaces', row.space)) fail('space', `no space "${row.space}"`)
    },
  }),
  seedRule({
    collection: 'pageVersions',
    row: (d) =>
      PageVersionRowSchema.extend({
        type: pageVersionRow.type.default('document'),
        children: pageVersionRow.children.default([]),
        createdAt: SeedTimestampSchema.default(d.now),
        updatedAt: SeedTimestampSchema.default(d.now),
      }),
    check: ({ ctx, fail }, row) => {
      if (!ctx.tx.get('spaces', row.space)) fail('space', `no space "${row.space}"`)
    },
  }),
  seedRule({
    collection: 'reusableContentVersions',
    row: (d) =>
      ReusableContentVersionRowSchema.extend({
        createdAt: SeedTimestampSchema.default(d.now),
        updatedAt: SeedTimestampSchema.default(d.now),
      }),
    check: ({ ctx, fail }, row) => {
      if (!ctx.tx.get('spaces', row.space)) fail('space', `no space "${row.space}"`)
    },
  }),
  seedRule({
    collection: 'contentBuckets',
    row: () => ContentBucketRowSchema,
    check: ({ ctx, fail }, row) => {
      // One space's pages per bucket (a revision names an empty bucket as ''): purging a space
      // removes the buckets of its revisions, which must hold nothing another space reads.
      let space: string | undefined
      for (const [page, version] of Object.entries(row.entries)) {
        const found = ctx.tx.get('pageVersions', version)
        if (!found || found.page !== page) return fail(`entries.${page}`, `no version "${version}" of page "${page}"`)
        space ??= found.space
        if (found.space !== space)
          fail(
            `entries.${page}`,
            `version "${version}" is of space "${found.space}", the bucket's other pages of space "${space}" (a bucket holds the pages of one space)`,
          )
      }
      if (space === undefined) fail('entries', 'must hold at least one page (a revision names an empty bucket as "")')
    },
  }),
  seedRule({
    collection: 'revisions',
    row: (d) =>
      RevisionRowSchema.extend({
        parents: revisionRow.parents.default([]),
        type: revisionRow.type.default('edits'),
        createdAt: SeedTimestampSchema.default(d.now),
        rootPages: revisionRow.rootPages.default([]),
        buckets: revisionRow.buckets.default([]),
        files: revisionRow.files.default([]),
        variables: revisionRow.variables.default({}),
        git: revisionGit.extend({ createdByGitBook: revisionGit.shape.createdByGitBook.default(false) }).optional(),
      }),
    check: ({ ctx, fail }, row) => {
      if (!ctx.tx.get('spaces', row.space)) fail('space', `no space "${row.space}"`)
      row.buckets.forEach((b, i) => {
        if (b === '') return
        const bucket = ctx.tx.get('contentBuckets', b)
        if (!bucket) return fail(`buckets.${i}`, `no content bucket "${b}"`)
        // Every page of a bucket is of one space (checked above): the first says which.
        const space = ctx.tx.get('pageVersions', Object.values(bucket.entries)[0]!)!.space
        if (space !== row.space) fail(`buckets.${i}`, `content bucket "${b}" holds pages of space "${space}", not of the revision's space "${row.space}"`)
      })
      row.files.forEach((f, i) => {
        if (ctx.tx.get('files', f)?.space !== row.space) fail(`files.${i}`, `no file "${f}" in space "${row.space}"`)
      })
      for (const [id, version] of Object.entries(row.reusableContents ?? {})) {
        const found = ctx.tx.get('reusableContentVersions', version)
        if (!found || found.space !== row.space || found.reusableContent !== id)
          fail(`reusableContents.${id}`, `no version "${version}" of reusable content "${id}" in space "${row.space}"`)
      }
    },
    // Content rows no revision reaches could never be read, and purging their space (which walks
    // its revisions, see purge.ts) would leave them behind: every bucket must be named by a
    // revision, every page version held by a bucket.
    finish: ({ ctx, fail }) => {
      const named = new Set<string>()
      for (const rev of ctx.tx.all('revisions')) for (const b of rev.buckets) named.add(b)
      const held = new Set<string>()
      for (const bucket of ctx.tx.all('contentBuckets')) {
        if (!named.has(bucket.id)) fail(`contentBuckets[id=${bucket.id}]`, 'no revision names this bucket')
        for (const version of Object.values(bucket.entries)) held.add(version)
      }
      for (const version of ctx.tx.all('pageVersions'))
        if (!held.has(version.id)) fail(`pageVersions[id=${version.id}]`, 'no content bucket holds this page version')
      // Reusable content versions too: purging a space finds them by space, but one no revision
      // names could never be read.
      const namedVersions = new Set<string>()
      for (const rev of ctx.tx.all('revisions')) for (const version of Object.values(rev.reusableContents ?? {})) namedVersions.add(version)
      for (const version of ctx.tx.all('reusableContentVersions'))
        if (!namedVersions.has(version.id)) fail(`reusableContentVersions[id=${version.id}]`, 'no revision holds this reusable content version')
      // Change requests load after content: the revisions made for one are checked here.
      for (const rev of ctx.tx.all('revisions')) {
        if (rev.changeRequest !== undefined && ctx.tx.get('changeRequests', rev.changeRequest)?.space !== rev.space)
          fail(`revisions[id=${rev.id}].changeRequest`, `no change request "${rev.changeRequest}" in space "${rev.space}"`)
      }
    },
  }),
]
