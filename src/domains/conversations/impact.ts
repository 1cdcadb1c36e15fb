import type { Impact } from './rows.js'

/**
 * How badly an issue hurts, from what its sentences say (rules; test/domains/conversations/impact.test.ts
 * holds a table of phrasings):
 * - `high`: money taken wrongly ("I was charged twice", "overcharged"), data lost ("we lost all our
 *   pages", "older versions are gone", "my edits were overwritten"), a security hole ("private
 *   pages are public"): whatever else is said; and being blocked ("blocked", "cannot log in",
 *   "nobody can sign in", "crashes", "is down", "the editor is broken", "urgent") when no
 *   workaround is mentioned ("for now", "manually", "instead"), `medium` with one;
 * - `medium`: something does not work as it should: errors and failures ("fails", "error 500",
 *   "429"), what does not happen ("is not pushing my changes", "commits do not appear", "stopped
 *   arriving", "nothing happens", "returns no results", "still shows the old order"), error
 *   messages ("could not be loaded"), missing, wrong, slow, stuck, warnings, a broken link;
 * - `low`: the rest: questions ("how do I...", "can I...?"), not finding something ("I cannot
 *   find the setting"), confusion, wishes.
 */
export function impactOf(sentences: readonly string[]): Impact {
  const text = sentences.join(' ')
  if (SEVERE.some((rule) => rule.test(text))) return 'high'
  const blocked = BLOCKED.test(text.replace(NOT_BLOCKED, '').replace(MINOR_BREAKAGE, ''))
  if (blocked && !WORKAROUND.test(text)) return 'high'
  if (blocked || MALFUNCTION.some((rule) => rule.test(text))) return 'medium'
  return 'low'
}

/** What needs no more to be `high`: money, data, security. */
const SEVERE = [
  // Money: "charged twice", "billed us again", "paid two times", "double charged", "overcharged".
  /\b(overcharg\w*|double[- ]?(charg|bill)\w*|(charged|billed|paid)\b[^.?!]{0,40}\b(twice|two times|double|again|incorrectly|wrongly|too much|by mistake))\b/i,
  // Data lost: "data loss", "we lost all our pages", "lost hours of work", "wiped out".
  /\b(data loss|lost (all|every|everything|my|our|the|some|a lot|hours|days|weeks)\b|(wiped|erased)( out)?\b)/i,
  // Content gone: "older versions of our pages are gone", "our changes were overwritten", "the content disappeared".
  /\b(pages?|content|changes|edits|data|work|versions?|history|files?|documents?|spaces?|everything)\b[^.?!]{0,40}\b((is|are|was|were|got|has been|have been|went) (gone|lost|deleted|wiped|erased|overwritten)|disappeared|vanished)\b/i,
  // Security: "a security issue", "data leak", "private pages are public", "exposed".
  /\b(security (issue|hole|problem|breach|bug|vulnerabilit\w*)|vulnerabilit\w*|leak(s|ed|ing)?|breach\w*|exposed|(private|internal|confidential)\b[^.?!]{0,40}\b(public|visible to (everyone|anyone|all)|indexed by google))\b/i,
]

/** Being kept from working. */
const BLOCKED =
  /\b(unable to|not able to|can'?t|cannot|can not|could ?n'?t|blocked|blocking|blocker|crash\w*|outage|is down|are down|went down|urgent|asap|critical|impossible|nothing works|production is|nobody can|no one can|none of us can|(is|are|was|were|got|completely|totally|all) broken|broke)\b/i
/**
 * "Cannot find", "can't figure out": not knowing where or how, not being blocked; "the spec
 * could not be loaded": an error message, something not working.
 */
const NOT_BLOCKED = /\b(unable to|not able to|can'?t|cannot|can not|could ?n'?t|could not) ((find|see where|figure|understand|tell|locate|work out)\b|be \w+)/gi
/** A broken link or image is something not working, not being kept from working. */
const MINOR_BREAKAGE =
  /\b(links?|urls?|images?|anchors?|icons?|redirects?)\b[^.?!]{0,40}\b(is|are|was|were|got|all) broken\b|\bbroken (links?|urls?|images?|anchors?|icons?)\b/gi
const WORKAROUND = /\b(workaround|work around|for now|instead|manually|temporar\w*|in the meantime|meanwhile)\b/i

/** Something not working as it should. */
const MALFUNCTION = [
  /\b(errors?|fail\w*|bugs?|buggy|wrong|incorrect\w*|missing|slow|stuck|freez\w*|hangs?|hanging|time(s|d)? ?out|disappear\w*|lost|broken|break(s|ing)?|expired|warn(s|ing|ings)?|rejected|invalid|unresponsive|loop|forever|blank|empty box|too many requests|[45]\d\d)\b/i,
  // "Could not be loaded", "still shows the old order" (a change not taken), "keeps sending me back".
  /\b((could|can) ?(not|n'?t) be \w+|still (shows?|displays?|lists?|has|have|uses?|points?|sends?)|keeps? (sending|redirecting|asking|logging|failing|crashing|reloading|showing|posting))\b/i,
  // What does not happen: "is not pushing", "do not appear", "doesn't sync", "stopped arriving", "never finishes".
  /\b(not|never|no longer|stopped|stops|(do|does|did|is|are|was|were|has|have|had)n'?t|won'?t|dont|doesnt|didnt|isnt)\s+(\w+ing|appear\w*|show\w*|load\w*|sync\w*|work\w*|updat\w*|render\w*|sav\w*|push\w*|send\w*|arriv\w*|renew\w*|resolv\w*|publish\w*|record\w*|display\w*|import\w*|export\w*|finish\w*|respond\w*|open\w*|start\w*|connect\w*|match\w*|find\w*|get\w*|receiv\w*|reflect\w*|apply|take effect|happen\w*)\b/i,
  // "Nothing happens", "does nothing", "returns no results", "shows nothing", "arrive twice".
  /\b(nothing (happens|happened|works)|(does|do|did) nothing|(returns?|shows?|gives?|finds?) (no|nothing|zero)|no results|(arrive|sent|posted|appear|show)\w* twice)\b/i,
]
