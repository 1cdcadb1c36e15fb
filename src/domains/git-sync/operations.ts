import { defineOperation } from '../../core/operation.js'
import { pathParams } from '../common/schemas.js'
import { redactRequestText } from './remote.js'
import { GitSyncStateSchema } from '../spaces/schemas.js'
import { ExportToGitRepositorySchema, ImportGitRepositorySchema } from './schemas.js'

const tag = 'git-sync'
const params = pathParams('spaceId')

/** The journal keeps request bodies: a remote URL's credentials are cut from the parsed body first. */
const redact = redactRequestText

/**
 * Git Sync of a space (official operationIds; the legacy-installation delete is the reference's
 * own). Import and export start a job and answer 204 at once; git info follows the job.
 */
export const gitSyncOperations = {
  importGitRepository: defineOperation({
    id: 'importGitRepository',
    method: 'POST',
    path: '/v1/spaces/{spaceId}/git/import',
    tag,
    summary:
      "Import a branch of a Git repository (smart HTTP; `url` may carry basic-auth credentials, never stored) into the space: a new revision replacing main (`standalone`: main untouched). Answers 204; the job's state shows in git info",
    params,
    body: ImportGitRepositorySchema,
    bodyRequired: true,
    status: 204,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: { resource: 'space', action: 'triggerGitSync' },
    redactJournal: redact,
  }),
  exportToGitRepository: defineOperation({
    id: 'exportToGitRepository',
    method: 'POST',
    path: '/v1/spaces/{spaceId}/git/export',
    tag,
    summary:
      "Export the space's main content to a branch of a Git repository in the Git Sync layout, one commit (none when nothing changed), pushed. Answers 204; the job's state shows in git info",
    params,
    body: ExportToGitRepositorySchema,
    bodyRequired: true,
    status: 204,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: { resource: 'space', action: 'triggerGitSync' },
    redactJournal: redact,
  }),
  getSpaceGitInfo: defineOperation({
    id: 'getSpaceGitInfo',
    method: 'GET',
    path: '/v1/spaces/{spaceId}/git/info',
    tag,
    summary: "The space's Git Sync: repository, provider, and the last import or export (state, error, start and end); 404 until the first import or export",
    params,
    response: GitSyncStateSchema,
    status: 200,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: { resource: 'space', action: 'viewGitSync' },
  }),
  deleteSpaceGitLegacyInstallation: defineOperation({
    id: 'deleteSpaceGitLegacyInstallation',
    method: 'DELETE',
    path: '/v1/spaces/{spaceId}/git/legacy-installation',
    tag,
    summary: 'Disconnect the space from Git Sync (its git info and `gitSync` go; its content stays); 204 also when it was not connected',
    params,
    status: 204,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: { resource: 'space', action: 'installIntegration' },
    beyondOfficial: true,
  }),
}
