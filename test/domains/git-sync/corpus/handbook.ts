/**
 * A handbook written by hand with no SUMMARY.md and no `.gitbook.yaml` (folders give the tree):
 * `-` lists, ordered lists starting at 3, `*emphasis*`, HTML comments inside paragraphs,
 * footnote-like references, Windows line endings in one file and no final newline in another.
 * Written for the tests.
 */
export const handbook: Record<string, string> = {
  'README.md': `# Handbook

Welcome to the team. <!-- TODO: add a photo -->

- Read the [onboarding guide](onboarding/README.md).
- Ask questions in *#help*.
`,
  'onboarding/README.md': `# Onboarding

3. Get a laptop
4. Get accounts

Text with trailing spaces for a break  
and the next line.
`,
  'onboarding/accounts.md': '# Accounts\r\n\r\nEvery account needs **two-factor** authentication.\r\n\r\n* Email\r\n* Chat\r\n',
  'policies.md': `# Policies

Be kind.

<!--
A multi-line comment
that readers never see.
-->

Holidays are listed on the intranet.`,
}
