import { z } from 'zod'
import { SeedIdSchema, SeedTimestampSchema, seedRule } from '../../state/seed.js'
import { DefaultLevelSchema, MergeRulesSchema, UrlSchema } from '../common/schemas.js'
import { EmojiSchema, LanguageSchema, SpaceEditModeSchema, SpaceTitleSchema, SpaceVisibilitySchema } from './schemas.js'

/** The change-request counters of a space: recounted once the change requests are loaded (change-requests/seed.ts). */
const Counter = z.number().int().min(0).default(0)
/** No comment is stored in this version: its counter is 0. */
const CommentCounter = z.literal(0, { error: 'must be 0 (this version stores no comments to count)' }).default(0)

/** Spaces in a state document (trashed ones included, with their `deletedAt`). */
export const spaceSeedRules = [
  seedRule({
    collection: 'spaces',
    row: (d) =>
      z
        .strictObject({
          id: SeedIdSchema,
          organization: SeedIdSchema,
          parent: SeedIdSchema.optional(),
          title: SpaceTitleSchema.default('Untitled'),
          emoji: EmojiSchema.default(''),
          icon: UrlSchema.optional(),
          visibility: SpaceVisibilitySchema.optional(),
          createdAt: SeedTimestampSchema.default(d.now),
          updatedAt: SeedTimestampSchema.optional(),
          deletedAt: SeedTimestampSchema.optional(),
          editMode: SpaceEditModeSchema.optional(),
          mergeRules: MergeRulesSchema.default({ type: 'inherit' }),
          language: LanguageSchema.optional(),
          revision: SeedIdSchema.default(d.newId),
          defaultLevel: DefaultLevelSchema.default(null),
          position: z.number().finite().default(d.position),
          comments: CommentCounter,
          changeRequests: Counter,
          changeRequestsOpen: Counter,
          changeRequestsDraft: Counter,
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
  }),
]
