import type { Context as CoreContext, ReadContext as CoreReadContext } from '../core/context.js'
import type { LevelResolver as CoreLevelResolver } from '../core/access.js'
import type { Job as CoreJob, JobEnv as CoreJobEnv } from '../core/jobs.js'
import {
  implement as implementTable,
  type Handler as CoreHandler,
  type Handlers as CoreHandlers,
  type OperationDef,
  type OperationTable,
  type Prepare,
  type BoundOperation,
  type PrepareStep as CorePrepareStep,
} from '../core/operation.js'
import type { Resumer as CoreResumer } from '../core/resume.js'
import type { Warm as CoreWarm, WarmEnv as CoreWarmEnv } from '../core/warmup.js'
import type { ReadTx as PortReadTx, WriteTx as PortWriteTx } from '../storage/port.js'
import type { AppSchema } from './schema.js'

/**
 * The core's types bound to this API's storage schema (domains/schema.ts). The core is generic
 * over the schema and names no area; the areas import these, so `ctx.tx.get('spaces', id)` is a
 * `SpaceRow`.
 */
export type Context = CoreContext<AppSchema>
/** What a read operation's handler (GET) gets: its transaction cannot write. */
export type ReadContext = CoreReadContext<AppSchema>
export type ReadTx = PortReadTx<AppSchema>
export type WriteTx = PortWriteTx<AppSchema>
export type Job = CoreJob<AppSchema>
export type JobEnv = CoreJobEnv<AppSchema>
export type Warm = CoreWarm<AppSchema>
export type WarmEnv = CoreWarmEnv<AppSchema>
export type LevelResolver = CoreLevelResolver<AppSchema>
export type Handler<D extends OperationDef> = CoreHandler<D, AppSchema>
export type Handlers<T extends OperationTable> = CoreHandlers<T, AppSchema>
export type PrepareStep<D extends OperationDef = OperationDef> = CorePrepareStep<D, AppSchema>
export type Resumer<C extends keyof AppSchema & string = keyof AppSchema & string> = CoreResumer<AppSchema, C>

/** Declare a resumer (keeps the collection's row type). */
export const resumer = <C extends keyof AppSchema & string>(r: Resumer<C>): Resumer<C> => r

/** Bind an area's operation table to its handlers (core/operation.ts `implement`, on this API's schema). */
export function implement<T extends OperationTable>(
  table: T,
  handlers: Handlers<T>,
  prepares: { [K in keyof T]?: Prepare | PrepareStep<T[K]> } = {},
): BoundOperation[] {
  return implementTable<T, AppSchema>(table, handlers, prepares)
}
