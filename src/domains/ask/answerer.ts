import type { JsonDocument } from '../content/document.js'

/**
 * The answerer: what turns a question and the passages retrieved for it into an answer. The
 * default one is extractive (extractive.ts); `createDocsApi({ ask })` plugs in another (a
 * language model, say). It may answer at once, later (a promise), or as it goes (an async
 * iterable: each value is the whole answer so far and goes out as one event of the stream).
 */
export type Answerer = (request: AskRequest) => AskAnswer | Promise<AskAnswer> | AsyncIterable<AskAnswer>

/** A section of a page of the site, retrieved by the search index for the question. */
export interface AskPassage {
  space: string
  /** The site-space that publishes the space (the first one in the site's order); none when the question was asked of an organization. */
  siteSpace?: string
  /** The space's current revision, where the page was read. */
  revision: string
  page: string
  pageTitle: string
  /** The page's path in its space. */
  path: string
  /** The page in the application (`urls.app`). */
  url: string
  section: { id: string; title: string; text: string }
  /** The part of the section's text around the words that matched (at most 600 characters). */
  excerpt: string
  /** The search score of the page (higher is better). */
  score: number
}

export interface AskRequest {
  question: string
  /** The organization asked (the site's, when a site was asked). */
  organization: string
  /** The site asked; none when the question was asked of an organization (`askInOrganization`...). */
  site?: { id: string; organization: string; title: string }
  /** What the caller said of the question's context (it does not change what is searched). */
  context?: { siteSpaceId?: string | undefined; goal?: string | undefined } | undefined
  /** The best sections of the site's content for the question, best first (none: nothing matched). */
  passages: readonly AskPassage[]
}

export interface AskAnswer {
  /** The answer as markdown, or as a document (`document`); the caller's `format` decides what goes out. */
  markdown?: string
  document?: JsonDocument
  /**
   * The pages the answer comes from. Only pages among the passages count (others are dropped: a
   * source must be content the site publishes now); `sections` (default: every passage of the
   * page) keeps the passages' section ids only.
   */
  sources?: ReadonlyArray<{ page: string; space?: string; sections?: readonly string[]; reason?: string }>
  followupQuestions?: readonly string[]
}

declare module '../../core/services.js' {
  interface Services {
    /** The answerer of Ask (`createDocsApi({ ask })`, default: the extractive one). */
    ask: Answerer
  }
}
