import type { GitHttpClient } from '../git-http.js'
import { concatBytes as concat, pktLine, pktPayloads } from './pkt-line.js'

/**
 * A push as Git's smart HTTP protocol sends it (receive-pack), for the one case an export meets
 * most: a commit on top of the branch's head, the pack holding exactly the objects the commit
 * added (git-repo.ts pushFastForward). isomorphic-git's own push finds those objects by walking
 * every tree of the new commit and of the merge base: on a large repository that walk cost more
 * than the export it pushed (bench (v)).
 *
 * The request: one command (`<old> <new> <ref>`, the old value making the update a
 * compare-and-swap: a branch that moved meanwhile is refused, not overwritten), the capabilities
 * asked for, a flush, the pack. The answer: report-status lines (`unpack ok`, `ok <ref>` or
 * `ng <ref> <reason>`), in band 1 of a side band when the server offered one.
 */

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/** What the remote said of a push: whether the pack unpacked and the ref was updated, and else why. */
export interface PushReport {
  ok: boolean
  /** The remote's reason, when it refused (`fetch first`, a hook's message...). */
  error?: string
}

export function parseReport(body: Uint8Array, sideBand: boolean): PushReport {
  let status = body
  const errors: string[] = []
  if (sideBand) {
    const data: Uint8Array[] = []
    for (const payload of pktPayloads(body)) {
      const band = payload[0]
      if (band === 1) data.push(payload.subarray(1))
      else if (band === 3) errors.push(decoder.decode(payload.subarray(1)).trim())
    }
    status = concat(data)
  }
  if (errors.length > 0) return { ok: false, error: errors.join('; ') }
  const lines = pktPayloads(status).map((p) => decoder.decode(p).replace(/\n$/, ''))
  const unpack = lines.find((l) => l.startsWith('unpack '))
  if (unpack === undefined) return { ok: false, error: 'the remote sent no report of the push' }
  if (unpack !== 'unpack ok') return { ok: false, error: unpack.slice('unpack '.length) }
  const refused = lines.find((l) => l.startsWith('ng '))
  if (refused !== undefined) return { ok: false, error: refused.split(' ').slice(2).join(' ') }
  if (!lines.some((l) => l.startsWith('ok '))) return { ok: false, error: 'the remote did not confirm the update' }
  return { ok: true }
}

/**
 * Send one ref update and its pack to `url`'s receive-pack. `capabilities`: what the remote
 * offered (its refs advertisement); side-band-64k is asked for when offered.
 */
export async function receivePack(
  http: GitHttpClient,
  url: string,
  update: { ref: string; old: string; next: string; pack: Uint8Array },
  capabilities: ReadonlySet<string>,
): Promise<PushReport> {
  const sideBand = capabilities.has('side-band-64k')
  const asked = ['report-status', ...(sideBand ? ['side-band-64k'] : []), 'agent=docs-content-api']
  const body = concat([pktLine(`${update.old} ${update.next} ${update.ref}\0${asked.join(' ')}\n`), encoder.encode('0000'), update.pack])
  const response = await http.request({
    url: `${url.replace(/\/$/, '')}/git-receive-pack`,
    method: 'POST',
    headers: { 'content-type': 'application/x-git-receive-pack-request', accept: 'application/x-git-receive-pack-result' },
    body: [body],
  })
  const chunks: Uint8Array[] = []
  for await (const chunk of response.body) chunks.push(chunk)
  if (response.statusCode !== 200) {
    const error = Object.assign(new Error(`HTTP Error: ${response.statusCode} ${response.statusMessage}`), {
      code: 'HttpError',
      data: { statusCode: response.statusCode, statusMessage: response.statusMessage },
    })
    throw error
  }
  return parseReport(concat(chunks), sideBand)
}
