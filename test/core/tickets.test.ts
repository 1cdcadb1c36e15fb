import { describe, expect, it } from 'vitest'
import { createTickets } from '../../src/core/tickets.js'

const keys = () => {
  let n = 0
  return () => `t${++n}`
}

describe('tickets', () => {
  it('keeps each owner to their latest perOwner tickets, anonymous callers sharing one bucket', () => {
    const dropped: unknown[] = []
    const tickets = createTickets({ perOwner: 2, newKey: keys(), onDrop: (data) => dropped.push(data) })
    const a1 = tickets.issue('ada', 'a1', 0, 100)
    const r1 = tickets.issue('rita', 'r1', 0, 100)
    tickets.issue('ada', 'a2', 0, 100)
    tickets.issue('ada', 'a3', 0, 100)
    expect(tickets.read(a1, 1)).toBeUndefined()
    expect(tickets.read(r1, 1)).toEqual({ owner: 'rita', data: 'r1' })
    expect(dropped).toEqual(['a1'])
    const anon = ['x', 'y', 'z'].map((data) => tickets.issue('', data, 0, 100))
    expect(anon.map((key) => tickets.read(key, 1)?.data)).toEqual([undefined, 'y', 'z'])
    expect(tickets.size).toBe(5)
  })

  it("past max, takes the oldest ticket of the owner holding the most, never another owner's", () => {
    const tickets = createTickets({ perOwner: 10, max: 6, newKey: keys() })
    const rita = tickets.issue('rita', 'r1', 0, 100)
    const gina = [tickets.issue('gina', 'g1', 0, 100), tickets.issue('gina', 'g2', 0, 100)]
    const ada = Array.from({ length: 10 }, (_, i) => tickets.issue('ada', `a${i}`, 0, 100))
    expect(tickets.size).toBe(6)
    expect(tickets.read(rita, 1)?.data).toBe('r1')
    expect(gina.map((key) => tickets.read(key, 1)?.data)).toEqual(['g1', 'g2'])
    expect(ada.map((key) => tickets.read(key, 1)?.data)).toEqual([...Array(7).fill(undefined), 'a7', 'a8', 'a9'])
  })

  it('drops expired tickets as soon as a ticket is issued or read, telling onDrop', () => {
    const dropped: unknown[] = []
    const tickets = createTickets({ newKey: keys(), onDrop: (data) => dropped.push(data) })
    const old = tickets.issue('ada', 'old', 0, 10)
    tickets.issue('rita', 'newer', 5, 15)
    expect(tickets.read(old, 9)?.data).toBe('old')
    tickets.issue('ada', 'fresh', 12, 22)
    expect(dropped).toEqual(['old'])
    expect(tickets.read('t2', 15)).toBeUndefined()
    expect(dropped).toEqual(['old', 'newer'])
    expect(tickets.size).toBe(1)
  })
})
