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

# Debian packages the tests run: installed with apt-get when missing (as root), otherwise named.
need() { # need <what it is for> <check command> <package...>
  local why=$1 check=$2
  shift 2
  if ! eval "$check" >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
      echo "Installing $* from Debian ($why)"
      apt-get update -qq
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
    else
      echo "Missing for $why: install Debian's $* (sudo apt-get install $*)." >&2
      exit 1
    fi
  fi
}
PYTHON=/usr/bin/python3
# Chromium for the browser tests (Playwright cannot download browsers here).
need 'the browser tests' '[ -x /usr/bin/chromium ]' chromium
# An independent OAI-PMH client (HTTP::OAI's oai_pmh) harvests /oai in the tests.
need 'the OAI-PMH harvest tests' 'command -v oai_pmh' libhttp-oai-perl
# Outside judges of the MARC and citation exports (issue 31): xmllint with the published schemas, Index
# Data's yaz-marcdump, MARC::Lint's marclint, and bibutils (ris2xml, bib2xml).
need 'the MARC and citation tests' \
  'command -v xmllint && command -v yaz-marcdump && command -v marclint && command -v ris2xml' \
  libxml2-utils yaz libmarc-lint-perl bibutils
# The OCR recogniser's training code (training/, issue 29) is tested on the CPU with Debian's PyTorch.
need 'the training tests' "$PYTHON -c 'import torch, numpy, onnx, PIL'" \
  python3-torch python3-numpy python3-onnx python3-pil

npm ci --no-audit --no-fund

# The same checks as `npm test`, in lanes, each lane's time printed (docs/architecture.md, "Tests"):
# 1. static: lint, format, types and the training code's tests, side by side (each is mostly one core);
# 2. unit, repository (SQLite and PostgreSQL) and HTTP tests (Vitest, both cores);
# 3. the production build and the browser tests (Playwright, Chromium).
lane() { # lane <name> <name command>...: runs the commands side by side; shows a failing one's output
  local lane_name=$1 start=$SECONDS failed=0 i
  shift
  local names=() pids=() logs=()
  while [ $# -gt 0 ]; do
    names+=("$1")
    logs+=("$(mktemp)")
    bash -c "$2" >"${logs[-1]}" 2>&1 &
    pids+=($!)
    shift 2
  done
  for i in "${!pids[@]}"; do
    if wait "${pids[$i]}"; then
      echo "  ok   ${names[$i]}"
    else
      echo "  FAIL ${names[$i]}:"
      cat "${logs[$i]}"
      failed=1
    fi
    rm -f "${logs[$i]}"
  done
  echo "lane ${lane_name}: $((SECONDS - start)) s"
  return $failed
}
lane static \
  lint 'npm run lint' \
  format 'npm run format:check' \
  types 'npm run typecheck' \
  training "$PYTHON -m unittest discover -s training -p 'test_*.py'"
start=$SECONDS
npm run test:unit
echo "lane unit: $((SECONDS - start)) s"
start=$SECONDS
# The browser tests drive a build that checks every API answer against its contract (api/client.ts).
VITE_CHECK_CONTRACTS=1 npm run build
npm run test:e2e
echo "lane browser: $((SECONDS - start)) s"
