import { z } from 'zod'
import { SeedIdSchema, SeedTimestampSchema, seedRule } from '../../state/seed.js'
import { commentThread } from '../comments/rows.js'
import { JsonDocumentSchema } from '../content/schemas.js'
import { SubjectSchema } from './schemas.js'

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
      z
        .strictObject({
          id: SeedIdSchema,
          space: SeedIdSchema,
          organization: SeedIdSchema.optional(),
          number: z.number().int().min(1),
          status: z.enum(['draft', 'open', 'merged', 'archived']).default('open'),
          subject: SubjectSchema.optional(),
          description: JsonDocumentSchema.optional(),
          createdBy: SeedIdSchema,
          createdAt: SeedTimestampSchema.default(d.now),
          updatedAt: SeedTimestampSchema.optional(),
          revision: SeedIdSchema,
          revisionInitial: SeedIdSchema,
          revisionMergedAncestor: SeedIdSchema.optional(),
          revisionMerged: SeedIdSchema.optional(),
          mergedBy: SeedIdSchema.optional(),
          mergedAt: SeedTimestampSchema.optional(),
          comments: z.number().int().min(0).default(0),
          contributors: z.array(z.strictObject({ user: SeedIdSchema, count: z.number().int().min(1), updatedAt: SeedTimestampSchema })).default([]),
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
        const counters = { changeRequests: ctx.tx.count('changeRequests', 'bySpace', space.id), changeRequestsOpen: count('open'), changeRequestsDraft: count('draft') }
        if (counters.changeRequests !== space.changeRequests || counters.changeRequestsOpen !== space.changeRequestsOpen || counters.changeRequestsDraft !== space.changeRequestsDraft) {
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
      z.strictObject({
        id: SeedIdSchema,
        changeRequest: SeedIdSchema,
        space: SeedIdSchema,
        reviewer: SeedIdSchema,
        requestedBy: SeedIdSchema.optional(),
        status: z.enum(['approved', 'changes-requested']),
        revision: SeedIdSchema,
        outdated: z.boolean().default(false),
        createdAt: SeedTimestampSchema.default(d.now),
        updatedAt: SeedTimestampSchema.default(d.now),
      }),
    check: ({ ctx, fail }, row) => {
      if (ctx.tx.get('changeRequests', row.changeRequest)?.space !== row.space) fail('changeRequest', `no change request "${row.changeRequest}" in space "${row.space}"`)
      if (!ctx.tx.get('users', row.reviewer)) fail('reviewer', `no user "${row.reviewer}"`)
    },
  }),
  seedRule({
    collection: 'requestedReviewers',
    row: (d) =>
      z.strictObject({
        id: SeedIdSchema,
        changeRequest: SeedIdSchema,
        space: SeedIdSchema,
        user: SeedIdSchema,
        requestedBy: SeedIdSchema,
        revision: SeedIdSchema,
        createdAt: SeedTimestampSchema.default(d.now),
      }),
    check: ({ ctx, fail }, row) => {
      if (ctx.tx.get('changeRequests', row.changeRequest)?.space !== row.space) fail('changeRequest', `no change request "${row.changeRequest}" in space "${row.space}"`)
      if (row.id !== `${row.changeRequest}/${row.user}`) fail('id', 'must be `<changeRequest>/<user>`')
    },
  }),
]
