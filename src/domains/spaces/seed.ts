import { SeedTimestampSchema, seedRule } from '../../state/seed.js'
import { commentThread } from '../comments/rows.js'
import { SpaceRowSchema } from './rows.js'

const spaceRow = SpaceRowSchema.shape

/**
 * The counters of a space: recounted once everything is loaded, whatever the document said
 * (`comments` below, the change-request ones in change-requests/seed.ts): they are derived.
 */
const counter = spaceRow.comments.default(0)

/** Spaces in a state document (trashed ones included, with their `deletedAt`). */
export const spaceSeedRules = [
  seedRule({
    collection: 'spaces',
    row: (d) =>
      SpaceRowSchema.partial({ visibility: true, updatedAt: true })
        .extend({
          title: spaceRow.title.default('Untitled'),
          emoji: spaceRow.emoji.default(''),
          createdAt: SeedTimestampSchema.default(d.now),
          mergeRules: spaceRow.mergeRules.default({ type: 'inherit' }),
          revision: spaceRow.revision.default(d.newId),
          defaultLevel: spaceRow.defaultLevel.default(null),
          position: spaceRow.position.default(d.position),
          comments: counter,
          changeRequests: counter,
          changeRequestsOpen: counter,
          changeRequestsDraft: counter,
        })
        // The defaults createSpace applies: `in-collection` in a collection, else `private`; updated when created.
        .transform((s) => ({ ...s, visibility: s.visibility ?? (s.parent ? 'in-collection' : 'private'), updatedAt: s.updatedAt ?? s.createdAt })),
    check: ({ ctx, fail }, row) => {
      if (!ctx.tx.get('organizations', row.organization)) fail('organization', `no organization "${row.organization}"`)
      if (row.parent !== undefined && ctx.tx.get('collections', row.parent)?.organization !== row.organization) {
        fail('parent', `no collection "${row.parent}" in organization "${row.organization}"`)
      }
      if (row.visibility === 'in-collection' && row.parent === undefined) fail('visibility', '`in-collection` is only for spaces in a collection')
      if (row.emoji !== '' && row.icon !== undefined) fail('icon', 'a space has an emoji or an icon, not both')
    },
    // `comments`: the open comments of the space's own thread (those of its change requests count on them).
    finish: ({ ctx }) => {
      for (const space of ctx.tx.all('spaces')) {
        const comments = ctx.tx.count('comments', 'byThreadStatus', `${commentThread({ space: space.id })}/open`)
        if (comments !== space.comments) ctx.tx.update('spaces', { ...space, comments })
      }
    },
  }),
]
