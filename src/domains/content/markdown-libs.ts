import { lazyModule } from '../../core/lazy.js'

/**
 * yaml, loaded on first use (frontmatter, Git Sync's files, OpenAPI specs written in YAML): the
 * operations and tasks that read or write YAML load it first (`needs`, or an await in their
 * async step).
 */
export const yamlLibrary = lazyModule('yaml', () => import('yaml'))

/**
 * unified and the remark plugins (markdown to mdast and back) with yaml (frontmatter), loaded on
 * first use rather than when the package is imported: the offload's markdown tasks, Git Sync's
 * jobs and tasks, Ask's answers, translation runs and comment bodies await `loadMarkdown()` before
 * they convert; a synchronous seed holding comments needs `await preload()` first.
 */
export const markdownLibraries = lazyModule('unified and remark (markdown)', async () => {
  const [{ unified }, parse, stringify, gfm, frontmatter] = await Promise.all([
    import('unified'),
    import('remark-parse'),
    import('remark-stringify'),
    import('remark-gfm'),
    import('remark-frontmatter'),
    yamlLibrary.load(),
  ])
  return { unified, remarkParse: parse.default, remarkStringify: stringify.default, remarkGfm: gfm.default, remarkFrontmatter: frontmatter.default }
})

/** Load what markdown is read and written with (and yaml); once per process, at once when loaded. */
export function loadMarkdown(): Promise<unknown> {
  return markdownLibraries.loaded ? Promise.resolve() : markdownLibraries.load()
}

/** A value made from the markdown libraries once they are loaded, made once on first use. */
export function onceLoaded<T>(make: (libraries: ReturnType<typeof markdownLibraries.get>) => T): () => T {
  let value: T | undefined
  return () => (value ??= make(markdownLibraries.get()))
}
