import { z } from 'zod'

/** Request and answer shapes of Git Sync (the official ImportGitRepository, ExportToGitRepository, and GitSyncState in spaces/schemas.ts: a space's answer carries it). */

/**
 * Why a ref is no branch git would accept (`git check-ref-format --branch`), or undefined: the
 * `refs/heads/` prefix, then components that are not empty and neither start with `.` nor end
 * with `.lock`; no `..`, `@{`, control character, space, `~ ^ : ? * [ \\`; not ending with `.`;
 * not `@` alone; and, as `git branch` refuses them, no leading `-` and not `HEAD`.
 */
export function branchProblem(ref: string): string | undefined {
  const form = 'must be a branch ref of the form "refs/heads/<branch>"'
  if (!ref.startsWith('refs/heads/')) return form
  const name = ref.slice('refs/heads/'.length)
  if (name === '') return `${form}: the branch name is empty`
  const bad = [...name].find((c) => c.charCodeAt(0) < 0x21 || c.charCodeAt(0) === 0x7f || '~^:?*[\\'.includes(c))
  if (bad !== undefined)
    return `${form}: a branch name cannot hold ${bad.charCodeAt(0) < 0x21 || bad.charCodeAt(0) === 0x7f ? 'spaces or control characters' : `\`${bad}\``}`
  if (name.split('/').some((part) => part === '')) return `${form}: a branch name cannot start or end with \`/\` or hold \`//\``
  if (name.split('/').some((part) => part.startsWith('.') || part.endsWith('.lock')))
    return `${form}: no part of a branch name may start with \`.\` or end with \`.lock\``
  if (name.includes('..') || name.includes('@{')) return `${form}: a branch name cannot hold \`..\` or \`@{\``
  if (name.endsWith('.')) return `${form}: a branch name cannot end with \`.\``
  if (name === '@' || name === 'HEAD' || name.startsWith('-'))
    return `${form}: git refuses the branch name "${name}" (\`@\`, \`HEAD\` and names starting with \`-\` are not branch names)`
  return undefined
}

/** The shape of a branch ref (for schemas and generators); branchProblem holds the rest of git's rules. */
const REF_SHAPE = /^refs\/heads\/[^\s~^:?*[\\-][^\s~^:?*[\\]*$/

const RefSchema = z
  .string({ error: 'must be a string: a branch ref such as "refs/heads/main"' })
  .max(255, 'must be at most 255 characters')
  .regex(REF_SHAPE, 'must be a branch ref of the form "refs/heads/<branch>"')
  .superRefine((ref, ctx) => {
    // A ref the pattern refused has its message already: one message per broken ref.
    const problem = REF_SHAPE.test(ref) ? branchProblem(ref) : undefined
    if (problem) ctx.addIssue({ code: 'custom', message: problem })
  })

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
  /** Optional (the official schemas require it): without it, the remote's default branch. */
  ref: RefSchema.optional(),
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
    /** Optional (the official schemas require it): without it, or blank, DEFAULT_COMMIT_MESSAGE. */
    commitMessage: z.string({ error: 'must be a string: the message of the commit' }).max(10_000, 'must be at most 10000 characters').optional(),
    standalone: z.boolean({ error: 'must be a boolean' }).optional(),
  })
  .meta({ id: 'ExportToGitRepository', description: "Export the space's main content to a branch of a Git repository (a job: the request answers 204)." })

/** The message of an export's commit when the request gives none (or a blank one). */
export const DEFAULT_COMMIT_MESSAGE = 'Export from docs-content-api'

export type ImportGitRepository = z.output<typeof ImportGitRepositorySchema>
export type ExportToGitRepository = z.output<typeof ExportToGitRepositorySchema>
