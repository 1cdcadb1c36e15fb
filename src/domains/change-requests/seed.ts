import { SeedTimestampSchema, seedRule } from '../../state/seed.js'
import { commentThread } from '../comments/rows.js'
import { ChangeRequestRowSchema, RequestedReviewerRowSchema, ReviewRowSchema } from './rows.js'

const changeRequestRow = ChangeRequestRowSchema.shape

/**
 * Change requests, reviews and review requests in a state document. The space counters
 * (`changeRequests`, `changeRequestsOpen`, `changeRequestsDraft`) are recounted from the loaded
 * change requests, and each change request's `comments` from the loaded comments, whatever the
 * document said: they are derived, and must be exact.
 */
export const changeRequestSeedRules = [
  seedRule({
    collection: 'changeRequests',
    row: (d) =>
      // The space's organization, and the creation time as the last update, when left out.
      ChangeRequestRowSchema.partial({ organization: true, updatedAt: true })
        .extend({
          status: changeRequestRow.status.default('open'),
          createdAt: SeedTimestampSchema.default(d.now),
          comments: changeRequestRow.comments.default(0),
          contributors: changeRequestRow.contributors.default([]),
        })
        .transform((c) => ({ ...c, organization: c.organization ?? d.tx.get('spaces', c.space)?.organization ?? '', updatedAt: c.updatedAt ?? c.createdAt })),
    check: ({ ctx, fail }, row) => {
      const space = ctx.tx.get('spaces', row.space)
      if (!space) return fail('space', `no space "${row.space}"`)
      if (row.organization !== space.organization) fail('organization', `must be the space's organization "${space.organization}"`)
      if (!ctx.tx.get('users', row.createdBy)) fail('createdBy', `no user "${row.createdBy}"`)
      if (ctx.tx.count('changeRequests', 'byNumber', `${row.space}/${row.number}`) > 1) fail('number', `#${row.number} is taken in space "${row.space}"`)
    },
    finish: ({ ctx }) => {
      for (const space of ctx.tx.all('spaces')) {
        const count = (status: string) => ctx.tx.count('changeRequests', 'bySpaceStatus', `${space.id}/${status}`)
        const counters = {
          changeRequests: ctx.tx.count('changeRequests', 'bySpace', space.id),
          changeRequestsOpen: count('open'),
          changeRequestsDraft: count('draft'),
        }
        if (
          counters.changeRequests !== space.changeRequests ||
          counters.changeRequestsOpen !== space.changeRequestsOpen ||
          counters.changeRequestsDraft !== space.changeRequestsDraft
        ) {
          ctx.tx.update('spaces', { ...space, ...counters })
        }
      }
      // `comments`: the change request's open comments (loaded after it; see comments/seed.ts).
      for (const cr of ctx.tx.all('changeRequests')) {
        const comments = ctx.tx.count('comments', 'byThreadStatus', `${commentThread({ space: cr.space, changeRequest: cr.id })}/open`)
        if (comments !== cr.comments) ctx.tx.update('changeRequests', { ...cr, comments })
      }
    },
  }),
  seedRule({
    collection: 'reviews',
    row: (d) =>
      ReviewRowSchema.extend({
        outdated: ReviewRowSchema.shape.outdated.default(false),
        createdAt: SeedTimestampSchema.default(d.now),
        updatedAt: SeedTimestampSchema.default(d.now),
      }),
    check: ({ ctx, fail }, row) => {
      if (ctx.tx.get('changeRequests', row.changeRequest)?.space !== row.space)
        fail('changeRequest', `no change request "${row.changeRequest}" in space "${row.space}"`)
      if (!ctx.tx.get('users', row.reviewer)) fail('reviewer', `no user "${row.reviewer}"`)
    },
  }),
  seedRule({
    collection: 'requestedReviewers',
    row: (d) => RequestedReviewerRowSchema.extend({ createdAt: SeedTimestampSchema.default(d.now) }),
    check: ({ ctx, fail }, row) => {
      if (ctx.tx.get('changeRequests', row.changeRequest)?.space !== row.space)
        fail('changeRequest', `no change request "${row.changeRequest}" in space "${row.space}"`)
      if (row.id !== `${row.changeRequest}/${row.user}`) fail('id', 'must be `<changeRequest>/<user>`')
    },
  }),
]
