import type { z } from 'zod'
import { parseInput, type System } from '../common/fixture-kit.js'
import { encodeSpace } from './encode.js'
import { createSpace } from './model.js'
import { CreateSpaceSchema } from './schemas.js'

/** Test fixtures of spaces: built through the same domain functions as the API. */
export function spaceFixtures(system: System) {
  return {
    /** Create a space in an organization (in a collection when `parent` is given). */
    async createSpace(organizationId: string, input: z.input<typeof CreateSpaceSchema> = {}) {
      const data = parseInput(CreateSpaceSchema, input, 'space')
      return system((ctx) => encodeSpace(ctx, createSpace(ctx, organizationId, data), 'admin'))
    },
  }
}
