/** Markdown that cannot be stored: too deep, too large, or with frontmatter that is not YAML (the message says which). */
export class MarkdownError extends Error {
  override name = 'MarkdownError'
}
