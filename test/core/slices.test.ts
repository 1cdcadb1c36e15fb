import { describe, expect, it } from 'vitest'
import { createSlicer } from '../../src/core/slices.js'

describe('slicer', () => {
  it('yields nothing before the budget is spent, then a turn of the event loop (timers run), then a new slice', async () => {
    const slicer = createSlicer(50)
    expect(slicer.due()).toBe(false)
    expect(slicer.maybeYield()).toBeUndefined()
    let timerRan = false
    setTimeout(() => (timerRan = true), 0)
    while (!slicer.due()) {
      // a slice of synchronous work
    }
    expect(timerRan).toBe(false)
    await slicer.maybeYield()
    expect(timerRan).toBe(true)
    expect(slicer.due()).toBe(false)
  })
})
