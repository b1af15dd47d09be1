#!/usr/bin/env bash
# Makes (once) the Python virtual environment the tests run real Python clients from:
# google-genai from the machine's package index (see `pip config list`). Idempotent: a venv
# that already imports google.genai is kept as it is.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${GENSTUDIO_PYTHON_VENV:-.cache/python-venv}"

if "$VENV/bin/python" -c "import google.genai" >/dev/null 2>&1; then
  exit 0
fi
echo "== making the Python venv for client tests ($VENV)"
if ! python3 -m venv "$VENV" >/dev/null 2>&1; then
  rm -rf "$VENV"
  if [ "$(id -u)" = "0" ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
  else
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
  fi
  python3 -m venv "$VENV"
fi
"$VENV/bin/pip" install --quiet --disable-pip-version-check --retries 0 "google-genai>=1.30,<4"
"$VENV/bin/python" -c "import google.genai; print('google-genai', google.genai.__version__)"
