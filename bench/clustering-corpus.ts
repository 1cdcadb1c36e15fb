import type { Conversation } from '../test/domains/conversations/corpus.js'

/**
 * The corpus the clustering threshold is chosen on (bench/clustering.ts), kept apart from the
 * corpora the tests check it with (test/domains/conversations/corpus.ts): fourteen problems of a
 * docs product, three conversations each, written as customers write them (pages, spaces and the
 * site in nearly every one), short and long, some with a second message.
 */
export const DEV_PROBLEMS: readonly Conversation[] = [
  ['links', 'links-1', 'Broken links', 'After I renamed a page, every link to it from other pages gives a 404.'],
  [
    'links',
    'links-2',
    '',
    'We changed the title and slug of our Getting started page and now the old links in our emails are broken. Can the old URL redirect to the new one?',
  ],
  ['links', 'links-3', 'Links', 'Internal links between pages stopped working once we renamed a few pages in the space.'],
  ['embed', 'embed-1', 'Video embed', 'YouTube videos I embed in a page show an empty box on the published site.'],
  ['embed', 'embed-2', '', 'The embed block does not render our Loom video, it just shows the link.'],
  ['embed', 'embed-3', 'Embeds', 'Is it possible to embed an iframe from Figma? The embed stays blank in the page.'],
  ['upload', 'upload-1', 'Upload', 'Uploading images to a page fails with "file too large" for a 4 MB PNG.'],
  ['upload', 'upload-2', '', 'I drag a screenshot into the page and the upload spins forever, the image never appears.'],
  ['upload', 'upload-3', 'Files', 'What is the maximum file size for uploads? Our PDF attachments are rejected.'],
  ['code', 'code-1', 'Syntax highlighting', 'Code blocks in my pages have no syntax highlighting for Kotlin.'],
  ['code', 'code-2', '', 'How do I set the language of a code block? Everything is highlighted as plain text.'],
  ['code', 'code-3', 'Code', 'The line numbers in our code blocks are wrong and the copy button copies the numbers too.'],
  ['order', 'order-1', 'Sidebar order', 'The order of pages in the sidebar of the published site is not the order of the table of contents in the editor.'],
  ['order', 'order-2', '', 'I reordered the groups in the table of contents but the site sidebar still shows the old order.'],
  ['order', 'order-3', 'Navigation', 'How can I change the order of the sections in the site navigation?'],
  ['billing', 'billing-1', 'Charged twice', 'I was charged twice for our plan this month, please refund one of the payments.'],
  ['billing', 'billing-2', 'Invoice', 'Our invoice lists 12 seats but we only have 8 members in the organization.'],
  ['billing', 'billing-3', '', 'Why did the price of our subscription go up? The invoice shows seats we removed last month.'],
  ['analytics', 'analytics-1', 'Google Analytics', 'Google Analytics does not record any visits to our docs site since we added the tracking ID.'],
  ['analytics', 'analytics-2', '', 'The analytics page shows zero visitors for the last week although the site gets traffic.'],
  ['analytics', 'analytics-3', 'Tracking', 'How do I add our Google Tag Manager tracking code to the published site?'],
  ['branding', 'branding-1', 'Logo', 'Our logo looks stretched in the header of the site on mobile.'],
  ['branding', 'branding-2', '', 'Can we use our own font and brand colors on the published docs? The customization settings only offer a few fonts.'],
  ['branding', 'branding-3', 'Brand', 'The logo in the site header is blurry, and the favicon still shows the default icon.'],
  ['openapi', 'openapi-1', 'OpenAPI', 'The OpenAPI block shows "spec could not be loaded" for our swagger file.'],
  ['openapi', 'openapi-2', '', 'Endpoints from our OpenAPI spec are missing from the API reference page after we updated the spec.'],
  ['openapi', 'openapi-3', 'API reference', 'Our OpenAPI specification with $ref to other files fails to render the endpoints.'],
  ['feedback', 'feedback-1', 'Page ratings', 'Where can I see the ratings readers give at the bottom of each page?'],
  ['feedback', 'feedback-2', '', 'The page feedback widget is not showing on our site, readers cannot rate pages.'],
  ['feedback', 'feedback-3', 'Feedback', 'Can readers leave a comment with their page rating? We only see thumbs up and down in the feedback.'],
  ['reusable', 'reusable-1', 'Reusable content', 'Changes to a reusable content block do not update the pages that use it.'],
  ['reusable', 'reusable-2', '', 'How do I insert the same reusable block of content in pages of two different spaces?'],
  [
    'reusable',
    'reusable-3',
    'Variables',
    'We defined a variable for the product version, but pages still show the old version number after editing the variable.',
  ],
  ['visitors', 'visitors-1', 'Visitor authentication', 'Visitor authentication with our JWT keeps sending readers back to our login page.'],
  ['visitors', 'visitors-2', '', 'After enabling authenticated access, readers get "invalid token" when they open the docs site.'],
  ['visitors', 'visitors-3', 'Private docs', 'How do we restrict the published site so only our customers can read it, with our own authentication?'],
  ['slack', 'slack-1', 'Slack', 'The Slack integration stopped posting updates to our channel when pages are edited.'],
  ['slack', 'slack-2', '', 'Can the Slack app notify a channel only for one space instead of all of them?'],
  ['slack', 'slack-3', 'Slack notifications', 'Slack notifications arrive twice in our docs channel for every merged change request.'],
  ['import', 'import-1', 'Import', 'Importing a zip of markdown files creates the pages but all images are missing.'],
  ['import', 'import-2', '', 'The Word document import turns our tables into plain paragraphs.'],
  ['import', 'import-3', 'Confluence', 'Importing our Confluence export into a space fails halfway and only some pages are imported.'],
]
