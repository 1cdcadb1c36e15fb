#!/usr/bin/env bash
# See your published sites in GitBook's own renderer (GitBook Open, GitbookIO/gitbook, packages/gitbook),
# pointed at this API. Opt-in and not part of CI: the renderer installs ~1,600 packages (~3 GB).
#
#   scripts/renderer/run.sh [--checkout <path of a GitbookIO/gitbook clone>] [--commit <sha>] [--api-port 4500] [--port 3100]
#
# 1. Takes the renderer at a pinned commit: from a local clone (--checkout), or cloned from GitHub.
# 2. Installs it with bun (from the npm registry) in .renderer/, pinning the @gitbook/api version
#    this project uses (the renderer's catalog may name one the registry does not have), and builds
#    the workspace packages the app imports.
# 3. Starts `docs-content-api serve` with the demo data (or --seed <file>), then the renderer's
#    `next dev` with GITBOOK_API_URL at it.
# Then: curl -H 'x-gitbook-url: https://docs.localhost/acme/docs' http://localhost:3100/
# (the renderer is told which site by that header; a site URL with a port is refused by it).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
WORK="${RENDERER_DIR:-$ROOT/.renderer}"
# The renderer commit this project was checked against (docs/guide/renderer.md).
COMMIT="49c993f18150af40dca13a9209bbb031e79fee8f"
CHECKOUT=""
API_PORT=4500
PORT=3100
SEED=()
while [ $# -gt 0 ]; do
  case "$1" in
    --checkout) CHECKOUT="$2"; shift 2 ;;
    --commit) COMMIT="$2"; shift 2 ;;
    --api-port) API_PORT="$2"; shift 2 ;;
    --port) PORT="$2"; shift 2 ;;
    --seed) SEED=(--seed "$2"); shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done

API_VERSION="$(node -p "require('$ROOT/node_modules/@gitbook/api/package.json').version")"
mkdir -p "$WORK"
APP="$WORK/gitbook-$COMMIT"

if [ ! -d "$APP" ]; then
  echo "renderer: taking GitbookIO/gitbook at $COMMIT"
  if [ -n "$CHECKOUT" ]; then
    mkdir -p "$APP" && git -C "$CHECKOUT" archive "$COMMIT" | tar -x -C "$APP"
  else
    git clone -q https://github.com/GitbookIO/gitbook "$APP.clone" && git -C "$APP.clone" archive "$COMMIT" | (mkdir -p "$APP" && tar -x -C "$APP") && rm -rf "$APP.clone"
  fi
  # The workspace catalog pins an @gitbook/api version: use this project's (the registry has it).
  node -e "
    const fs = require('fs'); const file = '$APP/package.json'; const pkg = JSON.parse(fs.readFileSync(file, 'utf8'))
    pkg.workspaces.catalog['@gitbook/api'] = '$API_VERSION'; fs.writeFileSync(file, JSON.stringify(pkg, null, 4))"
fi

if [ ! -x "$WORK/bun/node_modules/.bin/bun" ]; then
  echo "renderer: installing bun"
  mkdir -p "$WORK/bun" && (cd "$WORK/bun" && npm init -y > /dev/null && npm install --no-audit --no-fund bun@1.3.7 > /dev/null)
fi
export PATH="$WORK/bun/node_modules/.bin:$PATH"

if [ ! -f "$APP/.built" ]; then
  echo "renderer: installing its packages (a few minutes)"
  (cd "$APP" && bun install --ignore-scripts)
  echo "renderer: building the workspace packages it imports"
  (cd "$APP" && ./node_modules/.bin/turbo run build --filter='gitbook^...')
  touch "$APP/.built"
fi

echo "renderer: starting docs-content-api on 127.0.0.1:$API_PORT"
(cd "$ROOT" && node --import tsx src/cli/bin.ts serve --port "$API_PORT" "${SEED[@]}") &
API_PID=$!
trap 'kill $API_PID 2> /dev/null || true' EXIT
for _ in $(seq 1 60); do curl -sf "http://127.0.0.1:$API_PORT/openapi.json" > /dev/null && break; sleep 1; done

echo "renderer: starting GitBook's renderer on http://localhost:$PORT (the first page compiles for minutes)"
echo "  curl -H 'x-gitbook-url: https://docs.localhost/acme/docs' http://localhost:$PORT/"
# -H localhost: with 127.0.0.1, Next loops on its own rewrite. Node 20 runs it although it asks for 22.
cd "$APP/packages/gitbook"
GITBOOK_API_URL="http://127.0.0.1:$API_PORT" "$APP/node_modules/.bin/next" dev --webpack -p "$PORT" -H localhost
