import { describe, expect, it } from 'vitest'
import { extractIssues } from '../../../src/domains/conversations/extract.js'
import { loadTextTools } from '../../../src/domains/conversations/text-tools.js'

/** Issue extraction by its rules, below the API (the API's tests show the same through api.fetch). */
const tools = await loadTextTools()
const user = (body: string) => ({ type: 'message' as const, role: 'user' as const, body })
const extract = (...bodies: string[]) => extractIssues(tools, { parts: bodies.map(user) })

describe('conversations: extracting issues', () => {
  it('an issue takes what its message says around the problem, titled by the problem; greetings, thanks and sign-offs stay out', () => {
    const [issue, ...more] = extract(
      'Hi team! We reorganized our docs into a new space last week. I cannot move a page to another space. Dragging it onto the space in the sidebar does nothing. Thanks, let me know!',
    )
    expect(more).toEqual([])
    expect(issue!.title).toBe('I cannot move a page to another space')
    expect(issue!.sentences).toEqual([
      'We reorganized our docs into a new space last week.',
      'I cannot move a page to another space.',
      'Dragging it onto the space in the sidebar does nothing.',
    ])
    expect(issue!.terms).toEqual(expect.arrayContaining(['reorgan', 'move', 'drag', 'sidebar']))
    expect(issue!.terms).not.toContain('thank')
  })

  it('a message without a problem sentence gives one issue of what it says, titled by its first real sentence', () => {
    const [issue, ...more] = extract('Thanks!', 'Ok. We moved our product docs to a new space last week. We would like the sidebar grouped by product.')
    expect(more).toEqual([])
    expect(issue!.title).toBe('We moved our product docs to a new space last week')
    expect(issue!.sentences).toHaveLength(2)
    expect(issue!.impact).toBe('low')
    expect(issue!.terms).toEqual(expect.arrayContaining(['product', 'sidebar']))
    expect(extract('Hi there!', 'Thanks a lot, bye.')).toEqual([])
  })

  it('context before the problem sentence is in the details, the title is the problem', () => {
    const [issue] = extract('The page history only shows the last two days. Older versions of our pages are gone.')
    expect(issue!.title).toBe('Older versions of our pages are gone')
    expect(issue!.sentences).toEqual(['The page history only shows the last two days.', 'Older versions of our pages are gone.'])
    expect(issue!.terms).toEqual(expect.arrayContaining(['histori', 'version']))
  })

  it('"Also" still starts another issue, and a later message about something else too', () => {
    const issues = extract('The PDF export fails with error 500. Also, the dark mode colors look wrong.', 'Search returns no results for my pages.')
    expect(issues.map((i) => i.title)).toEqual([
      'The PDF export fails with error 500',
      'The dark mode colors look wrong',
      'Search returns no results for my pages',
    ])
  })
})
