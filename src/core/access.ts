import { ApiError } from './errors.js'
import type { Level } from './roles.js'
import type { AccessChecker, Context } from './context.js'
import { allows, POLICY, type Action, type Resource } from './policy.js'
import type { Entry, IndexOf, RowOf, ScanOptions } from '../storage/port.js'
import type { Schema, WriteTx } from '../storage/port.js'

/**
 * Computes the caller's level on a resource: undefined when the resource does not exist,
 * null when the caller has no access. Domains register one per resource.
 */
export type LevelResolver<S extends Schema = Schema> = (ctx: Context<S>, id: string) => Level | null | undefined
export type LevelResolvers = Record<Resource, LevelResolver>

/** How a resource is named in the 404 that hides it (missing and not visible answer the same). */
const LABEL: Record<Resource, string> = {
  organization: 'Organization',
  space: 'Space',
  collection: 'Collection',
  team: 'Team',
  site: 'Site',
  integration: 'Integration',
}

/**
 * The caller's access checks. Each level is worked out once and kept until the request writes:
 * a request may change levels by its own writes (a move, a transfer, a grant), so any write
 * forgets them all (see `watchWrites`), and a read-only request keeps them to the end, the
 * permission check and the encoder of the answer sharing them. A class, so that a request pays
 * for one object rather than a closure per method.
 */
export class CallerAccess implements AccessChecker {
  /** Levels worked out, by resource then id (no key to build per lookup). */
  private memo: Partial<Record<Resource, Map<string, Level | null | undefined>>> = {}
  private remembers = false

  constructor(
    private readonly getCtx: () => Context,
    private readonly resolvers: LevelResolvers,
  ) {}

  level(resource: Resource, id: string): Level | null | undefined {
    const memo = (this.memo[resource] ??= new Map())
    let l = memo.get(id)
    if (l === undefined && !memo.has(id)) {
      memo.set(id, (l = this.resolvers[resource](this.getCtx(), id)))
      this.remembers = true
    }
    return l
  }

  allows(resource: Resource, level: Level | null | undefined, action: Action): boolean {
    return allows(resource, level, action)
  }

  can(resource: Resource, id: string, action: Action): boolean {
    return allows(resource, this.level(resource, id), action)
  }

  require(resource: Resource, id: string, action: Action): Level {
    const l = this.level(resource, id)
    if (l === undefined || !allows(resource, l, 'view' as Action)) {
      throw new ApiError('NOT_FOUND', `${LABEL[resource]} not found`)
    }
    if (!allows(resource, l, action)) {
      throw new ApiError('FORBIDDEN', `You need the ${(POLICY[resource] as Record<string, Level>)[action]} role on this ${resource.toLowerCase()} to do this`)
    }
    return l!
  }

  /** Forget every level worked out so far (the request wrote). */
  forget(): void {
    if (!this.remembers) return
    this.memo = {}
    this.remembers = false
  }

  /** `tx` as the request's handlers see it: every write first makes this checker forget its levels. */
  watchWrites(tx: WriteTx<Schema>): WriteTx<Schema> {
    return new WriteWatchingTx(tx, this)
  }
}

/** A transaction that tells the caller's access checker about each write before making it. */
class WriteWatchingTx implements WriteTx<Schema> {
  constructor(
    private readonly tx: WriteTx<Schema>,
    private readonly access: CallerAccess,
  ) {}

  get<C extends keyof Schema & string>(collection: C, id: string): RowOf<Schema, C> | undefined {
    return this.tx.get(collection, id)
  }
  scan<C extends keyof Schema & string>(collection: C, index: IndexOf<Schema, C>, key: string, options?: ScanOptions): Entry<RowOf<Schema, C>>[] {
    return this.tx.scan(collection, index, key, options)
  }
  count<C extends keyof Schema & string>(collection: C, index: IndexOf<Schema, C>, key: string): number {
    return this.tx.count(collection, index, key)
  }
  seqOf<C extends keyof Schema & string>(collection: C, id: string): number | undefined {
    return this.tx.seqOf(collection, id)
  }
  all<C extends keyof Schema & string>(collection: C): RowOf<Schema, C>[] {
    return this.tx.all(collection)
  }
  insert<C extends keyof Schema & string>(collection: C, row: RowOf<Schema, C>): RowOf<Schema, C> {
    this.access.forget()
    return this.tx.insert(collection, row)
  }
  update<C extends keyof Schema & string>(collection: C, row: RowOf<Schema, C>): RowOf<Schema, C> {
    this.access.forget()
    return this.tx.update(collection, row)
  }
  delete<C extends keyof Schema & string>(collection: C, id: string): boolean {
    this.access.forget()
    return this.tx.delete(collection, id)
  }
}

/** Build the caller's access checker (see CallerAccess). */
export function createAccessChecker(getCtx: () => Context, resolvers: LevelResolvers): CallerAccess {
  return new CallerAccess(getCtx, resolvers)
}
