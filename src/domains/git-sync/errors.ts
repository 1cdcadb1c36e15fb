/**
 * Why a Git Sync operation failed, in words fit for git info (`operation.error`): the job records
 * the message as it is. Errors of other kinds are described by `describeFailure` (jobs.ts).
 */
export class GitSyncError extends Error {
  override name = 'GitSyncError'
  constructor(
    message: string,
    readonly options: { unauthenticated?: boolean } = {},
  ) {
    super(message)
  }
}
