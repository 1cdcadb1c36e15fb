/**
 * Short-lived capabilities behind unguessable URLs (a change request's PDF, served for an hour
 * without a token): kept in memory by the API, not in the store (they are not state a snapshot
 * or a dump should carry, as a signed URL would not be). Bounded: the oldest go first past `max`.
 */
export interface Tickets {
  issue(data: unknown, expiresAt: number): string
  /** The ticket's data while it has not expired. */
  read(key: string, now: number): unknown
}

export function createTickets(max = 1000, newKey: () => string = () => crypto.randomUUID()): Tickets {
  const tickets = new Map<string, { data: unknown; expiresAt: number }>()
  return {
    issue(data, expiresAt) {
      const key = newKey()
      tickets.set(key, { data, expiresAt })
      if (tickets.size > max) tickets.delete(tickets.keys().next().value!)
      return key
    },
    read(key, now) {
      const t = tickets.get(key)
      if (!t) return undefined
      if (t.expiresAt <= now) {
        tickets.delete(key)
        return undefined
      }
      return t.data
    },
  }
}
