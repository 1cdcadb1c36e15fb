/**
 * Short-lived capabilities behind unguessable URLs (a change request's PDF, served for an hour
 * without a token): kept in memory by the API, not in the store (they are not state a snapshot
 * or a dump should carry, as a signed URL would not be).
 *
 * Bounded per owner: an owner (the user who asked; '' for an anonymous caller, one bucket shared
 * by all of them) holds at most `perOwner` live tickets, and the owner's oldest go first. Bounded
 * in all too, as a memory bound only: past `max`, the oldest ticket of the owner holding the most
 * goes, so asking for many tickets never takes another owner's away (unless that owner holds as
 * many). Expired tickets go as soon as any ticket is issued or read.
 */
export interface Tickets {
  /** A new ticket of `owner` holding `data`, valid until `expiresAt` (ms); `now` drops the expired ones. */
  issue(owner: string, data: unknown, now: number, expiresAt: number): string
  /** The ticket while it has not expired. */
  read(key: string, now: number): { owner: string; data: unknown } | undefined
  /** Tickets held. */
  readonly size: number
}

export interface TicketOptions {
  /** Live tickets an owner holds at most. @default 50 */
  perOwner?: number
  /** Live tickets held at most in all. @default 10000 */
  max?: number
  newKey?: () => string
  /** Called with a ticket's data when the ticket goes (expired, or past a bound). */
  onDrop?: (data: unknown) => void
}

export const TICKETS_PER_OWNER = 50
export const MAX_TICKETS = 10_000

interface Ticket {
  owner: string
  data: unknown
  expiresAt: number
}

export function createTickets(options: TicketOptions = {}): Tickets {
  const { perOwner = TICKETS_PER_OWNER, max = MAX_TICKETS, newKey = () => crypto.randomUUID(), onDrop } = options
  /** Every live ticket, oldest first. */
  const tickets = new Map<string, Ticket>()
  /** Each owner's ticket keys, oldest first. */
  const owners = new Map<string, Set<string>>()

  const drop = (key: string) => {
    const ticket = tickets.get(key)
    if (!ticket) return
    tickets.delete(key)
    const keys = owners.get(ticket.owner)!
    keys.delete(key)
    if (keys.size === 0) owners.delete(ticket.owner)
    onDrop?.(ticket.data)
  }
  /** Drops expired tickets from the oldest (every ticket lives as long, so they expire in order, unless the clock went back). */
  const sweep = (now: number) => {
    for (const [key, ticket] of tickets) {
      if (ticket.expiresAt > now) break
      drop(key)
    }
  }
  /** The owner holding the most tickets (the first of them to get one, among equals). */
  const largestOwner = () => {
    let largest: Set<string> | undefined
    for (const keys of owners.values()) if (!largest || keys.size > largest.size) largest = keys
    return largest!
  }

  return {
    issue(owner, data, now, expiresAt) {
      sweep(now)
      const key = newKey()
      tickets.set(key, { owner, data, expiresAt })
      let keys = owners.get(owner)
      if (!keys) owners.set(owner, (keys = new Set()))
      keys.add(key)
      while (keys.size > perOwner) drop(keys.values().next().value!)
      while (tickets.size > max) drop(largestOwner().values().next().value!)
      return key
    },
    read(key, now) {
      sweep(now)
      const ticket = tickets.get(key)
      if (!ticket) return undefined
      if (ticket.expiresAt <= now) {
        drop(key)
        return undefined
      }
      return { owner: ticket.owner, data: ticket.data }
    },
    get size() {
      return tickets.size
    },
  }
}
