import { yamlLibrary } from '../../content/markdown-libs.js'
import { redirectSource } from '../../content/redirects.js'
import { isWithin, relativeLink, resolveLink } from './paths.js'

/**
 * `.gitbook.yaml`'s `redirects:` written back by an export. The space's redirects (source → page)
 * become source → the page's file, relative to the content root. The file is edited, not
 * rewritten: only the `redirects:` mapping changes (through the `yaml` package's Document, so
 * comments, other keys and the entries that did not change keep their text), and not at all when
 * it already says the same (an unchanged round trip writes nothing).
 */

export interface WantedRedirect {
  source: string
  /** The page's file (repository path). */
  file: string
}

/**
 * The new text of `.gitbook.yaml` (`existing` its text, undefined when the branch has none), or
 * undefined when it stays as it is. An entry of the file the space has no redirect for is removed
 * when its destination is a page's file (`pageFile`: the sync's own, then or now: the redirect
 * was the space's, and it no longer is), and kept as written otherwise (the import left it out: it
 * names no page, so it is not the space's to remove).
 */
export function writeRedirects(
  existing: string | undefined,
  root: string,
  wanted: readonly WantedRedirect[],
  pageFile: (path: string) => boolean,
): string | undefined {
  const destination = (file: string) => relativeLink(root, file)
  // Loaded on first use; Git Sync's jobs and tasks load it before they run (loadFigures).
  const YAML = yamlLibrary.get()
  if (existing === undefined) {
    if (wanted.length === 0) return undefined
    const doc = new YAML.Document({ redirects: Object.fromEntries(wanted.map((r) => [r.source, destination(r.file)])) })
    return doc.toString({ lineWidth: 0 })
  }
  const doc = YAML.parseDocument(existing)
  const bySource = new Map(wanted.map((r) => [r.source, r]))
  const node = doc.get('redirects', true)
  const map = YAML.isMap(node) ? node : undefined
  let changed = false
  const seen = new Set<string>()
  for (const pair of [...(map?.items ?? [])]) {
    const key = YAML.isScalar(pair.key) ? pair.key.value : pair.key
    const value = YAML.isScalar(pair.value) ? pair.value.value : pair.value
    const source = redirectSource(String(key))
    const want = bySource.get(source)
    const target = typeof value === 'string' ? resolveLink(root, root, value.replace(/^\/+/, '')) : undefined
    const names = target && isWithin(target.path, root) ? target.path : undefined
    if (want && !seen.has(source)) {
      seen.add(source)
      if (names === want.file) continue
      if (YAML.isScalar(pair.value)) pair.value.value = destination(want.file)
      else pair.value = doc.createNode(destination(want.file))
      changed = true
    } else if (want || (names !== undefined && pageFile(names))) {
      // A second entry of one source, or the redirect of a page the space no longer redirects to.
      map!.items.splice(map!.items.indexOf(pair), 1)
      changed = true
    }
  }
  const added = wanted.filter((r) => !seen.has(r.source))
  if (added.length > 0) {
    if (map) for (const r of added) map.add(doc.createPair(r.source, destination(r.file)))
    else doc.set('redirects', doc.createNode(Object.fromEntries(added.map((r) => [r.source, destination(r.file)]))))
    changed = true
  }
  if (map && map.items.length === 0 && changed) doc.delete('redirects')
  return changed ? doc.toString({ lineWidth: 0 }) : undefined
}
