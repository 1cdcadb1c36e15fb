import { z } from 'zod'
import { listQuery } from '../../core/paging.js'

/** Shapes of search: the query and the official `SearchPageResult` / `SearchSpaceResult`. */

export const SearchQuerySchema = listQuery.extend({
  query: z
    .string({ error: 'is required' })
    .min(1, 'must not be empty')
    .max(512, 'must be at most 512 characters')
    .meta({ description: 'The text searched for (case-insensitive; words it begins and near misses match too).' }),
})

const ScoreSchema = z.number().min(0).meta({ id: 'SearchResultScore', description: 'Relevance score (BM25): higher is better, unbounded.' })
const ResultTypeSchema = z.enum(['page', 'section'])

export const SearchSectionResultSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    path: z.string(),
    score: ScoreSchema,
    resultType: ResultTypeSchema,
    body: z.string(),
    urls: z.object({ app: z.string() }),
  })
  .meta({ id: 'SearchSectionResult', description: 'A section of a page: the text before its first heading, or a heading and what follows it.' })

export const SearchPageResultSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    description: z.string(),
    path: z.string(),
    score: ScoreSchema,
    rank: z.number().int().min(1),
    resultType: ResultTypeSchema,
    sections: z.array(SearchSectionResultSchema),
    ancestors: z.array(z.object({ title: z.string() })),
    urls: z.object({ app: z.string() }),
  })
  .meta({ id: 'SearchPageResult', description: 'A page that matched, with its matching sections; `rank` is its place in the whole ranking.' })

export const SearchSpaceResultSchema = z
  .object({
    type: z.literal('space'),
    id: z.string(),
    title: z.string(),
    score: ScoreSchema,
    pages: z.array(SearchPageResultSchema),
  })
  .meta({ id: 'SearchSpaceResult', description: 'A space with its best matching pages.' })

const id = z.string().min(1, 'must not be empty')

/** The most site-spaces a body names (the official document sets none; a site holds far fewer). */
export const MAX_SITE_SPACE_IDS = 100

/** Which site-spaces of a site are searched, or asked (official `SiteSearchScope`). */
export const SiteSearchScopeSchema = z
  .discriminatedUnion(
    'mode',
    [
      z
        .object({
          mode: z.literal('default'),
          currentSiteSpace: id.optional(),
          restrictTo: z.enum(['currentSiteSpace', 'otherSiteSpaces'], { error: 'must be currentSiteSpace or otherSiteSpaces' }).optional(),
        })
        .refine((s) => s.restrictTo === undefined || s.currentSiteSpace !== undefined, {
          message: '`restrictTo` needs `currentSiteSpace`',
          path: ['restrictTo'],
        }),
      z.object({
        mode: z.literal('specific'),
        siteSpaceIds: z.array(id).min(1, 'must hold at least 1 site-space').max(MAX_SITE_SPACE_IDS, `must hold at most ${MAX_SITE_SPACE_IDS} site-spaces`),
      }),
      z.object({ mode: z.literal('all') }),
    ],
    { error: (issue) => (issue.input === undefined ? 'is required' : 'must have a `mode` of default, specific or all') },
  )
  .meta({
    id: 'SiteSearchScope',
    description: "`default`: each section's default content (and `currentSiteSpace`); `specific`: the site-spaces named; `all`: every site-space.",
  })

/**
 * The official `searchSiteContent` body: the query and the scope, either `scope` or the
 * deprecated form of it at the top level (`mode: all`; `mode: current` with `siteSpaceId`;
 * `siteSpaceIds`, with or without `mode: specific`), which GitBook's renderer still sends. The
 * two forms do not mix (the official `oneOf`).
 */
export const SiteSearchBodySchema = z
  .object({
    query: z
      .string({ error: 'is required' })
      .max(512, 'must be at most 512 characters')
      .meta({ description: 'The text searched for (case-insensitive; words it begins and near misses match too). Empty: nothing matches.' }),
    scope: SiteSearchScopeSchema.optional(),
    mode: z
      .enum(['all', 'current', 'specific'], { error: 'must be all, current or specific' })
      .optional()
      .meta({ deprecated: true, description: 'Deprecated: use `scope`.' }),
    siteSpaceId: id.optional().meta({ deprecated: true, description: 'With `mode: current`, the current site-space. Deprecated: use `scope`.' }),
    siteSpaceIds: z
      .array(id)
      .min(1, 'must hold at least 1 site-space')
      .max(MAX_SITE_SPACE_IDS, `must hold at most ${MAX_SITE_SPACE_IDS} site-spaces`)
      .optional()
      .meta({ deprecated: true, description: 'The site-spaces searched. Deprecated: use `scope`.' }),
  })
  .superRefine((body, ctx) => {
    const deprecated = (['mode', 'siteSpaceId', 'siteSpaceIds'] as const).find((field) => body[field] !== undefined)
    if (body.scope !== undefined) {
      if (deprecated) ctx.addIssue({ code: 'custom', path: [deprecated], message: 'must not be given with `scope` (deprecated: use `scope` alone)' })
      return
    }
    if (body.mode === 'current' && body.siteSpaceId === undefined)
      ctx.addIssue({ code: 'custom', path: ['siteSpaceId'], message: 'is required with `mode: current`' })
    else if (body.mode === 'specific' && body.siteSpaceIds === undefined)
      ctx.addIssue({ code: 'custom', path: ['siteSpaceIds'], message: 'is required with `mode: specific`' })
    else if (body.mode === 'all' && (body.siteSpaceId ?? body.siteSpaceIds) !== undefined)
      ctx.addIssue({ code: 'custom', path: [body.siteSpaceId !== undefined ? 'siteSpaceId' : 'siteSpaceIds'], message: 'must not be given with `mode: all`' })
    else if (body.mode === undefined && body.siteSpaceIds === undefined)
      ctx.addIssue({ code: 'custom', path: ['scope'], message: 'is required (or the deprecated `mode` / `siteSpaceIds`)' })
  })

export type SiteSearchBody = z.output<typeof SiteSearchBodySchema>
