#!/usr/bin/env bash
# Runs every test: types, lint (ESLint, Prettier's check, knip), the production build,
# unit and integration tests (vitest), then browser tests (Playwright, JavaScript on and off)
# against the production build.
set -euo pipefail
cd "$(dirname "$0")/.."

chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ ! -x "$chromium" ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    echo "Chromium not found at $chromium: installing Debian's chromium package..."
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
      || { echo "Could not install chromium with apt-get; install Debian's 'chromium' package or set CHROMIUM_PATH." >&2; exit 1; }
    chromium=/usr/bin/chromium
  else
    echo "Browser tests need Chromium: install Debian's 'chromium' package (apt-get install chromium) or set CHROMIUM_PATH." >&2
    exit 1
  fi
fi
export CHROMIUM_PATH="$chromium"

echo "== Type check"
npx tsc --noEmit

echo "== Lint"
npx eslint --max-warnings 0 .
npx prettier --check --log-level warn .
npx knip

echo "== Production build"
# Before the vitest run too: the production-server tests start the built server.
npx remix vite:build >/dev/null

echo "== Unit and integration tests"
npx vitest run

echo "== Browser tests"
export E2E_DATA_DIR="${E2E_DATA_DIR:-$(mktemp -d -t referral-e2e.XXXXXX)}"
export E2E_PORT="${E2E_PORT:-$(node -e 'const s=require("net").createServer();s.listen(0,()=>{console.log(s.address().port);s.close()})')}"
npx playwright test "$@"
