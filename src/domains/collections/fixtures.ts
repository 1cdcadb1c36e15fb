import type { z } from 'zod'
import { ApiError } from '../../core/errors.js'
import { parseInput, type System } from '../common/fixture-kit.js'
import { encodeCollection } from './encode.js'
import { createCollection } from './model.js'
import { CreateCollectionSchema } from './schemas.js'

/** Test fixtures of collections: built through the same domain functions as the API. */
export function collectionFixtures(system: System) {
  return {
    /** Create a collection in an organization (nested when `parent` is given). */
    async createCollection(organizationId: string, input: z.input<typeof CreateCollectionSchema> = {}) {
      const data = parseInput(CreateCollectionSchema, input, 'collection')
      return system((ctx) => {
        if (!ctx.tx.get('organizations', organizationId)) throw new ApiError('NOT_FOUND', 'Organization not found')
        return encodeCollection(ctx, createCollection(ctx, organizationId, data), 'admin')
      })
    },
  }
}
