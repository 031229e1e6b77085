#!/usr/bin/env bash
# Runs every test: types, lint (ESLint, Prettier's check, knip), the production build,
# unit and integration tests (vitest), then browser tests (Playwright, JavaScript on and off)
# against the production build.
set -euo pipefail
cd "$(dirname "$0")/.."

# The browser tests run Debian's Chromium headless shell (the browser without the desktop
# browser's interface, about half the CPU of the full one), and the full Chromium for the specs
# about notifications, which the shell does not show (tests/e2e/support/browsers.ts, decision 0076).
# CHROMIUM_PATH names another browser for them all.
missing_browsers=()
if [ -z "${CHROMIUM_PATH:-}" ]; then
  [ -x /usr/bin/chromium-headless-shell ] || missing_browsers+=(chromium-headless-shell)
  [ -x "${CHROMIUM_FULL_PATH:-/usr/bin/chromium}" ] || missing_browsers+=(chromium)
elif [ ! -x "$CHROMIUM_PATH" ]; then
  echo "CHROMIUM_PATH is $CHROMIUM_PATH, which is not a program." >&2
  exit 1
fi
if [ ${#missing_browsers[@]} -gt 0 ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    echo "Installing Debian's ${missing_browsers[*]} for the browser tests..."
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing_browsers[@]}" >/dev/null) \
      || { echo "Could not install ${missing_browsers[*]} with apt-get; install Debian's package (apt-get install ${missing_browsers[*]}) or set CHROMIUM_PATH." >&2; exit 1; }
  else
    echo "Browser tests need Debian's ${missing_browsers[*]}: install it (apt-get install ${missing_browsers[*]}) or set CHROMIUM_PATH." >&2
    exit 1
  fi
fi

# The store tests start throwaway PostgreSQL servers (tests/support/postgres.ts); without
# the server's programs they stop with the same one line.
if ! compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null && ! command -v initdb >/dev/null; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    echo "PostgreSQL not found: installing Debian's postgresql package..."
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null) \
      || { echo "Could not install postgresql with apt-get; install Debian's 'postgresql' package." >&2; exit 1; }
  else
    echo "The store tests need PostgreSQL: install Debian's 'postgresql' package (apt-get install postgresql)." >&2
    exit 1
  fi
fi

# Each stage's time is printed when it ends, and every stage's with the total at the end
# (also when a stage fails), so CI's log shows where the time went.
stage_times=()
current_stage=""
run_started=$SECONDS

minutes_and_seconds() {
  printf '%d:%02d' $(($1 / 60)) $(($1 % 60))
}

stage_line() {
  printf '  %-28s %6s%s\n' "$1" "$(minutes_and_seconds "$2")" "${3:-}"
}

stage() {
  current_stage=$1
  shift
  echo "== $current_stage"
  stage_started=$SECONDS
  "$@"
  local took=$((SECONDS - stage_started))
  echo "== $current_stage took $(minutes_and_seconds "$took")"
  stage_times+=("$(stage_line "$current_stage" "$took")")
  current_stage=""
}

print_stage_times() {
  local status=$?
  echo "== Stage times (minutes:seconds)"
  if [ ${#stage_times[@]} -gt 0 ]; then printf '%s\n' "${stage_times[@]}"; fi
  if [ -n "$current_stage" ]; then stage_line "$current_stage" $((SECONDS - stage_started)) " (failed)"; fi
  stage_line "Total" $((SECONDS - run_started)) "$([ "$status" = 0 ] || echo " (failed)")"
}
trap print_stage_times EXIT

lint() {
  npx eslint --max-warnings 0 .
  npx prettier --check --log-level warn .
  npx knip
}

# The type check, the linters and the production build run side by side (each mostly on one
# core; none writes what another reads: the build writes build/, which the linters skip), each
# one's output printed whole, one after the other, once all have ended; the stage fails when
# any does. The build comes before the vitest run: the production-server tests start it.
checks_and_build() {
  local type_log lint_log build_log type_status=0 lint_status=0 build_status=0
  type_log=$(mktemp)
  lint_log=$(mktemp)
  build_log=$(mktemp)
  npx tsc --noEmit >"$type_log" 2>&1 &
  local type_pid=$!
  lint >"$lint_log" 2>&1 &
  local lint_pid=$!
  npx remix vite:build >"$build_log" 2>&1 &
  local build_pid=$!
  wait "$type_pid" || type_status=$?
  wait "$lint_pid" || lint_status=$?
  wait "$build_pid" || build_status=$?
  echo "-- Type check (tsc)$([ "$type_status" = 0 ] || echo ": failed")"
  cat "$type_log"
  echo "-- Lint (ESLint, Prettier, knip)$([ "$lint_status" = 0 ] || echo ": failed")"
  cat "$lint_log"
  # The build's progress lines are noise when it succeeds.
  echo "-- Production build$([ "$build_status" = 0 ] || echo ": failed")"
  [ "$build_status" = 0 ] || cat "$build_log"
  rm -f "$type_log" "$lint_log" "$build_log"
  [ "$type_status" = 0 ] && [ "$lint_status" = 0 ] && [ "$build_status" = 0 ]
}

browser_tests() {
  export E2E_DATA_DIR="${E2E_DATA_DIR:-$(mktemp -d -t referral-e2e.XXXXXX)}"
  export E2E_PORT="${E2E_PORT:-$(node -e 'const s=require("net").createServer();s.listen(0,()=>{console.log(s.address().port);s.close()})')}"
  npx playwright test "$@"
}

stage "Type check, lint and build" checks_and_build
stage "Unit and integration tests" npx vitest run
stage "Browser tests" browser_tests "$@"
