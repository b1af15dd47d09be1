#!/usr/bin/env bash
# Makes (once) the Python virtual environment the tests run real Python clients from:
# google-genai (and langchain-google-genai when it installs) from the machine's package index
# (see `pip config list`). Idempotent: what already imports is kept as it is.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${GENSTUDIO_PYTHON_VENV:-.cache/python-venv}"

if ! "$VENV/bin/python" -c "import google.genai" >/dev/null 2>&1; then
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
fi

# pytest for the README's example of testing a client against the emulator (e2e/emulator-examples).
if ! "$VENV/bin/python" -c "import pytest" >/dev/null 2>&1; then
  "$VENV/bin/pip" install --quiet --disable-pip-version-check --retries 0 "pytest>=7"
fi

# langchain-google-genai for the client suite (e2e/clients), best effort: this machine's index
# lacks one of its dependencies (langchain-protocol, needed by the only langchain-core there),
# so the install may fail; the suite then skips its cases and shows pip's reason, kept here.
if ! "$VENV/bin/python" -c "import langchain_google_genai" >/dev/null 2>&1; then
  if "$VENV/bin/pip" install --quiet --disable-pip-version-check --retries 0 \
    "langchain-google-genai>=4" >"$VENV/langchain-install.log" 2>&1; then
    rm -f "$VENV/langchain-install.log"
  else
    echo "== langchain-google-genai could not be installed (its client cases will be skipped):"
    grep -m 2 "^ERROR" "$VENV/langchain-install.log" || true
  fi
fi
