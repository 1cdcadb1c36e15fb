import type { z } from 'zod'
import type { Context } from '../context.js'
import { ApiError } from '../../core/errors.js'

/** Runs `fn` in one transaction with a system context (no permission checks). */
export type System = <T>(fn: (ctx: Context) => T) => T

/** Parse fixture input with the same rules as the API, answering a readable 400 error. */
export function parseInput<T extends z.ZodType>(schema: T, value: unknown, what: string): z.output<T> {
  const result = schema.safeParse(value)
  if (!result.success) {
    const issue = result.error.issues[0]!
    throw new ApiError('BAD_REQUEST', `Invalid ${what}: \`${issue.path.join('.') || what}\`: ${issue.message}`)
  }
  return result.data
}
