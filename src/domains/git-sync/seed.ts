import { SeedTimestampSchema, seedRule } from '../../state/seed.js'
import { GitSyncRowSchema } from './rows.js'
import { withoutCredentials } from './remote.js'

const gitSyncRow = GitSyncRowSchema.shape
const operationRow = gitSyncRow.operation.shape

/**
 * Git Sync rows in a state document (one per space, its id the space's). A URL is kept without
 * credentials, whatever the document says. An operation still `running` in a document has no job
 * behind it once loaded: the area's resumer (resume.ts) ends it as a failure saying so, so git
 * info never shows a sync that nothing will finish.
 */
export const gitSyncSeedRules = [
  seedRule({
    collection: 'gitSyncs',
    row: (d) =>
      // The space (the row's id), the installation, the repository's name and the operation's id and update time are filled in when left out.
      GitSyncRowSchema.partial({ space: true, installation: true, repoName: true })
        .extend({
          provider: gitSyncRow.provider.default('github'),
          status: gitSyncRow.status.default('active'),
          updatedAt: SeedTimestampSchema.default(d.now),
          operation: gitSyncRow.operation
            .partial({ id: true, updatedAt: true })
            .extend({ stage: operationRow.stage.default('finalize'), startedAt: SeedTimestampSchema.default(d.now) }),
        })
        .transform((r) => {
          const url = withoutCredentials(r.url)
          const operation = { ...r.operation, id: r.operation.id ?? d.newId(), updatedAt: r.operation.updatedAt ?? r.operation.startedAt }
          return {
            ...r,
            space: r.space ?? r.id,
            installation: r.installation ?? d.newId(),
            url,
            repoName:
              r.repoName ??
              url
                .replace(/\/+$/, '')
                .replace(/\.git$/, '')
                .split('/')
                .slice(-2)
                .join('/'),
            ...(r.treeUrl !== undefined && { treeUrl: withoutCredentials(r.treeUrl) }),
            ...(r.commitUrl !== undefined && { commitUrl: withoutCredentials(r.commitUrl) }),
            operation,
          }
        }),
    check: ({ ctx, fail }, row) => {
      if (row.space !== row.id) fail('space', `must be the row's id "${row.id}" (one Git Sync per space)`)
      if (!ctx.tx.get('spaces', row.space)) fail('id', `no space "${row.space}"`)
      if (
        row.revision !== undefined &&
        ctx.tx.get('revisions', row.revision)?.space !== row.space &&
        ctx.tx.get('spaces', row.space)?.revision !== row.revision
      ) {
        fail('revision', `no revision "${row.revision}" in space "${row.space}"`)
      }
    },
  }),
]
