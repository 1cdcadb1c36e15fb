import { z } from 'zod'
import { SeedIdSchema, SeedTimestampSchema, seedRule } from '../../state/seed.js'
import { withoutCredentials } from './remote.js'

/** A path of the repository: `/`-separated, relative, no empty, `.` or `..` part. */
const RepoPathSchema = z
  .string()
  .min(1)
  .refine((p) => p.split('/').every((part) => part !== '' && part !== '.' && part !== '..'), 'must be a relative path of the repository (no empty, `.` or `..` part)')

const StageSchema = z.enum(['repo_fetch', 'config_check', 'content_process', 'finalize'])

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
      z
        .strictObject({
          id: SeedIdSchema,
          space: SeedIdSchema.optional(),
          installation: SeedIdSchema.optional(),
          provider: z.enum(['github', 'gitlab', 'github-legacy']).default('github'),
          status: z.enum(['active', 'unauthenticated', 'pending']).default('active'),
          url: z.string().min(1).max(2048),
          treeUrl: z.string().max(2048).optional(),
          commitUrl: z.string().max(2048).optional(),
          repoName: z.string().optional(),
          ref: z.string().regex(/^refs\/heads\/./, 'must be a branch ref of the form "refs/heads/<branch>"'),
          projectDirectory: z.string().min(1).optional(),
          updatedAt: SeedTimestampSchema.default(d.now),
          operation: z.strictObject({
            id: SeedIdSchema.optional(),
            direction: z.enum(['import', 'export']),
            state: z.enum(['running', 'failure', 'success', 'timeout']),
            stage: StageSchema.default('finalize'),
            startedAt: SeedTimestampSchema.default(d.now),
            updatedAt: SeedTimestampSchema.optional(),
            completedAt: SeedTimestampSchema.optional(),
            endedAt: SeedTimestampSchema.optional(),
            error: z.string().optional(),
            revision: SeedIdSchema.optional(),
            commit: z.string().optional(),
            timestamp: SeedTimestampSchema.optional(),
            standalone: z.boolean().optional(),
            force: z.boolean().optional(),
          }),
          appliedTimestamp: SeedTimestampSchema.optional(),
          commit: z.string().optional(),
          revision: SeedIdSchema.optional(),
          tree: z
            .strictObject({
              pages: z.array(
                z.strictObject({
                  path: RepoPathSchema,
                  page: SeedIdSchema,
                  frontmatter: z.strictObject({ keys: z.array(z.string()), extra: z.record(z.string(), z.unknown()) }).optional(),
                }),
              ),
              files: z.array(z.strictObject({ path: RepoPathSchema, file: SeedIdSchema })),
              other: z.array(RepoPathSchema),
            })
            .optional(),
        })
        .transform((r) => {
          const url = withoutCredentials(r.url)
          const operation = { ...r.operation, id: r.operation.id ?? d.newId(), updatedAt: r.operation.updatedAt ?? r.operation.startedAt }
          return {
            ...r,
            space: r.space ?? r.id,
            installation: r.installation ?? d.newId(),
            url,
            repoName: r.repoName ?? url.replace(/\/+$/, '').replace(/\.git$/, '').split('/').slice(-2).join('/'),
            ...(r.treeUrl !== undefined && { treeUrl: withoutCredentials(r.treeUrl) }),
            ...(r.commitUrl !== undefined && { commitUrl: withoutCredentials(r.commitUrl) }),
            operation,
          }
        }),
    check: ({ ctx, fail }, row) => {
      if (row.space !== row.id) fail('space', `must be the row's id "${row.id}" (one Git Sync per space)`)
      if (!ctx.tx.get('spaces', row.space)) fail('id', `no space "${row.space}"`)
      if (row.revision !== undefined && ctx.tx.get('revisions', row.revision)?.space !== row.space && ctx.tx.get('spaces', row.space)?.revision !== row.revision) {
        fail('revision', `no revision "${row.revision}" in space "${row.space}"`)
      }
    },
  }),
]
