import { implement } from '../context.js'
import type { PrepareEnv, PrepareInput } from '../../core/operation.js'
import { embedOperations } from './operations.js'
import { resolveEmbed } from './resolver.js'
import type { Embed } from './schemas.js'

/** The resolver runs before the (synchronous) handler, once the caller's access was checked: it may fetch. */
async function prepareEmbed(env: PrepareEnv, input: PrepareInput): Promise<{ value: Embed; undo(): void }> {
  const { url } = input.query as { url: string }
  return { value: await resolveEmbed(env, url), undo: () => undefined }
}

const prepared = (input: { prepared?: unknown }) => input.prepared as Embed

/** The embed operations bound to their handlers. */
export const embedHandlers = implement(
  embedOperations,
  {
    getEmbedByUrl: (_ctx, input) => prepared(input),
    getEmbedByUrlInSpace: (_ctx, input) => prepared(input),
  },
  { getEmbedByUrl: prepareEmbed, getEmbedByUrlInSpace: prepareEmbed },
)
