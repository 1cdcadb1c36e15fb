/**
 * Support conversations of a docs product for the clustering tests: customers write as they do,
 * so nearly every conversation says "page", "space", "docs" or "site", and the words that tell
 * problems apart are few. Each entry is `[problem, id, subject, body]`; the body is the
 * customer's message (an agent's reply is added by the tests).
 */
export type Conversation = readonly [problem: string, id: string, subject: string, body: string]

/** Five problems of the page tree and its pages, worded differently, short and long. */
export const PAGE_PROBLEMS: readonly Conversation[] = [
  ['delete', 'delete-1', 'Delete a page', 'How do I delete a page? The menu next to the page in my space only offers rename and duplicate.'],
  [
    'delete',
    'delete-2',
    'Pages come back',
    'Hi, deleting pages does not work for us. I deleted three old pages from the table of contents of our space, but after a refresh they are all back. Is there a way to delete a page for good?',
  ],
  ['delete', 'delete-3', '', 'When I click Delete on a page nothing happens, the page stays in the space.'],
  [
    'permissions',
    'permissions-1',
    'Permissions',
    'A colleague cannot edit pages in our space although he is an editor in the organization. Where do I change the space permissions?',
  ],
  [
    'permissions',
    'permissions-2',
    'Read only',
    'Space permissions are confusing. I gave a teammate the editor role on the space, yet every page shows as read only for him and he cannot make changes. What permission does he need?',
  ],
  ['permissions', 'permissions-3', '', 'How do I set permissions on a space so that only our team can edit it and other members only read its pages?'],
  ['history', 'history-1', 'Page history', 'Where can I see the history of a page? Someone rewrote a paragraph and I want to restore the previous version.'],
  [
    'history',
    'history-2',
    'Older versions missing',
    'The page history only shows the last two days. Older versions of our pages are gone and we need to restore a version from last month.',
  ],
  ['history', 'history-3', '', 'Can I compare two versions of a page in its history and revert to the earlier one?'],
  ['move', 'move-1', 'Move page', 'I cannot move a page to another space. Dragging the page onto the other space in the sidebar does nothing.'],
  [
    'move',
    'move-2',
    'Reorganizing',
    'How do I move pages between spaces? We reorganized our docs into a new space and need to move a dozen pages there without copying them by hand.',
  ],
  ['cover', 'cover-1', 'Cover image', 'The cover image of my page is cropped and blurry. Which size should a cover be?'],
  ['cover', 'cover-2', 'Cover not showing', 'I uploaded a cover image to a page, but the cover does not show on the published site.'],
  ['cover', 'cover-3', '', 'How do I remove the cover from a page? There is no button to delete the cover image.'],
]

