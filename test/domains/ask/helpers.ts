import { expect } from 'vitest'
import type { DocsApi } from '../../../src/index.js'
import { BASE, call, type World } from '../../helpers.js'
import { expectOfficialEventStream, parseEventStream } from '../../conformance/official.js'
import { page, publish, searchWorld } from '../search/helpers.js'

export type AnswerEvent = {
  type: 'answer'
  answer: {
    answer?: { markdown: string } | { document: unknown }
    followupQuestions: string[]
    sources: Array<{ type: 'page'; page: string; revision: string; space: string; sections: string[] }>
  }
}

/** `POST .../ask` through `api.fetch`: the raw response (a stream on success). */
export function ask(api: DocsApi, token: string | undefined, org: string, site: string, body: unknown, query = '', headers: Record<string, string> = {}) {
  const init: RequestInit = { method: 'POST', headers: { 'content-type': 'application/json', ...headers } }
  if (token) (init.headers as Record<string, string>).authorization = `Bearer ${token}`
  init.body = JSON.stringify(body)
  return api.fetch(new Request(`${BASE}/v1/orgs/${org}/sites/${site}/ask${query}`, init))
}

/** Ask and read the whole stream: each event checked against the official schema; their data. */
export async function askEvents(api: DocsApi, token: string, org: string, site: string, body: unknown, query = ''): Promise<AnswerEvent[]> {
  const res = await ask(api, token, org, site, body, query)
  const text = await res.text()
  expect(res.status, text).toBe(200)
  expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
  return expectOfficialEventStream('streamAskInSite', text) as AnswerEvent[]
}

/** The events of a stream answer that ended in an error: the events before, and the error event's data. */
export async function askError(api: DocsApi, token: string, org: string, site: string, body: unknown) {
  const res = await ask(api, token, org, site, body)
  expect(res.status).toBe(200)
  const events = parseEventStream(await res.text())
  expect(events.at(-1)!.event).toBe('error')
  return { before: events.slice(0, -1), error: events.at(-1)!.data as { error: { code: number; message: string } } }
}

/** The last event's answer as text (markdown, or the document's leaves). */
export function answerText(event: AnswerEvent): string {
  const a = event.answer.answer
  if (!a) return ''
  if ('markdown' in a) return a.markdown
  return JSON.stringify(a.document)
    .match(/"text":"[^"]*"/g)!
    .map((t) => t.slice(8, -1))
    .join('\n')
}

/**
 * A site "Docs" with two sections: Guides (its default site-space: Handbook; then Recipes) and
 * Reference (Api). Private notes, a space of the organization the site does not publish, has the
 * same words as the others.
 */
export async function askWorld() {
  const w = await searchWorld()
  const f = w.api.fixtures
  const recipes = await f.createSpace(w.org.id, { title: 'Recipes' })
  const apiSpace = await f.createSpace(w.org.id, { title: 'Api' })
  const notes = await f.createSpace(w.org.id, { title: 'Private notes' })
  const handbook = await publish(w, w.space.id, [
    page('Install', 'Download the installer.\n\n## Upgrading\n\nRun the upgrade command to move to a new version of the lantern.'),
    page('Support', 'Write to support for help with the lantern.'),
  ])
  await publish(w, recipes.id, [page('Lantern soup', 'A recipe with a lantern, oddly enough.')])
  await publish(w, apiSpace.id, [page('Lantern endpoint', 'GET /lantern returns the lantern state.')])
  await publish(w, notes.id, [page('Lantern secrets', 'The lantern password is hunter2.')])
  const site = await f.createSite(w.org.id, { title: 'Docs' })
  const base = `/v1/orgs/${w.org.id}/sites/${site.id}`
  const guides = (await call(w.api, w.tokens.ada, 'POST', `${base}/sections`, { spaceId: w.space.id, title: 'Guides' })).body
  const reference = (await call(w.api, w.tokens.ada, 'POST', `${base}/sections`, { spaceId: apiSpace.id, title: 'Reference' })).body
  const recipesSiteSpace = (await call(w.api, w.tokens.ada, 'POST', `${base}/site-spaces`, { spaceId: recipes.id, sectionId: guides.id })).body
  const siteSpaces = (await call(w.api, w.tokens.ada, 'GET', `${base}/site-spaces`)).body.items as Array<{ id: string; space: { id: string } }>
  const siteSpaceOf = (space: string) => siteSpaces.find((s) => s.space.id === space)!.id
  return {
    ...w,
    site,
    base,
    spaces: { handbook: w.space.id, recipes: recipes.id, api: apiSpace.id, notes: notes.id },
    pages: { install: handbook.changes[0].page.id as string, support: handbook.changes[1].page.id as string },
    sections: { guides: guides.id as string, reference: reference.id as string },
    siteSpaces: { handbook: siteSpaceOf(w.space.id), recipes: recipesSiteSpace.id as string, api: siteSpaceOf(apiSpace.id) },
  }
}

export type AskWorld = Awaited<ReturnType<typeof askWorld>>

/** The spaces an answer cites. */
export const citedSpaces = (events: AnswerEvent[]) => [...new Set(events.at(-1)!.answer.sources.map((s) => s.space))].sort()

export type { World }

/**
 * askWorld with questions in its content: an FAQ page in the Handbook (its headings and a
 * paragraph ending in `?`), a heading asking one in Recipes, and one in the private notes the
 * site does not publish.
 */
export async function questionsWorld() {
  const w = await askWorld()
  const faq = await publish(w, w.spaces.handbook, [
    page('FAQ', '## How do I reset the lantern?\n\nHold the button.\n\nDoes it float?\n\n## Warranty\n\nTwo years.'),
    page('Troubleshooting', 'When nothing works.\n\n## Why is the lantern dark?\n\nCharge it.\n\n## Questions\n\n### Is it waterproof?\n\nYes.'),
  ])
  await publish(w, w.spaces.recipes, [page('Cooking', '## Can I cook with the lantern?\n\nNo.')])
  await publish(w, w.spaces.notes, [page('Secrets', '## What is the lantern password?\n\nhunter2.')])
  return { ...w, faqPage: faq.changes[0].page.id as string }
}

/** `GET` a stream through `api.fetch`: the raw response. */
export function getStream(api: DocsApi, token: string | undefined, path: string) {
  return api.fetch(new Request(`${BASE}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} }))
}

/** The questions of a recommended-questions stream, each event checked against the official schema. */
export async function questionEvents(api: DocsApi, token: string, operationId: string, path: string): Promise<string[]> {
  const res = await getStream(api, token, path)
  const text = await res.text()
  expect(res.status, text).toBe(200)
  expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
  return (expectOfficialEventStream(operationId, text) as Array<{ question: string }>).map((e) => e.question)
}
