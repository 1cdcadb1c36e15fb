import { SeedTimestampSchema, seedRule } from '../../state/seed.js'
import { CollectionRowSchema } from './rows.js'

const collectionRow = CollectionRowSchema.shape

/** Collections in a state document: a tree per organization. */
export const collectionSeedRules = [
  seedRule({
    collection: 'collections',
    row: (d) =>
      CollectionRowSchema.extend({
        title: collectionRow.title.default('Untitled'),
        defaultLevel: collectionRow.defaultLevel.default(null),
        position: collectionRow.position.default(d.position),
        createdAt: SeedTimestampSchema.default(d.now),
      }),
    check: ({ ctx, fail }, row) => {
      if (!ctx.tx.get('organizations', row.organization)) fail('organization', `no organization "${row.organization}"`)
      // Every row is in by now: walk up the parents, which must stay in the organization and never loop.
      const seen = new Set([row.id])
      for (let at = row.parent; at !== undefined;) {
        const parent = ctx.tx.get('collections', at)
        if (!parent || parent.organization !== row.organization) return fail('parent', `no collection "${at}" in organization "${row.organization}"`)
        if (seen.has(parent.id)) return fail('parent', `collections cannot contain themselves (a loop through "${parent.id}")`)
        seen.add(parent.id)
        at = parent.parent
      }
    },
  }),
]
