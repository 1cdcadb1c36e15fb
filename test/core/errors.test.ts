import { describe, expect, it } from 'vitest'
import { ApiError } from '../../src/core/errors.js'

describe('ApiError', () => {
  it('captures no stack (it is an answer, not a fault), and leaves Error.stackTraceLimit as it was for other errors', () => {
    const before = Error.stackTraceLimit
    const error = new ApiError('NOT_FOUND', 'No space "x"')
    expect(error.stack).not.toMatch(/\n\s+at /)
    expect(error.message).toBe('No space "x"')
    expect(error.status).toBe(404)
    expect(Error.stackTraceLimit).toBe(before)
    expect(new Error('other').stack).toMatch(/\n\s+at /)
  })
})
