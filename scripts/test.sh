#!/usr/bin/env bash
# Installs everything the tests need (Debian's chromium when missing, the npm packages),
# starts a throwaway PostgreSQL server (Debian's postgresql, installed when missing), then runs
# every suite: type check, lint and format check, unit tests (stores against SQLite and
# PostgreSQL), production build, browser and API specs.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then
  echo "== installing Debian's chromium"
  if [ "$(id -u)" = "0" ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  fi
fi

# Installs Debian's package $2 when the command $1 is missing (as root, or through sudo).
ensure_debian_package() {
  if command -v "$1" >/dev/null 2>&1; then return; fi
  echo "== installing Debian's $2"
  local as_root=()
  if [ "$(id -u)" != "0" ]; then as_root=(sudo); fi
  "${as_root[@]}" apt-get update -qq
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2" >/dev/null
}

# The metrics spec has a real Prometheus server scrape the studio (e2e/observability-export.spec.ts).
ensure_debian_package prometheus prometheus
# The upstream connection tests make a loopback certificate (lib/testing/loopback-certificate.ts).
ensure_debian_package openssl openssl

echo "== npm install"
PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --no-audit --no-fund --loglevel=error

bash scripts/python-venv.sh

echo "== PostgreSQL for the store tests and the multi-instance specs"
eval "$(bash scripts/test-postgres.sh start)"
trap 'bash scripts/test-postgres.sh stop "$TEST_POSTGRES_DIR"' EXIT

echo "== type check"
npx tsc --noEmit

echo "== lint and format"
npx eslint .
npx prettier --check . --log-level warn

echo "== unit tests"
npx vitest run

echo "== production build"
NEXT_TELEMETRY_DISABLED=1 npx next build

echo "== browser and API specs"
npx playwright test
