#!/usr/bin/env bash
# A production-shaped stack on this one machine (issue 17, part 3; docs/deployment.md, "Topology"):
# Debian's nginx in front (TLS with a self-signed certificate, gzip and brotli, cached hashed assets) of two
# `serve` processes, one `worker`, a PostgreSQL server from Debian and an S3-protocol server (s3rver). It
# loads the demo library, runs a smoke check through nginx over HTTPS, then the load test (bench/load.ts),
# and tears everything down on exit, whatever happened. Run from the repository after `npm ci`:
#
#   bash scripts/prod-like.sh              # smoke check and load test (about 4 minutes)
#   PROD_LIKE_LOAD=0 bash scripts/prod-like.sh   # smoke check only (about 1 minute)
#   PROD_LIKE_KEEP=1 …                     # keep the temporary folder (logs, configuration)
#
# Ports (change with the variables of the same name): HTTPS 8443, serve 3101 and 3102, PostgreSQL 55432,
# S3 4578, all on 127.0.0.1. Everything it writes is under one temporary folder; it stops only the
# processes it started. As root it installs nginx (and Debian's brotli modules) with apt-get when missing,
# and runs PostgreSQL as the postgres user.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
HTTPS_PORT="${HTTPS_PORT:-8443}"
SERVE_PORT_1="${SERVE_PORT_1:-3101}"
SERVE_PORT_2="${SERVE_PORT_2:-3102}"
PG_PORT="${PG_PORT:-55432}"
S3_PORT="${S3_PORT:-4578}"
ORIGIN="https://127.0.0.1:${HTTPS_PORT}"
STARTED_AT=$(date +%s)

say() { printf '[prod-like %3ss] %s\n' "$(($(date +%s) - STARTED_AT))" "$*"; }
fail() {
  say "FAILED: $*"
  exit 1
}

# --- prerequisites ---------------------------------------------------------------------------------------
command -v node >/dev/null || fail "node is not on PATH (Node 22 or newer)"
command -v openssl >/dev/null || fail "openssl is missing"
command -v curl >/dev/null || fail "curl is missing"
PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
[ -x "${PG_BIN}/initdb" ] || fail "no PostgreSQL server under /usr/lib/postgresql (apt-get install postgresql)"
[ -x node_modules/.bin/s3rver ] || fail "node_modules/.bin/s3rver missing: run npm ci first"

