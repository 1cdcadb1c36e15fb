#!/usr/bin/env bash
# Check the package a consumer gets. `npm pack` (its `prepare` script builds dist/), install the
# tarball into a scratch app (production dependencies only, from the registry), and from there:
#   - what ships: every file the exports map names, the license; no source maps, sources or tests;
#   - `import` and `require` of every export path; `require` also with
#     --no-experimental-require-module (what Node 20.0-20.18 and Jest do);
#   - an API answering a request through api.fetch, and over HTTP through toNodeHandler;
#   - a Git Sync job loading isomorphic-git (import and require) and reaching the API's fetch;
#   - docs-content-api/sqlite without its optional peer better-sqlite3 (the library installs and
#     runs without it; opening a store says what to install), then with it (the repository's built
#     copy put in the app): a data directory written, reopened and read, with import and require,
#     and `serve --data` across a restart;
#   - the types: tsc on a tiny .mts (ESM) and .cts (CommonJS) file, module nodenext.
# Run by .ci/run after the build; exits non-zero when anything fails. Takes ~30 s (the build).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
started=$SECONDS
work=$(mktemp -d "${TMPDIR:-/tmp}/check-package.XXXXXX")
trap 'rm -rf "$work"' EXIT

say() { echo "check-package: $*"; }

say "npm pack (the prepare script builds dist/)"
if ! npm pack --pack-destination "$work" >"$work/pack.log" 2>&1; then
  cat "$work/pack.log"
  exit 1
