import { ApiError } from '../../core/errors.js'
import { redactJsonText } from '../../core/json-limits.js'
import { checkOutgoingUrl } from '../../core/outgoing.js'

/**
 * A Git remote as a request names it. Basic-auth credentials in the URL
 * (`https://user:token@host/repo.git`) are split off here, once: what is stored, shown in git
 * info, journaled or written in a message is `url`, never the credentials, which live only in the
 * job that uses them (as an Authorization header its HTTP client adds).
 */
export interface Remote {
  /** The URL without credentials, query or fragment. */
  url: string
  /** `scheme://host:port` of the URL: the only origin the credentials are sent to. */
  origin: string
  /** `Basic <base64(user:password)>`, when the URL carried credentials. */
  authorization?: string
  /** The credentials as written, to scrub them from any message (defence in depth). */
  secrets: string[]
  /** `owner/repo` from the path (without `.git`). */
  repoName: string
  /** The provider the host suggests (github.com, a GitLab host), else undefined. */
  provider?: 'github' | 'gitlab'
}

function base64(text: string): string {
  let binary = ''
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte)
  return btoa(binary)
}

const decode = (part: string): string => {
  try {
    return decodeURIComponent(part)
  } catch {
    return part
  }
}

/**
 * Parse and check a remote URL of a request body (`field` names it in a 400): http(s) only, and
 * a public host unless `allowPrivateNetwork` (core/outgoing.ts). The 400 names the host, never
 * the credentials.
 */
export function parseRemote(raw: string, field: string, allowPrivateNetwork: boolean): Remote {
  let parsed: URL
  try {
    parsed = new URL(raw)
  } catch {
    throw new ApiError('BAD_REQUEST', `Invalid request: body field \`${field}\`: not a valid URL`)
  }
  const user = parsed.username
  const password = parsed.password
  parsed.username = ''
  parsed.password = ''
  parsed.search = ''
  parsed.hash = ''
  const url = parsed.href
  checkOutgoingUrl(url, { field, allowPrivateNetwork })
  const path = parsed.pathname.replace(/\/+$/, '').replace(/\.git$/, '')
  const segments = path.split('/').filter(Boolean).map(decode)
  if (segments.length === 0) throw new ApiError('BAD_REQUEST', `Invalid request: body field \`${field}\`: names no repository (the URL has no path)`)
  const host = parsed.hostname
  const provider = host === 'github.com' || host.endsWith('.github.com') ? 'github' : /(^|\.)gitlab\./.test(host) ? 'gitlab' : undefined
  // The password (or token) is the secret; a user name is one only when long enough to be a token
  // (`ghp_…:x-oauth-basic`): scrubbing `git` or `oauth2` would garble every message.
  const secrets = [password, decode(password)].filter((s) => s.length >= 4).concat([user, decode(user)].filter((s) => s.length >= 12))
  return {
    url,
    origin: parsed.origin,
    ...(user || password ? { authorization: `Basic ${base64(`${decode(user)}:${decode(password)}`)}` } : {}),
    secrets: [...new Set(secrets)],
    repoName: segments.slice(-2).join('/'),
    ...(provider && { provider }),
  }
}

/** A URL without the credentials it may carry (for `gitInfo.url`, `repoTreeURL`, `repoCommitURL`). */
export function withoutCredentials(raw: string): string {
  try {
    const parsed = new URL(raw)
    parsed.username = ''
    parsed.password = ''
    return parsed.href
  } catch {
    // Not a URL: whatever looks like `user:pass@` after a scheme goes.
    return raw.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, '$1')
  }
}

/**
 * `://userinfo@`: the userinfo runs to the last `@` before the path, query or fragment (as a URL
 * parser reads it), whatever it holds (quotes, colons...). No scheme is matched before `://`:
 * a scheme pattern would be tried at every letter of a long word, each try reading to its end
 * (quadratic in the word); and whatever stands before `://`, credentials after it go. So each
 * character is read a bounded number of times: a run after `://` stops at the next `/`, which no
 * other run crosses.
 */
const USERINFO = /:\/\/[^/?#\s]*@/g

/** `text` with every credential of the remote replaced, and any `scheme://user:pass@` cut (linear in the text). */
export function scrub(text: string, remote?: Pick<Remote, 'secrets'>): string {
  let out = text.replace(USERINFO, '://')
  for (const secret of remote?.secrets ?? []) out = out.split(secret).join('***')
  return out
}

/**
 * Whether a string is a URL with a user name or password (a URL without them stays as written).
 * Asked of every string of a body: one without `@` has none, and `canParse` answers for the rest
 * without the exception a failed `new URL` costs (which adds up over a list of them).
 */
function hasCredentials(text: string): boolean {
  if (!text.includes('@') || !URL.canParse(text)) return false
  const url = new URL(text)
  return url.username !== '' || url.password !== ''
}

/**
 * A request body as the journal keeps it: parsed as JSON (so escapes such as `\\/` or `\\u0040`
 * hide nothing), every string (values and keys, at any depth: `url`, `repoTreeURL`,
 * `gitInfo.url`, unknown fields) without the userinfo of the URLs it holds, written again. A body
 * that is not JSON, or nests deeper than a request body may (core/json-limits.ts), is not kept at
 * all: nothing reliable says where its credentials would be. It runs before the request is
 * validated or authorized, for any caller: linear in the text, and it never throws.
 */
export function redactRequestText(text: string): string {
  return redactJsonText(text, 'credentials', (value, walk) => {
    if (typeof value === 'string') return scrub(hasCredentials(value) ? withoutCredentials(value) : value)
    if (Array.isArray(value)) return value.map(walk)
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [scrub(k), walk(v)]))
    return value
  })
}