apt_install() {
  [ "$(id -u)" = 0 ] || fail "$* missing and not root: install with apt-get install $*"
  # Keep the packages' own services from starting (Debian starts nginx on port 80 after installing it).
  local policy=""
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    policy=/usr/sbin/policy-rc.d
    printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod 755 "$policy"
  fi
  local status=0
  { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@"; } >/dev/null || status=$?
  if [ -n "$policy" ]; then rm -f "$policy"; fi
  return $status
}
if ! command -v nginx >/dev/null && [ ! -x /usr/sbin/nginx ]; then
  say "installing nginx…"
  apt_install nginx-light
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
BROTLI_DIR=/usr/lib/nginx/modules
if [ ! -e "$BROTLI_DIR/ngx_http_brotli_static_module.so" ] && [ "$(id -u)" = 0 ]; then
  apt_install libnginx-mod-http-brotli-static libnginx-mod-http-brotli-filter || say "no brotli modules: gzip only"
fi
[ -f apps/web/dist/index.html ] || {
  say "building the web app…"
  npm run build >/dev/null
}

for port in "$HTTPS_PORT" "$SERVE_PORT_1" "$SERVE_PORT_2" "$PG_PORT" "$S3_PORT"; do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then fail "port $port is in use (set the port variables)"; fi
done

# --- teardown: only what this script started ------------------------------------------------------------
WORK=$(mktemp -d /tmp/guji-prod-like.XXXXXX)
chmod 755 "$WORK"
PIDS=()
PG_DATA="$WORK/pg/data"
as_postgres() {
  # From / : the postgres user may not enter the folder the script was started in.
  if [ "$(id -u)" = 0 ]; then (cd / && runuser -u postgres -- "$@"); else "$@"; fi
}
cleanup() {
  local status=$?
  trap - EXIT INT TERM
  say "stopping…"
  for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do kill -TERM "${PIDS[$i]}" 2>/dev/null || true; done
  for _ in $(seq 1 40); do
    local alive=0
    for pid in "${PIDS[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    [ $alive = 0 ] && break
    sleep 0.25
  done
  for pid in "${PIDS[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
  if [ -f "$PG_DATA/postmaster.pid" ]; then as_postgres "$PG_BIN/pg_ctl" stop -D "$PG_DATA" -m fast -w >/dev/null 2>&1 || true; fi
  if [ "${PROD_LIKE_KEEP:-0}" = 1 ]; then say "kept $WORK"; else rm -rf "$WORK"; fi
  say "$([ $status = 0 ] && echo done || echo "exit status $status") in $(($(date +%s) - STARTED_AT)) s"
  exit $status
}
trap cleanup EXIT
trap 'exit 130' INT TERM
mkdir -p "$WORK/pg" "$WORK/s3" "$WORK/data" "$WORK/nginx/tmp" "$WORK/logs"

# --- TLS certificate -------------------------------------------------------------------------------------
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=127.0.0.1" \
  -addext "subjectAltName=IP:127.0.0.1,DNS:localhost" \
  -keyout "$WORK/nginx/key.pem" -out "$WORK/nginx/cert.pem" 2>/dev/null
chmod 600 "$WORK/nginx/key.pem"

# --- PostgreSQL ------------------------------------------------------------------------------------------
say "PostgreSQL ($PG_BIN) on port $PG_PORT…"
[ "$(id -u)" = 0 ] && chown postgres "$WORK/pg"
as_postgres "$PG_BIN/initdb" -D "$PG_DATA" -U postgres -A trust --locale=C.UTF-8 --encoding=UTF8 >"$WORK/logs/initdb.log"
as_postgres "$PG_BIN/pg_ctl" start -w -D "$PG_DATA" -l "$WORK/pg/postgres.log" \
  -o "-p $PG_PORT -k $WORK/pg -c listen_addresses=127.0.0.1 -c max_connections=200 -c shared_buffers=256MB" >/dev/null
PG_PID=$(head -1 "$PG_DATA/postmaster.pid")
psql_admin() { as_postgres "$PG_BIN/psql" -h 127.0.0.1 -p "$PG_PORT" -U postgres -v ON_ERROR_STOP=1 -qAt "$@"; }
psql_admin -d postgres -c "create role guji login password 'guji-prod-like'" \
  -c "create database guji owner guji encoding 'UTF8' lc_collate 'C.UTF-8' lc_ctype 'C.UTF-8' template template0"
psql_admin -d guji -c "create extension if not exists pg_trgm"
DATABASE_URL="postgres://guji:guji-prod-like@127.0.0.1:${PG_PORT}/guji"

# --- S3-protocol server ----------------------------------------------------------------------------------
say "s3rver on port $S3_PORT…"
node_modules/.bin/s3rver -d "$WORK/s3" -a 127.0.0.1 -p "$S3_PORT" -s --configure-bucket guji >"$WORK/logs/s3rver.log" 2>&1 &
S3_PID=$!
PIDS+=("$S3_PID")

# --- the library's processes -----------------------------------------------------------------------------
SESSION_SECRET=$(openssl rand -hex 32)
export NODE_ENV=production DEMO_LIBRARY=false DATABASE_URL SESSION_SECRET LOG_LEVEL=warn \
  STORAGE_URL=s3://guji/library AWS_ENDPOINT_URL="http://127.0.0.1:${S3_PORT}" AWS_REGION=us-east-1 \
  AWS_ACCESS_KEY_ID=S3RVER AWS_SECRET_ACCESS_KEY=S3RVER S3_FORCE_PATH_STYLE=true \
  TRUST_PROXY=127.0.0.1 COOKIE_SECURE=true PUBLIC_ORIGIN="$ORIGIN" \
  AUTH_RATE_LIMIT_PER_MINUTE=100000 IIIF_RENDER_RATE_LIMIT_PER_MINUTE=100000
# The load test's readers all come from 127.0.0.1: the per-address limits above are raised for it.
MAIN=(node --import tsx apps/server/src/main.ts)
for _ in $(seq 1 50); do (exec 3<>"/dev/tcp/127.0.0.1/$S3_PORT") 2>/dev/null && break; sleep 0.2; done
say "the demo library into PostgreSQL and the object store (typesetting, pyramids, OCR of the scanned leaves)…"
DATA_DIR="$WORK/data/cli" "${MAIN[@]}" migrate >"$WORK/logs/cli.log" 2>&1
DATA_DIR="$WORK/data/cli" "${MAIN[@]}" demo-accounts >>"$WORK/logs/cli.log" 2>&1
DATA_DIR="$WORK/data/cli" "${MAIN[@]}" demo >>"$WORK/logs/cli.log" 2>&1 || {
  tail -20 "$WORK/logs/cli.log"
  fail "demo import"
}
say "$(grep -h "^演示书库" "$WORK/logs/cli.log" | tail -1)"

SERVE_PIDS=()
for port in "$SERVE_PORT_1" "$SERVE_PORT_2"; do
  DATA_DIR="$WORK/data/serve-$port" PORT="$port" HOST=127.0.0.1 JOBS_IN_PROCESS=false \
    "${MAIN[@]}" serve >"$WORK/logs/serve-$port.log" 2>&1 &
  SERVE_PIDS+=($!)
  PIDS+=($!)
done
DATA_DIR="$WORK/data/worker" "${MAIN[@]}" worker >"$WORK/logs/worker.log" 2>&1 &
WORKER_PID=$!
PIDS+=("$WORKER_PID")

# --- nginx, from the repository's configuration ----------------------------------------------------------
BROTLI_MODULES="" BROTLI_ON="" BROTLI_STATIC=""
if [ -e "$BROTLI_DIR/ngx_http_brotli_static_module.so" ] && [ -e "$BROTLI_DIR/ngx_http_brotli_filter_module.so" ]; then
  BROTLI_MODULES="load_module $BROTLI_DIR/ngx_http_brotli_filter_module.so; load_module $BROTLI_DIR/ngx_http_brotli_static_module.so;"
  BROTLI_ON="brotli on; brotli_comp_level 5; brotli_types application/json application/ld+json application/javascript text/css text/plain image/svg+xml application/xml;"
  BROTLI_STATIC="brotli_static on;"
fi
NGINX_USER=""
if [ "$(id -u)" = 0 ]; then
  NGINX_USER="user www-data;"
  chown -R www-data "$WORK/nginx/tmp"
fi
# nginx's workers read the build's files: a copy they may read wherever the repository lies (e.g. /root).
cp -r apps/web/dist "$WORK/web"
chmod -R a+rX "$WORK/web"
sed -e "s|@BROTLI_MODULES@|$BROTLI_MODULES|" -e "s|@BROTLI_ON@|$BROTLI_ON|" -e "s|@BROTLI_STATIC@|$BROTLI_STATIC|" \
  -e "s|@USER@|$NGINX_USER|" -e "s|@PID_FILE@|$WORK/nginx/nginx.pid|" \
  -e "s|@LOG_DIR@|$WORK/nginx|g" -e "s|@TEMP_DIR@|$WORK/nginx/tmp|g" -e "s|@LISTEN@|127.0.0.1|" \
  -e "s|@HTTPS_PORT@|$HTTPS_PORT|" -e "s|@SERVER_NAME@|127.0.0.1 localhost|" \
  -e "s|@SERVE_PORT_1@|$SERVE_PORT_1|" -e "s|@SERVE_PORT_2@|$SERVE_PORT_2|" \
  -e "s|@CERT@|$WORK/nginx/cert.pem|" -e "s|@CERT_KEY@|$WORK/nginx/key.pem|" \
  -e "s|@WEB_DIST@|$WORK/web|" deploy/nginx.conf.template >"$WORK/nginx/nginx.conf"
"$NGINX" -t -q -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" || fail "nginx configuration"
"$NGINX" -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" -g 'daemon off;' >"$WORK/logs/nginx.log" 2>&1 &
NGINX_PID=$!
PIDS+=("$NGINX_PID")

say "waiting for both web processes to be ready…"
for port in "$SERVE_PORT_1" "$SERVE_PORT_2"; do
  for i in $(seq 1 300); do
    curl -fs "http://127.0.0.1:$port/api/health/ready" >/dev/null && break
    [ "$i" = 300 ] && {
      tail -20 "$WORK/logs/serve-$port.log"
      fail "serve on $port not ready"
    }
    sleep 0.5
  done
done
bash "$ROOT/scripts/prod-like-smoke.sh" "$ORIGIN" "$DATABASE_URL" "$SESSION_SECRET" "$WORK" "$BROTLI_STATIC"

if [ "${PROD_LIKE_LOAD:-1}" != 0 ]; then
  say "load test through nginx (bench/load.ts)…"
  BENCH_LOAD_URL="$ORIGIN" BENCH_LOAD_DATABASE_URL="$DATABASE_URL" BENCH_LOAD_SECRET="$SESSION_SECRET" \
    BENCH_LOAD_PIDS="nginx:$NGINX_PID,serve :${SERVE_PORT_1}:${SERVE_PIDS[0]},serve :${SERVE_PORT_2}:${SERVE_PIDS[1]},worker:$WORKER_PID,PostgreSQL:$PG_PID,s3rver:$S3_PID" \
    node --import tsx bench/load.ts
fi
for pid in "${PIDS[@]}"; do kill -0 "$pid" 2>/dev/null || fail "process $pid exited during the run (logs: PROD_LIKE_KEEP=1)"; done
say "green"