fi
tarball=$(ls "$work"/*.tgz)
say "$(basename "$tarball"): $(tar -tzf "$tarball" | wc -l | tr -d ' ') files, $(wc -c <"$tarball" | tr -d ' ') bytes"

app="$work/app"
mkdir "$app"
echo '{ "name": "check-package-app", "version": "0.0.0", "private": true }' >"$app/package.json"
say "npm install <tarball> --omit=dev ($((SECONDS - started)) s)"
(cd "$app" && npm install --omit=dev --no-audit --no-fund --no-package-lock --loglevel=error "$tarball" >"$work/install.log" 2>&1) || {
  cat "$work/install.log"
  exit 1
}

# --- what ships, and loading every export path with import
cat >"$app/check.mjs" <<'EOF'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { join } from 'node:path'

const dir = join(process.cwd(), 'node_modules', 'docs-content-api')
const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
const fail = (message) => { console.error(`check.mjs: ${message}`); process.exit(1) }

const shipped = []
const walk = (d, prefix = '') => {
  for (const e of readdirSync(d, { withFileTypes: true })) {
    if (e.isDirectory()) walk(join(d, e.name), `${prefix}${e.name}/`)
    else shipped.push(`${prefix}${e.name}`)
  }
}
walk(dir)
const targets = Object.values(pkg.exports).flatMap((v) => (typeof v === 'string' ? [v] : Object.values(v).flatMap((c) => Object.values(c))))
for (const target of targets) if (!existsSync(join(dir, target))) fail(`export target ${target} is not in the package`)
if (!shipped.includes('LICENSE')) fail('no LICENSE in the package')
const unwanted = shipped.filter((f) => f.endsWith('.map') || /^(src|test|examples|bench|scripts)\//.test(f))
if (unwanted.length > 0) fail(`the package ships ${unwanted.join(', ')}`)

const paths = Object.keys(pkg.exports).filter((k) => k !== './package.json')
for (const path of paths) {
  const name = path === '.' ? 'docs-content-api' : `docs-content-api/${path.slice(2)}`
  const mod = await import(name)
  if (Object.keys(mod).length === 0) fail(`import('${name}') exports nothing`)
}

const { createDocsApi } = await import('docs-content-api')
const { toNodeHandler } = await import('docs-content-api/node')
const api = createDocsApi({ basePath: '/api' })
const ada = await api.fixtures.createUser({ displayName: 'Ada', email: 'ada@acme.test' })
const token = await api.fixtures.createToken(ada.id)
const auth = { authorization: `Bearer ${token}` }
const res = await api.fetch(new Request('http://localhost/api/v1/user', { headers: auth }))
if (res.status !== 200 || (await res.json()).id !== ada.id) fail(`api.fetch answered ${res.status}`)

const server = createServer(toNodeHandler(api))
await new Promise((done) => server.listen(0, '127.0.0.1', done))
try {
  const over = await fetch(`http://127.0.0.1:${server.address().port}/api/v1/user`, { headers: auth })
  if (over.status !== 200 || (await over.json()).displayName !== 'Ada') fail(`toNodeHandler answered ${over.status}`)
} finally {
  server.close()
}
// Git Sync loads isomorphic-git when a job runs: an import with a fetch that is offline must get as
// far as the remote (isomorphic-git loaded and asking through the API's fetch) and record why it failed.
{
  const offline = async () => { throw new TypeError('offline') }
  const git = createDocsApi({ fetch: offline })
  const gu = await git.fixtures.createUser({ displayName: 'Gus', email: 'gus@acme.test' })
  const gt = await git.fixtures.createToken(gu.id)
  const org = await git.fixtures.createOrganization({ title: 'Gits', members: [{ user: gu.id, role: 'admin' }] })
  const space = await git.fixtures.createSpace(org.id, { title: 'Sync' })
  const headers = { authorization: `Bearer ${gt}`, 'content-type': 'application/json' }
  const started = await git.fetch(new Request(`http://localhost/v1/spaces/${space.id}/git/import`, { method: 'POST', headers, body: JSON.stringify({ url: 'https://git.example.com/a/b.git', ref: 'refs/heads/main' }) }))
  if (started.status !== 204) fail(`git import answered ${started.status}`)
  await git.idle()
  const info = await (await git.fetch(new Request(`http://localhost/v1/spaces/${space.id}/git/info`, { headers }))).json()
  if (info.operation?.error !== 'could not reach the repository: could not reach https://git.example.com: offline') fail(`git sync job: ${JSON.stringify(info.operation)}`)
}
console.log(`check.mjs: ${shipped.length} files shipped; import of ${paths.join(' ')}; api.fetch, toNodeHandler and a Git Sync job answered`)
EOF

# --- require of every export path
cat >"$app/check.cjs" <<'EOF'
const { createServer } = require('node:http')
const pkg = require('docs-content-api/package.json')
const fail = (message) => { console.error(`check.cjs: ${message}`); process.exit(1) }
const flag = process.execArgv.includes('--no-experimental-require-module') ? ' (--no-experimental-require-module)' : ''

const paths = Object.keys(pkg.exports).filter((k) => k !== './package.json')
for (const path of paths) {
  const name = path === '.' ? 'docs-content-api' : `docs-content-api/${path.slice(2)}`
  if (Object.keys(require(name)).length === 0) fail(`require('${name}') exports nothing`)
}

const { createDocsApi } = require('docs-content-api')
const { toNodeHandler } = require('docs-content-api/node')
;(async () => {
  const api = createDocsApi()
  const ada = await api.fixtures.createUser({ displayName: 'Ada', email: 'ada@acme.test' })
  const token = await api.fixtures.createToken(ada.id)
  const auth = { authorization: `Bearer ${token}` }
  const res = await api.fetch(new Request('http://localhost/v1/user', { headers: auth }))
  if (res.status !== 200 || (await res.json()).id !== ada.id) fail(`api.fetch answered ${res.status}`)
  const server = createServer(toNodeHandler(api))
  await new Promise((done) => server.listen(0, '127.0.0.1', done))
  try {
    const over = await fetch(`http://127.0.0.1:${server.address().port}/v1/user`, { headers: auth })
    if (over.status !== 200) fail(`toNodeHandler answered ${over.status}`)
  } finally {
    server.close()
  }
  // Git Sync loads isomorphic-git when a job runs: an import with a fetch that is offline must get as
  // far as the remote (isomorphic-git loaded and asking through the API's fetch) and record why it failed.
  {
    const offline = async () => { throw new TypeError('offline') }
    const git = createDocsApi({ fetch: offline })
    const gu = await git.fixtures.createUser({ displayName: 'Gus', email: 'gus@acme.test' })
    const gt = await git.fixtures.createToken(gu.id)
    const org = await git.fixtures.createOrganization({ title: 'Gits', members: [{ user: gu.id, role: 'admin' }] })
    const space = await git.fixtures.createSpace(org.id, { title: 'Sync' })
    const headers = { authorization: `Bearer ${gt}`, 'content-type': 'application/json' }
    const started = await git.fetch(new Request(`http://localhost/v1/spaces/${space.id}/git/import`, { method: 'POST', headers, body: JSON.stringify({ url: 'https://git.example.com/a/b.git', ref: 'refs/heads/main' }) }))
    if (started.status !== 204) fail(`git import answered ${started.status}`)
    await git.idle()
    const info = await (await git.fetch(new Request(`http://localhost/v1/spaces/${space.id}/git/info`, { headers }))).json()
    if (info.operation?.error !== 'could not reach the repository: could not reach https://git.example.com: offline') fail(`git sync job: ${JSON.stringify(info.operation)}`)
  }
  console.log(`check.cjs${flag}: require of ${paths.join(' ')}; api.fetch, toNodeHandler and a Git Sync job answered`)
})().catch((error) => fail(error.stack))
EOF

# --- types, as a consumer's TypeScript sees them (ESM and CommonJS resolution), the package's
# .d.ts files included (skipLibCheck false), with Node's types and no DOM lib.
cat >"$app/types-esm.mts" <<'EOF'
import { createServer } from 'node:http'
import { createDocsApi, type DocsApi } from 'docs-content-api'
import { createFetchHandler, type FetchFunction } from 'docs-content-api/fetch'
import { createClock, sequentialIds } from 'docs-content-api/testing'
import { toNodeHandler, type NodeHandler } from 'docs-content-api/node'
import { createFileBlobs, createSqliteStore, openDataDir, type SqliteStore } from 'docs-content-api/sqlite'
import { schema, type AppSchema } from 'docs-content-api'

const store: SqliteStore<AppSchema> = createSqliteStore(schema, { path: 'docs.sqlite', durability: 'full' })
const data = openDataDir('docs-data')
createDocsApi({ store: data.store, blobs: createFileBlobs({ dir: 'blobs' }) })
store.close()
const api: DocsApi = createDocsApi({ now: createClock().now, ids: sequentialIds() })
const handler: FetchFunction = createFetchHandler(api, { basePath: '/api' })
const node: NodeHandler = toNodeHandler(api, { basePath: '/api' })
createServer(node)
const res: Response = await handler(new Request('http://localhost/api/v1/user'))
// @ts-expect-error: the types are real (not `any`): a wrong option is an error
createDocsApi({ basePath: 42 })
export { res }
EOF
cat >"$app/types-cjs.cts" <<'EOF'
import { createDocsApi, type DocsApi } from 'docs-content-api'
import { createFetchHandler } from 'docs-content-api/fetch'
import { sequentialIds } from 'docs-content-api/testing'
import { toNodeHandler } from 'docs-content-api/node'
import { openDataDir } from 'docs-content-api/sqlite'

const api: DocsApi = createDocsApi({ ids: sequentialIds() })
// @ts-expect-error: openDataDir takes a directory and store options, not a path option
openDataDir('docs-data', { path: 'x' })
createFetchHandler(api)
toNodeHandler(api)
// @ts-expect-error: the types are real (not `any`): a wrong option is an error
toNodeHandler(api, { basePath: 42 })
EOF
cat >"$app/tsconfig.json" <<EOF
{
  "compilerOptions": {
    "module": "nodenext",
    "moduleResolution": "nodenext",
    "target": "es2022",
    "lib": ["es2022"],
    "types": ["node"],
    "typeRoots": ["$root/node_modules/@types"],
    "strict": true,
    "noEmit": true,
    "skipLibCheck": false
  },
  "files": ["types-esm.mts", "types-cjs.cts"]
}
EOF

cd "$app"
say "node: import, require ($((SECONDS - started)) s)"
node check.mjs
node check.cjs
node --no-experimental-require-module check.cjs
say "the docs-content-api command: demo-seed, serve --seed --cors ($((SECONDS - started)) s)"
./node_modules/.bin/docs-content-api demo-seed >state.json
node -e 'const s = JSON.parse(require("fs").readFileSync("state.json", "utf8")); if (s.format !== "docs-content-api/state" || !s.organizations.length) process.exit(1)'
./node_modules/.bin/docs-content-api serve --port 0 --seed state.json --cors >serve.log 2>&1 &
serve_pid=$!
for _ in $(seq 1 50); do grep -q '^Try:' serve.log 2>/dev/null && break; sleep 0.2; done
cat serve.log
# The first curl line the banner prints must answer 200 with the seeded organization.
line=$(grep -m1 'curl -H' serve.log | sed 's/^ *curl //')
auth=$(echo "$line" | sed -E 's/^-H "([^"]+)" .*/\1/')
url=$(echo "$line" | sed -E 's/.* (http[^ ]+)$/\1/')
status=$(curl -s -o orgs.json -w '%{http_code}' -H "$auth" -H 'origin: https://app.test' -D headers.txt "$url")
# Markdown is read on the server's worker threads, from the script the package ships
# (dist/offload-worker.js): a content batch of markdown must be read and stored.
AUTH="$auth" URL="$url" node --input-type=module -e '
  const base = process.env.URL.replace(/\/v1\/orgs$/, "/v1")
  const headers = { authorization: process.env.AUTH.replace(/^Authorization: /i, ""), "content-type": "application/json" }
  const call = async (method, path, body) => { const res = await fetch(base + path, { method, headers, ...(body && { body: JSON.stringify(body) }) }); const json = await res.json(); if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`); return json }
  const orgs = await call("GET", "/orgs")
  const space = (await call("GET", `/orgs/${orgs.items[0].id}/spaces`)).items[0].id
  const cr = await call("POST", `/spaces/${space}/change-requests`, { subject: "Check" })
  await call("POST", `/spaces/${space}/change-requests/${cr.id}/content`, { changes: [{ operation: "insert_page", document: { markdown: "# Packaged\n\nRead by a *worker*." } }] })
  const pages = (await call("GET", `/spaces/${space}/change-requests/${cr.id}/content/pages`)).pages
  const page = pages.find((p) => p.title === "Packaged")
  if (!page || page.document.nodes[0].nodes[0].leaves.map((l) => l.text).join("") !== "Read by a worker.") throw new Error("the markdown page was not stored as read: " + JSON.stringify(page))
' || { kill "$serve_pid"; echo "check-package: the served API did not read a markdown batch (the offload worker of the package)"; exit 1; }
kill "$serve_pid"
wait "$serve_pid" 2>/dev/null || true
if [ "$status" != 200 ] || ! grep -q -- "$(node -e 'console.log(JSON.parse(require("fs").readFileSync("state.json","utf8")).organizations[0].id)')" orgs.json; then
  echo "check-package: the served API answered $status to the banner's curl line ($url)"; cat orgs.json; exit 1
fi
grep -qi '^access-control-allow-origin: \*' headers.txt || { echo "check-package: --cors gave no CORS header"; exit 1; }
say "docs-content-api/sqlite without better-sqlite3 ($((SECONDS - started)) s)"
[ ! -e node_modules/better-sqlite3 ] || { echo "check-package: better-sqlite3 was installed with the package: it must stay an optional peer"; exit 1; }
node --input-type=module -e '
  const { createSqliteStore, SqliteUnavailableError } = await import("docs-content-api/sqlite")
  const { schema } = await import("docs-content-api")
  try { createSqliteStore(schema, { path: "never.sqlite" }); process.exit(1) } catch (error) {
    if (!(error instanceof SqliteUnavailableError) || !error.message.includes("npm install better-sqlite3@12")) { console.error(error); process.exit(1) }
  }
  console.log("sqlite: without better-sqlite3, opening a store says what to install")'
say "docs-content-api/postgres without pg ($((SECONDS - started)) s)"
[ ! -e node_modules/pg ] || { echo "check-package: pg was installed with the package: it must stay an optional peer"; exit 1; }
node --input-type=module -e '
  const { openPostgresStore, PostgresUnavailableError } = await import("docs-content-api/postgres")
  const { schema } = await import("docs-content-api")
  try { await openPostgresStore(schema, { url: "postgres://127.0.0.1:1/none" }); process.exit(1) } catch (error) {
    if (!(error instanceof PostgresUnavailableError) || !error.message.includes("npm install pg@8")) { console.error(error); process.exit(1) }
  }
  console.log("postgres: without pg, opening a store says what to install")'
if ./node_modules/.bin/docs-content-api serve --port 0 --data docs-data >no-peer.log 2>&1; then echo "check-package: serve --data ran without better-sqlite3"; exit 1; fi
grep -q 'npm install better-sqlite3@12' no-peer.log || { cat no-peer.log; exit 1; }

say "docs-content-api/sqlite with better-sqlite3: import, require, serve --data across a restart ($((SECONDS - started)) s)"
# The repository's built copy (what `npm rebuild better-sqlite3` made), with what it requires at run time.
for dep in better-sqlite3 bindings file-uri-to-path; do cp -R "$root/node_modules/$dep" "node_modules/$dep"; done
cat >sqlite-check.mjs <<'EOF'
import { createDocsApi } from 'docs-content-api'
import { openDataDir } from 'docs-content-api/sqlite'
const fail = (message) => { console.error(`sqlite-check.mjs: ${message}`); process.exit(1) }
const first = openDataDir('mjs-data')
if (!first.empty) fail('a new data directory is not empty')
const api = createDocsApi({ store: first.store, blobs: first.blobs })
const ada = await api.fixtures.createUser({ displayName: 'Ada' })
const token = await api.fixtures.createToken(ada.id)
first.close()
const again = openDataDir('mjs-data')
const reopened = createDocsApi({ store: again.store, blobs: again.blobs })
const res = await reopened.fetch(new Request('http://localhost/v1/user', { headers: { authorization: `Bearer ${token}` } }))
if (res.status !== 200 || (await res.json()).id !== ada.id) fail(`the reopened API answered ${res.status}`)
again.close()
console.log('sqlite-check.mjs: a data directory written, reopened and read')
EOF
node sqlite-check.mjs
node -e '
  const { createSqliteStore } = require("docs-content-api/sqlite")
  const { schema } = require("docs-content-api")
  const store = createSqliteStore(schema, { path: "cjs.sqlite" })
  store.transaction((tx) => tx.insert("users", { id: "u", displayName: "U", emailVerified: false }))
  store.close()
  const again = createSqliteStore(schema, { path: "cjs.sqlite" })
  if (again.read((tx) => tx.get("users", "u"))?.displayName !== "U") process.exit(1)
  again.close()
  console.log("sqlite (require): a store written, reopened and read")'
# serve --data in the background until its banner is out; sets serve_pid, auth and base.
serve_data() {
  ./node_modules/.bin/docs-content-api serve --port 0 --data docs-data >"$1" 2>&1 &
  serve_pid=$!
  for _ in $(seq 1 50); do grep -q '^Try:' "$1" 2>/dev/null && break; sleep 0.2; done
  grep -q 'data in .*docs-data: SQLite, kept across restarts' "$1" || { cat "$1"; kill "$serve_pid"; exit 1; }
  line=$(grep -m1 'curl -H' "$1" | sed 's/^ *curl //')
  auth=$(echo "$line" | sed -E 's/^-H "([^"]+)" .*/\1/')
  base=$(echo "$line" | sed -E 's#.* (http://[^/]+)/.*#\1#')
}
json_field() { node -e 'let s="";process.stdin.on("data",(c)=>s+=c).on("end",()=>console.log(eval("JSON.parse(s)"+process.argv[1])))' "$1"; }
serve_data serve-1.log
org=$(curl -s -H "$auth" "$base/v1/orgs" | json_field '.items[0].id')
space=$(curl -s -X POST -H "$auth" -H 'content-type: application/json' -d '{"title":"Kept"}' "$base/v1/orgs/$org/spaces" | json_field '.id')
kill "$serve_pid"; wait "$serve_pid" 2>/dev/null || true
serve_data serve-2.log
status=$(curl -s -o space.json -w '%{http_code}' -H "$auth" "$base/v1/spaces/$space")
kill "$serve_pid"; wait "$serve_pid" 2>/dev/null || true
if [ "$status" != 200 ] || ! grep -q '"title":"Kept"' space.json; then echo "check-package: after a restart, GET of the space written before answered $status"; cat space.json; exit 1; fi
echo "serve --data: a space written, the server stopped and started again, the space served"

say "tsc, module nodenext: types-esm.mts, types-cjs.cts ($((SECONDS - started)) s)"
"$root/node_modules/.bin/tsc" -p tsconfig.json
say "ok in $((SECONDS - started)) s"
