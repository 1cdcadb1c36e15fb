/**
 * The translator a translation run sends text through: `createDocsApi({ translate })`. It gets one
 * piece of text at a time (a page's title, its description, one text block of its body, or a
 * label a block holds in its data, such as a table's column title) and
 * answers the translated text, at once or as a promise.
 *
 * A block whose text is in several runs (bold words, a link, inline code) is sent as one text
 * with each run between numbered tags, `<1>Click </1><2>here</2><3> to start</3>`, so the
 * translator sees the whole sentence; it must answer each tag once, around the run's
 * translation (the tags may move, as word order changes). `&lt;` and `&amp;` stand for `<` and
 * `&` inside tagged text. An answer whose tags do not come back whole is not guessed at: that
 * block's runs are then sent one by one, untagged.
 */
export interface TranslateContext {
  /** The source language (`source.language`). */
  from: string
  /** The target language (the translation's `language`). */
  to: string
  /**
   * What the text is: a page's title or description, a text block of its body, or a `label`: a
   * short text a block holds in its data (a table's column title or option label, an alt text,
   * an inline image's caption, a tab's title, a prompt's description).
   */
  kind: 'title' | 'description' | 'block' | 'label'
  /** Whether the text holds numbered run tags (see above). */
  tagged: boolean
  /** The translation's instructions, as markdown ('' when there are none). */
  instructions: string
}

export type Translator = (text: string, context: TranslateContext) => string | Promise<string>
