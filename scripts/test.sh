#!/usr/bin/env bash
# The README's test command: installs what the tests need, then runs every test
# (lint, format, type-check, unit, repository tests on SQLite and PostgreSQL, HTTP tests,
# build, and the browser tests in Chromium).
set -euo pipefail
cd "$(dirname "$0")/.."

major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$major" -lt 22 ]; then
  echo "Node 22 or newer is needed (found $(node --version))." >&2
  exit 1
fi

# Debian's Chromium for the browser tests (Playwright cannot download browsers here).
if [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "Installing Chromium from Debian"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "Chromium is missing: install Debian's chromium package (sudo apt-get install chromium)." >&2
    exit 1
  fi
fi

# An independent OAI-PMH client (HTTP::OAI's oai_pmh) harvests /oai in the tests.
if ! command -v oai_pmh >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "Installing libhttp-oai-perl from Debian"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libhttp-oai-perl >/dev/null
  else
    echo "oai_pmh is missing: install Debian's libhttp-oai-perl package (sudo apt-get install libhttp-oai-perl)." >&2
    exit 1
  fi
fi

# The OCR recogniser's training code (training/, issue 29) is tested on the CPU with Debian's PyTorch.
PYTHON=/usr/bin/python3
if ! "$PYTHON" -c 'import torch, numpy, onnx, PIL' 2>/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "Installing Debian's PyTorch, NumPy, onnx and Pillow for the training tests"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-torch python3-numpy python3-onnx python3-pil >/dev/null
  else
    echo "PyTorch is missing: install Debian's python3-torch python3-numpy python3-onnx python3-pil." >&2
    exit 1
  fi
fi

npm ci --no-audit --no-fund
"$PYTHON" -m unittest discover -s training -p 'test_*.py'
npm test
