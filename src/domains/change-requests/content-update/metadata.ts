import type { PageData } from '../../content/draft.js'

/** The page fields a change (or its markdown's frontmatter) may set. */
export type Metadata = Partial<Pick<PageData, 'title' | 'slug' | 'emoji' | 'icon' | 'description' | 'hidden' | 'noIndex' | 'noRobotsIndex' | 'condition'>>

const METADATA_KEYS = ['title', 'slug', 'emoji', 'icon', 'description', 'hidden', 'noIndex', 'noRobotsIndex', 'condition'] as const

export function applyMetadata(base: PageData, fields: Metadata): PageData {
  const next: PageData = { ...base }
  for (const key of METADATA_KEYS) {
    const value = fields[key]
    if (value === undefined) continue
    // An empty emoji, icon or condition removes it (official RevisionPageUpdate).
    if ((key === 'emoji' || key === 'icon' || key === 'condition') && value === '') delete next[key]
    else (next as Record<string, unknown>)[key] = value
  }
  return next
}

/** The 400 for a slug a sibling holds already. */
export const slugTaken = (at: string, slug: string) => `${at}: "${slug}" is taken by a sibling page (slugs are unique among siblings)`
