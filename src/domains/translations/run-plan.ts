import type { PageVersionRow, ReusableContentVersionRow } from '../content/rows.js'
import type { PageText } from './translate-document.js'

/** The data a translation run passes from step to step (run.ts), and its own error. */

/** What the start step hands the others: plain data, read once. */
export interface RunPlan {
  startedAt: string
  from: string
  to: string
  instructions: string
  rootPages: readonly string[]
  files: readonly string[]
  /** The source revision's variables: the result's are the same (as duplicating a space keeps them). */
  variables: Readonly<Record<string, string>>
  /** Every page of the source, in tree order: its current version, and the earlier result version to reuse (if any). */
  pages: Array<{ version: PageVersionRow; reuse?: string }>
  /** Every reusable content of the source, in creation order (translated at each run: few and short). */
  reusableContents: ReusableContentVersionRow[]
}

/** The translated prose of the pages the run translated, and the words sent. */
export interface RunOutput {
  texts: Map<string, PageText>
  /** The translated title and body of each reusable content, by id. */
  reusableTexts: Map<string, PageText>
  words: number
  /** Whether a translator did it (without one, nothing counts as translated). */
  translated: boolean
}

export class TranslationRunError extends Error {}
