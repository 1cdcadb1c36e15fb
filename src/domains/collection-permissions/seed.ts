import { seedRule } from '../../state/seed.js'
import { CollectionGrantRowSchema } from './rows.js'

const principalKey = (p: { type: 'user'; user: string } | { type: 'team'; team: string }) => (p.type === 'user' ? `user:${p.user}` : `team:${p.team}`)

/** Direct grants of a role on a collection, to members (guests included) and teams of its organization. */
export const collectionPermissionSeedRules = [
  seedRule({
    collection: 'collectionGrants',
    row: (d) =>
      // The id and the collection's organization are filled in when left out.
      CollectionGrantRowSchema.partial({ id: true, organization: true }).transform(({ id, organization, ...g }) => ({
        id: id ?? `${g.collection}/${principalKey(g.principal)}`,
        organization: organization ?? d.tx.get('collections', g.collection)?.organization ?? '',
        ...g,
      })),
    check: ({ ctx, fail }, row) => {
      const expected = `${row.collection}/${principalKey(row.principal)}`
      if (row.id !== expected) fail('id', `must be "${expected}" (collection/principal), or left out`)
      const collection = ctx.tx.get('collections', row.collection)
      if (!collection) return fail('collection', `no collection "${row.collection}"`)
      if (row.organization !== collection.organization) fail('organization', `must be the collection's organization "${collection.organization}"`)
      const { principal } = row
      if (principal.type === 'user' && !ctx.tx.get('members', `${collection.organization}/${principal.user}`)) {
        fail('principal.user', `"${principal.user}" is not a member of the collection's organization (invite them as a guest first)`)
      }
      if (principal.type === 'team' && ctx.tx.get('teams', principal.team)?.organization !== collection.organization) {
        fail('principal.team', `no team "${principal.team}" in the collection's organization`)
      }
    },
  }),
]
