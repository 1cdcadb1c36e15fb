import type { ConversationPart, Impact } from './rows.js'
import { impactOf } from './impact.js'
import type { TextTools } from './text-tools.js'

/**
 * Issues out of a support conversation, by rules over its sentences (no model of its own beyond
 * wink's sentence boundaries and stems, so the result is the same on every run):
 * - only what the customer wrote counts (the `user` parts; all parts when there are none);
 * - a sentence reports a problem when it says something fails or is missing, asks how or why,
 *   or is a question; greetings and thanks do not;
 * - the sentences of one problem form one issue, with the other sentences of the same message that
 *   say something (not greetings, thanks, "let me know"): those before its first problem sentence
 *   ("We moved our docs to a new space.") and those after ("It happens on every space."); they
 *   tell what the problem is about, and clustering compares issues by their words. A new issue
 *   starts with a sentence that says it is another matter ("Also, ...", "Another thing: ..."),
 *   or, in a later message, with a problem sharing no term with the issue before it (unless it
 *   starts with "it", "this"...);
 * - the issue's title is its first problem sentence; its details, all of its sentences; its
 *   impact, from what they say (impact.ts).
 * A conversation without a problem sentence yields one issue (a `low` one, unless it says more)
 * of the first message that says something, titled by its first sentence of four words or more,
 * and none when it is all greetings and thanks.
 */
export interface ExtractedIssue {
  title: string
  sentences: string[]
  impact: Impact
  terms: string[]
}

const PROBLEM =
  /\b(not|never|no|nothing|nobody|no one|none|errors?|fail(s|ed|ing|ure)?|broken|breaks?|crash(es|ed|ing)?|bugs?|buggy|issues?|problems?|wrong|missing|stuck|slow|freez(e|es|ing)|hangs?|unable|cannot|can'?t|can not|could ?n'?t|does ?n'?t|do ?n'?t|wo ?n'?t|is ?n'?t|are ?n'?t|not (working|loading|showing|saving|possible)|no longer|time(s|d)? ?out|lost|gone|disappear(s|ed)?|overwritten|charged|billed|overcharg\w*|leak(s|ed)?|exposed|blocked|expired|warn(s|ing|ings)?|confus(ed|ing)|unclear|how (do|can|should|to)|where (is|are|do|can)|why (is|does|do|are|can))\b/i
const CHATTER =
  /^(hi|hello|hey|dear|thanks?|thank you|many thanks|cheers|regards|best|kind regards|ok(ay)?|great|perfect|bye|have a|sure|sorry|please advise|let me know|looking forward|i look forward|any help|i appreciate|appreciate)\b/i
const NEW_TOPIC = /^(also|another|additionally|besides|separately|unrelated|one more|on another note|and another|secondly|second|plus|oh and)\b[\s,:;-]*/i
const CONTINUES = /^(it|its|it's|this|that|these|those|they|the same|same|which|and it|but it|then|now it|still)\b/i
const RANK: Record<Impact, number> = { low: 0, medium: 1, high: 2 }

/** The strongest of some impacts (undefined for none). */
export function strongest(impacts: Iterable<Impact>): Impact | undefined {
  let out: Impact | undefined
  for (const i of impacts) if (out === undefined || RANK[i] > RANK[out]) out = i
  return out
}

const words = (s: string) => s.split(/\s+/).filter((w) => /\w/.test(w)).length

/** A sentence that says something (more than a greeting, thanks or "let me know"). */
const isTelling = (sentence: string) => words(sentence) >= 3 && !CHATTER.test(sentence)

function isProblem(sentence: string): boolean {
  if (words(sentence) < 3 || (CHATTER.test(sentence) && !PROBLEM.test(sentence.replace(CHATTER, '')))) return false
  return PROBLEM.test(sentence) || sentence.endsWith('?')
}

const GREETING = /^(hi|hello|hey|dear)( team| there| all| everyone| support)?\s*[,!.:-]\s*/i

/** A title from a sentence: a greeting and the topic marker left out, whitespace collapsed, at most 120 characters. */
function titleOf(sentence: string): string {
  let t = sentence
    .replace(GREETING, '')
    .replace(NEW_TOPIC, '')
    .replace(/\s+/g, ' ')
    .replace(/[.!]+$/, '')
    .trim()
  if (t === '') t = sentence.trim()
  t = t.charAt(0).toUpperCase() + t.slice(1)
  return t.length <= 120 ? t : `${t.slice(0, 119).replace(/\s+\S*$/, '')}…`
}

export function extractIssues(tools: TextTools, conversation: { subject?: string | undefined; parts: readonly ConversationPart[] }): ExtractedIssue[] {
  const users = conversation.parts.filter((p) => p.role === 'user')
  const parts = users.length > 0 ? users : conversation.parts
  const groups: Array<{ sentences: string[]; title: number; terms: Set<string> }> = []
  const join = (group: { sentences: string[]; terms: Set<string> }, sentence: string, terms: readonly string[]) => {
    group.sentences.push(sentence)
    terms.forEach((t) => group.terms.add(t))
  }
  for (const part of parts) {
    // Within a message, problem sentences continue the issue before them unless they say otherwise.
    let inPart = false
    // What a message says before its first problem ("We moved our docs to a new space last week.").
    let context: Array<{ sentence: string; terms: string[] }> = []
    for (const sentence of tools.sentences(part.body)) {
      const terms = tools.terms(sentence)
      const current = groups.at(-1)
      if (!isProblem(sentence)) {
        if (!isTelling(sentence)) continue
        // "It happens on every space.", "Someone rewrote a paragraph.": more about the problem just told.
        if (inPart && current) join(current, sentence, terms)
        else if (!inPart) context.push({ sentence, terms })
        continue
      }
      const unrelated = !!current && !inPart && !CONTINUES.test(sentence) && terms.length > 0 && !terms.some((t) => current.terms.has(t))
      let group = current
      if (!group || NEW_TOPIC.test(sentence) || unrelated) {
        group = { sentences: [], title: context.length, terms: new Set() }
        groups.push(group)
      }
      for (const c of context) join(group, c.sentence, c.terms)
      context = []
      join(group, sentence, terms)
      inPart = true
    }
  }
  const subject = conversation.subject?.trim()
  if (groups.length === 0) {
    // The first message that says something, all it says.
    const told = parts.map((p) => tools.sentences(p.body).filter(isTelling)).find((s) => s.some((t) => words(t) >= 4))
    if (told) groups.push({ sentences: told, title: told.findIndex((t) => words(t) >= 4), terms: new Set(told.flatMap((t) => tools.terms(t))) })
  }
  return groups.map((g, i) => ({
    title: titleOf(g.sentences[g.title]!),
    sentences: g.sentences,
    impact: impactOf(g.sentences),
    // The subject speaks of the conversation's first matter.
    terms: [...(i === 0 && subject ? tools.terms(subject) : []), ...g.sentences.flatMap((s) => tools.terms(s))],
  }))
}
