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

# Debian's Tesseract with traditional Chinese, which the OCR engine merges with PP-OCRv4
# (without it the engine runs PP-OCRv4 alone and /api/health says so; the tests pass either way).
if ! tesseract --list-langs 2>/dev/null | grep -qx chi_tra; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "Installing Tesseract (chi_tra) from Debian"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tesseract-ocr tesseract-ocr-chi-tra >/dev/null ||
      echo "Tesseract could not be installed: OCR runs PP-OCRv4 alone." >&2
  else
    echo "Tesseract chi_tra is missing (apt-get install tesseract-ocr tesseract-ocr-chi-tra): OCR runs PP-OCRv4 alone." >&2
  fi
fi

npm ci --no-audit --no-fund
npm test
