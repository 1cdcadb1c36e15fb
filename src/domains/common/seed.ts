import { seedRule } from '../../state/seed.js'
import { SequenceRowSchema } from './rows.js'

/** Rows holding a `position` (they all count up the one `position` sequence). */
const POSITIONED = ['collections', 'spaces', 'siteSections', 'siteSectionGroups', 'siteSpaces'] as const

/** Named counters in a state document: loaded first, raised after everything so no position is handed out twice. */
export const sequenceSeedRules = [
  seedRule({
    collection: 'sequences',
    row: () => SequenceRowSchema,
    finish: ({ ctx }) => {
      let max = ctx.tx.get('sequences', 'position')?.value ?? 0
      for (const collection of POSITIONED)
        for (const row of ctx.tx.all(collection) as ReadonlyArray<{ position: number }>) max = Math.max(max, Math.ceil(row.position))
      const row = ctx.tx.get('sequences', 'position')
      if (!row) ctx.tx.insert('sequences', { id: 'position', value: max })
      else if (row.value < max) ctx.tx.update('sequences', { id: 'position', value: max })
    },
  }),
]
