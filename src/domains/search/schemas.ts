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
