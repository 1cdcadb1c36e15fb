import type { z } from 'zod'
import { parseInput, type System } from '../common/fixture-kit.js'
import { encodeSpace } from './encode.js'
import { deleteSpace } from './lifecycle.js'
import { createSpace, getSpace } from './model.js'
import { moveSpace } from './placement.js'
import { CreateSpaceSchema } from './schemas.js'

/** Test fixtures of spaces: built through the same domain functions as the API. */
export function spaceFixtures(system: System) {
  return {
    /** Create a space in an organization (in a collection when `parent` is given). */
    async createSpace(organizationId: string, input: z.input<typeof CreateSpaceSchema> = {}) {
      const data = parseInput(CreateSpaceSchema, input, 'space')
      return system((ctx) => encodeSpace(ctx, createSpace(ctx, organizationId, data), 'admin'))
    },

    /** Move a live space to the trash (sets `deletedAt` at the clock's current time). */
    async deleteSpace(spaceId: string) {
      return system((ctx) => encodeSpace(ctx, deleteSpace(ctx, getSpace(ctx, spaceId)), 'admin'))
    },

    /**
     * Move a space into a collection (or to the organization's root with `null`), at the end.
     * @example await api.fixtures.moveSpace(space.id, collection.id)
     */
    async moveSpace(spaceId: string, parent: string | null) {
      return system((ctx) => encodeSpace(ctx, moveSpace(ctx, spaceId, { parent, placement: { at: 'end' } }), 'admin'))
    },
  }
}
