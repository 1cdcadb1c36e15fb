import { describe, expect, it } from 'vitest'
import { extractIssues } from '../../../src/domains/conversations/extract.js'
import { loadTextTools } from '../../../src/domains/conversations/text-tools.js'

/** An issue's impact from the way customers put it (src/domains/conversations/impact.ts). */
const tools = await loadTextTools()

const TABLE: Array<[body: string, impact: 'low' | 'medium' | 'high']> = [
  // Money, data, security: high whatever else is said.
  ['I was charged twice for our plan this month.', 'high'],
  ['We got billed again after cancelling, please fix this.', 'high'],
  ['Our card was double charged for the annual plan.', 'high'],
  ['We have been overcharged for seats since March.', 'high'],
  ['We lost all our pages after the import.', 'high'],
  ['Older versions of our pages are gone and we need last month.', 'high'],
  ['My edits were overwritten when a colleague merged his change request.', 'high'],
  ['The content of the Getting started page disappeared after the merge.', 'high'],
  ['Private pages of our internal space are visible to everyone on the published site.', 'high'],
  ['This looks like a security issue: share links still work after we revoked them.', 'high'],
  // Blocked: high, medium with a workaround.
  ['Our whole team is blocked, nobody can sign in with SAML.', 'high'],
  ['I cannot log in since this morning.', 'high'],
  ['The editor crashes every time I open a page with a big table.', 'high'],
  ['The published site is down for all our customers.', 'high'],
  ['The PDF export is broken for every space.', 'high'],
  ['I am not able to publish the site from the editor.', 'high'],
  ['I cannot publish the site from the editor, for now I publish it manually from settings.', 'medium'],
  // Something does not work as it should: medium.
  ['Git Sync is not pushing my changes to GitHub.', 'medium'],
  ['Commits I push to our GitHub repository do not appear in the space.', 'medium'],
  ["Git Sync doesn't sync the last commits.", 'medium'],
  ['Notification emails for new comments stopped arriving.', 'medium'],
  ['The PDF export fails with error 500.', 'medium'],
  ['Our CI job gets HTTP 429 too many requests from the API.', 'medium'],
  ['Search returns no results for words that are on the page.', 'medium'],
  ['When I click Delete on a page nothing happens.', 'medium'],
  ['The export of a big space never finishes.', 'medium'],
  ['The SSL certificate of our custom domain expired.', 'medium'],
  ['The upload spins forever and the image never appears.', 'medium'],
  ['Slack notifications arrive twice for every merged change request.', 'medium'],
  ['The sidebar shows the pages in the wrong order.', 'medium'],
  ['Our docs site is very slow to load on mobile.', 'medium'],
  ['There is a broken link on the Getting started page.', 'medium'],
  ['The page editor freezes when I paste a large table.', 'medium'],
  ['The old links in our emails are broken since we renamed the page.', 'medium'],
  ['The OpenAPI block shows "spec could not be loaded" for our swagger file.', 'medium'],
  ['Our custom domain shows a certificate warning, the SSL certificate for docs.acme.com expired.', 'medium'],
  ['I reordered the groups but the site sidebar still shows the old order.', 'medium'],
  ['Visitor authentication keeps sending readers back to our login page.', 'medium'],
  // Questions, not finding, confusion, wishes: low.
  ['How do I delete a page?', 'low'],
  ['Where can I see the history of a page?', 'low'],
  ['I cannot find where to change the dark mode colors.', 'low'],
  ["I can't figure out how to invite a guest to one space.", 'low'],
  ['Can I compare two versions of a page and revert to the earlier one?', 'low'],
  ['Space permissions are confusing for our new editors.', 'low'],
  ['How will we be charged when we add seats in the middle of the month?', 'low'],
  ['It would be great to have a dark mode for the editor, is it planned?', 'low'],
]

describe('conversations: impact from the way it is put', () => {
  it.each(TABLE)('%s → %s', (body, impact) => {
    const issues = extractIssues(tools, { parts: [{ type: 'message', role: 'user', body }] })
    expect(issues.map((i) => i.impact)).toEqual([impact])
  })
})
