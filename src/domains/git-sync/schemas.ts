import { z } from 'zod'
import { TimestampSchema } from '../common/schemas.js'

/** Request and answer shapes of Git Sync (the official ImportGitRepository, ExportToGitRepository, GitSyncState). */

/** Git's rules for a branch name (git check-ref-format) beyond the characters the pattern allows. */
const validBranch = (ref: string): boolean => {
  const name = ref.slice('refs/heads/'.length)
  const control = [...name].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)
  return !control && !name.split('/').some((part) => part === '' || part.startsWith('.') || part.endsWith('.lock')) && !name.includes('..') && !name.includes('@{') && !name.endsWith('.')
}

const RefSchema = z
  .string({ error: 'is required: a branch ref such as "refs/heads/main"' })
  .max(255, 'must be at most 255 characters')
  // Control characters are refused by the \s class and by validBranch's check below.
  .regex(/^refs\/heads\/[^\s~^:?*[\\]+$/, 'must be a branch ref of the form "refs/heads/<branch>"')
  .refine(validBranch, 'must be a branch ref of the form "refs/heads/<branch>" with a valid branch name')

const UrlTextSchema = (what: string) =>
  z.url({ error: (issue) => (issue.input === undefined ? `is required: ${what}` : 'not a valid URL') }).max(2048, 'must be at most 2048 characters')

const DirectorySchema = z
  .string()
  .max(1024, 'must be at most 1024 characters')
  .refine((dir) => !dir.split('/').includes('..'), 'must stay inside the repository (no `..` segment)')

const GitInfoSchema = z
  .strictObject({
    provider: z.enum(['github', 'gitlab'], { error: 'must be "github" or "gitlab"' }).optional(),
    url: z.string().max(2048, 'must be at most 2048 characters').optional(),
  })
  .meta({ id: 'UpdateSpaceGitInfo', description: 'Metadata about the Git provider to keep on the space (deprecated).' })

const common = {
  url: UrlTextSchema('the URL of the Git repository (it may carry basic-auth credentials)'),
  ref: RefSchema,
  repoCacheID: z.string().max(1024).optional(),
  repoTreeURL: z.string().max(2048, 'must be at most 2048 characters').optional(),
  repoCommitURL: z.string().max(2048, 'must be at most 2048 characters').optional(),
  repoProjectDirectory: DirectorySchema.optional(),
  timestamp: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' }).optional(),
  force: z.boolean({ error: 'must be a boolean' }).optional(),
  gitInfo: GitInfoSchema.optional(),
}

export const ImportGitRepositorySchema = z
  .strictObject({
    ...common,
    standalone: z.boolean({ error: 'must be a boolean' }).optional(),
  })
  .meta({ id: 'ImportGitRepository', description: "Import a Git repository's branch into the space (a job: the request answers 204 and git info follows it)." })

export const ExportToGitRepositorySchema = z
  .strictObject({
    ...common,
    commitMessage: z.string({ error: 'is required: the message of the commit' }).min(1, 'must not be empty').max(10_000, 'must be at most 10000 characters'),
    standalone: z.boolean({ error: 'must be a boolean' }).optional(),
  })
  .meta({ id: 'ExportToGitRepository', description: "Export the space's main content to a branch of a Git repository (a job: the request answers 204)." })

export type ImportGitRepository = z.output<typeof ImportGitRepositorySchema>
export type ExportToGitRepository = z.output<typeof ExportToGitRepositorySchema>

export const GitSyncStateSchema = z
  .object({
    installationId: z.string(),
    installationProvider: z.enum(['github', 'gitlab', 'github-legacy']),
    installationStatus: z.enum(['unauthenticated', 'active', 'pending']),
    repoName: z.string().optional(),
    url: z.string().optional(),
    operationTimeout: z.number().int().optional(),
    updatedAt: TimestampSchema.optional(),
    operation: z
      .object({
        state: z.enum(['running', 'failure', 'success', 'timeout']),
        direction: z.enum(['import', 'export']),
        startedAt: TimestampSchema,
        endedAt: TimestampSchema.optional(),
        error: z.string().optional(),
        revision: z.string().optional(),
        commit: z.string().optional(),
      })
      .optional(),
  })
  .meta({ id: 'GitSyncState', description: "A space's Git Sync: the repository and the state of the last import or export." })
