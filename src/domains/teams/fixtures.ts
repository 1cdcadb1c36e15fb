import type { z } from 'zod'
import { ApiError } from '../../core/errors.js'
import { parseInput, type System } from '../common/fixture-kit.js'
import { encodeTeam } from './encode.js'
import { createTeam } from './model.js'
import { CreateTeamFixtureSchema } from './schemas.js'

/** Test fixtures of teams: built through the same domain functions as the API. */
export function teamFixtures(system: System) {
  return {
    /**
     * Create a team in an organization. `members` join as members, `owners` as owners; each must
     * be a member of the organization.
     * @example await api.fixtures.createTeam(org.id, { title: 'Writers', owners: [ada.id], members: [rita.id] })
     */
    async createTeam(organizationId: string, input: z.input<typeof CreateTeamFixtureSchema>) {
      const data = parseInput(CreateTeamFixtureSchema, input, 'team')
      return system((ctx) => {
        if (!ctx.tx.get('organizations', organizationId)) throw new ApiError('NOT_FOUND', 'Organization not found')
        return encodeTeam(ctx, createTeam(ctx, organizationId, data), 'admin')
      })
    },
  }
}
