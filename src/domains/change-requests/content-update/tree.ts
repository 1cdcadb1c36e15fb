import type { RevisionDraft } from '../../content/draft.js'

/** Put a page among its parent's children at `at` (the end when absent or past it). */
export function place(draft: RevisionDraft, parent: string | undefined, pageId: string, at: number | undefined): void {
  const list = draft.children(parent).filter((id) => id !== pageId)
  const index = at === undefined ? list.length : Math.min(at, list.length)
  list.splice(index, 0, pageId)
  draft.setChildren(parent, list)
}

export function unplace(draft: RevisionDraft, parent: string | undefined, pageId: string): void {
  draft.setChildren(
    parent,
    draft.children(parent).filter((id) => id !== pageId),
  )
}

/** Remove a page and its subpages from the draft, deepest first; `removed` hears of each page as it goes. */
export function removeSubtree(draft: RevisionDraft, pageId: string, removed?: (id: string) => void): void {
  for (const child of draft.get(pageId)?.children ?? []) removeSubtree(draft, child, removed)
  draft.remove(pageId)
  removed?.(pageId)
}