/** Earlier conversations about other problems of the same product, as many words in common. */
export const EARLIER_PROBLEMS: readonly Conversation[] = [
  ['search', 'search-1', 'Search', 'Search does not find pages I published yesterday, the results are missing from the site.'],
  ['search', 'search-2', 'Search results', 'The search in our docs returns no results for words I know are on the page.'],
  ['search', 'search-3', '', 'Searching the site for "webhook" shows nothing even though a whole page of the space is about webhooks.'],
  ['pdf', 'pdf-1', 'PDF export', 'The PDF export of our space fails every time I click download, it shows error 500.'],
  ['pdf', 'pdf-2', 'Export', 'Exporting the docs to PDF gives me an error and nothing gets downloaded.'],
  ['pdf', 'pdf-3', '', 'When I download the PDF of a space with many pages the export never finishes.'],
  ['gitsync', 'gitsync-1', 'Git Sync', 'Git Sync is not pushing my changes to GitHub, the last commit on the repository is from last week.'],
  ['gitsync', 'gitsync-2', 'Commits', 'Commits I push to our GitHub repository do not appear in the space, Git Sync seems stuck.'],
  ['gitsync', 'gitsync-3', '', 'After connecting the repository, Git Sync imported the markdown files but later commits are not synced.'],
  ['sso', 'sso-1', 'Cannot log in', 'I cannot log in with SSO: the SAML login keeps redirecting me back to the login page. Our whole team is blocked.'],
  ['sso', 'sso-2', 'SAML loop', 'Our SAML single sign-on sends users into a redirect loop and nobody can sign in to the docs.'],
  ['sso', 'sso-3', '', 'Login through our Okta SSO fails with an invalid SAML response.'],
  ['domain', 'domain-1', 'Custom domain', 'Our custom domain shows a certificate warning, the SSL certificate for docs.acme.com expired.'],
  ['domain', 'domain-2', 'SSL', 'The SSL certificate of the custom domain of our site is not renewing and browsers warn about it.'],
  ['domain', 'domain-3', '', 'We pointed the DNS CNAME of our custom domain at the site two days ago and it still does not resolve.'],
  ['comments', 'comments-1', 'Notifications', 'I do not get email notifications when someone comments on a page I wrote.'],
  ['comments', 'comments-2', 'Comment emails', 'Notification emails for new comments and replies stopped arriving for our whole team.'],
  ['merge', 'merge-1', 'Change request', 'Merging a change request fails with a conflict on a page nobody else edited.'],
  ['merge', 'merge-2', 'Conflicts', 'The change request shows merge conflicts on two pages and I do not know how to resolve the conflict.'],
  ['table', 'table-1', 'Editor', 'The editor freezes when I paste a large table from Excel into a page.'],
  ['table', 'table-2', 'Paste', 'Pasting a big spreadsheet table into the page editor makes the whole tab hang.'],
  ['ratelimit', 'ratelimit-1', 'Rate limit', 'The API rate limit is too low for our sync script, we get 429 responses after a few requests.'],
  ['ratelimit', 'ratelimit-2', 'API 429', 'Our CI job calling the API gets HTTP 429 too many requests when it updates the pages.'],
]

/** Seven problems whose words do not overlap, three conversations each. */
export const DISTINCT_PROBLEMS: readonly Conversation[] = [
  ['pdf', 'pdf-1', 'PDF export broken', 'Hi team. The PDF export fails every time I click download. It shows error 500.'],
  ['pdf', 'pdf-2', 'Export', 'Exporting my docs to PDF gives me an error, nothing gets downloaded.'],
  ['pdf', 'pdf-3', 'pdf', 'Hello, when I try to download the PDF version of a space it never finishes.'],
  ['sso', 'sso-1', 'Cannot log in', 'I cannot log in with SSO: the SAML login keeps redirecting me back to the login page. Urgent, our whole team is blocked.'],
  ['sso', 'sso-2', 'SAML loop', 'Our SAML single sign-on sends users in a redirect loop and nobody can sign in.'],
  ['sso', 'sso-3', 'login', 'Login through our Okta SSO is failing with an invalid SAML response.'],
  ['dark', 'dark-1', 'Dark mode', 'How do I change the colors of the dark mode theme?'],
  ['dark', 'dark-2', 'Theme', 'The dark mode colors look wrong in the sidebar, text is unreadable.'],
  ['dark', 'dark-3', '', 'Dark theme makes our code blocks unreadable, the colors have no contrast.'],
  ['search', 'search-1', 'Search', 'Search returns no results for words I know exist in my pages.'],
  ['search', 'search-2', 'search index', 'The search does not find pages I published yesterday, results are missing.'],
  ['search', 'search-3', '', 'Searching for an exact phrase gives unrelated results.'],
  ['editor', 'editor-1', 'Editor', 'The page editor freezes when I paste a large table.'],
  ['editor', 'editor-2', 'Paste', 'Pasting a big table into the editor makes the page hang.'],
  ['editor', 'editor-3', '', 'Editor becomes unresponsive after pasting a table with 200 rows.'],
  ['domain', 'domain-1', 'SSL', 'Our custom domain SSL certificate is not renewing and browsers show a warning.'],
  ['domain', 'domain-2', 'Certificate', 'The SSL certificate for docs.acme.com expired, the custom domain shows a security warning.'],
  ['domain', 'domain-3', '', 'Custom domain setup: the certificate is still pending after two days.'],
  ['limits', 'limits-1', 'Rate limit', 'The API rate limit is too low for our sync script, we get 429 responses.'],
  ['limits', 'limits-2', '', 'We hit the rate limit of the API with only a few requests per minute.'],
  ['limits', 'limits-3', 'HTTP 429', 'Our integration gets 429 too many requests from the API when the rate limit resets.'],
]
