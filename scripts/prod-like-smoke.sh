#!/usr/bin/env bash
# The smoke check of scripts/prod-like.sh, through nginx over HTTPS: the probes, the home page and a hashed
# asset (compressed, cached for good), a catalogue search, a reader's login (captcha answered through the
# database), a volume's manifest and a tile of its first page.
#   prod-like-smoke.sh ORIGIN DATABASE_URL SESSION_SECRET WORK_DIR [BROTLI]
set -euo pipefail

ORIGIN="$1"
DATABASE_URL="$2"
SECRET="$3"
WORK="$4"
BROTLI="${5:-}"
PSQL=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)/psql
OUT="$WORK/smoke"
mkdir -p "$OUT"
CHECKS=0

ok() {
  CHECKS=$((CHECKS + 1))
  printf '  ✓ %s\n' "$*"
}
fail() {
  printf '  ✗ %s\n' "$*"
  exit 1
}
# GET (or POST with -d) through nginx; headers to $OUT/h, body to $OUT/b; prints the status.
fetch() {
  curl -sS -k --max-time 30 -D "$OUT/h" -o "$OUT/b" -w '%{http_code}' "$@"
}
header() { grep -i "^$1:" "$OUT/h" | tail -1 | cut -d' ' -f2- | tr -d '\r'; }
# An address as the API gives it (a path, or absolute with PUBLIC_ORIGIN), made absolute.
absolute() { case "$1" in /*) echo "$ORIGIN$1" ;; *) echo "$1" ;; esac; }
# A field of the JSON body, by a JavaScript expression over `j`.
field() { node -e "const j = JSON.parse(require('fs').readFileSync('$OUT/b', 'utf8')); console.log($1 ?? '')"; }

echo "smoke check through nginx at $ORIGIN:"
[ "$(fetch "$ORIGIN/api/health/live")" = 200 ] || fail "live probe"
ok "GET /api/health/live 200"
[ "$(fetch "$ORIGIN/api/health/ready")" = 200 ] || fail "ready probe: $(cat "$OUT/b")"
ok "GET /api/health/ready 200 (database and object store answer)"

[ "$(fetch -H 'accept-encoding: gzip, br' "$ORIGIN/")" = 200 ] || fail "home page"
ok "GET / 200 ($(header content-type), $(header content-encoding), cache-control $(header cache-control))"
ASSET=$(curl -sS -k "$ORIGIN/" | grep -o '/assets/[^"]*\.js' | head -1)
[ -n "$ASSET" ] || fail "no script in index.html"
want=gzip
[ -n "$BROTLI" ] && want=br
[ "$(fetch -H 'accept-encoding: gzip, deflate, br' "$ORIGIN$ASSET")" = 200 ] || fail "asset $ASSET"
[ "$(header content-encoding)" = "$want" ] || fail "$ASSET sent with content-encoding '$(header content-encoding)', wanted $want"
header cache-control | grep -q immutable || fail "$ASSET without immutable caching: $(header cache-control)"
ok "GET $ASSET 200: $want from the build's copy, $(stat -c %s "$OUT/b") bytes, cache-control $(header cache-control)"
[ "$(fetch -H 'accept-encoding: gzip' "$ORIGIN$ASSET")" = 200 ] && [ "$(header content-encoding)" = gzip ] ||
  fail "$ASSET not sent gzip to a client without brotli"
ok "the same asset as gzip to a client without brotli"

[ "$(fetch -G --data-urlencode 'title=論語' "$ORIGIN/api/books")" = 200 ] || fail "catalogue search"
BOOK=$(field 'j.records[0]?.catalogId')
[ -n "$BOOK" ] || fail "catalogue search found nothing: $(head -c 300 "$OUT/b")"
ok "catalogue search 論語: $(field 'j.total') book(s), catalogId $BOOK"

CAPTCHA=$(node -e "console.log(require('crypto').randomUUID())")
HASH=$(printf 'captcha:%s:smoke' "$CAPTCHA" | openssl dgst -sha256 -hmac "$SECRET" -r | cut -d' ' -f1)
"$PSQL" "$DATABASE_URL" -qAt -v ON_ERROR_STOP=1 -c "insert into captchas (id, answer_hash, created_at, expires_at)
  values ('$CAPTCHA', '$HASH', to_char(now() at time zone 'utc', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'),
          to_char(now() at time zone 'utc' + interval '5 minutes', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'))"
status=$(fetch -H 'content-type: application/json' -H "origin: $ORIGIN" \
  -d "{\"loginName\":\"reader\",\"password\":\"Shuyuan#2026\",\"captchaId\":\"$CAPTCHA\",\"captchaCode\":\"smoke\"}" \
  "$ORIGIN/api/auth/login")
[ "$status" = 200 ] || fail "login: $status $(cat "$OUT/b")"
COOKIE_LINE=$(grep -i '^set-cookie: guji_session=' "$OUT/h" | tr -d '\r' || true)
echo "$COOKIE_LINE" | grep -q Secure || fail "session cookie not Secure behind TLS: $COOKIE_LINE"
COOKIE=$(echo "$COOKIE_LINE" | grep -o 'guji_session=[^;]*')
[ "$(fetch -H "cookie: $COOKIE" "$ORIGIN/api/session")" = 200 ] || fail "session"
grep -q '"reader"' "$OUT/b" || fail "session does not name the reader: $(head -c 300 "$OUT/b")"
ok "login as reader (captcha through the database): Secure session cookie, /api/session names the reader"

[ "$(fetch -H "cookie: $COOKIE" "$ORIGIN/api/books/$BOOK")" = 200 ] || fail "book $BOOK"
MANIFEST=$(absolute "$(field 'j.iiifManifestUrl')")
[ "$(fetch -H "cookie: $COOKIE" "$MANIFEST")" = 200 ] || fail "manifest $MANIFEST"
if [ "$(field 'j.type')" = Collection ]; then
  MANIFEST=$(absolute "$(field 'j.items[0].id')")
  [ "$(fetch -H "cookie: $COOKIE" "$MANIFEST")" = 200 ] || fail "manifest $MANIFEST"
fi
[ "$(field 'j.type')" = Manifest ] || fail "not a manifest: $(head -c 300 "$OUT/b")"
SERVICE=$(absolute "$(field '(j.items[0].items[0].items[0].body.service ?? [])[0]?.id')")
ok "IIIF manifest $MANIFEST: $(field 'j.items.length') canvases"

[ "$(fetch -H "cookie: $COOKIE" "$SERVICE/info.json")" = 200 ] || fail "info.json of $SERVICE"
TILE="$SERVICE/0,0,512,512/512,512/0/default.jpg"
[ "$(fetch -H "cookie: $COOKIE" "$TILE")" = 200 ] || fail "tile $TILE: $(head -c 200 "$OUT/b")"
[ "$(header content-type)" = image/jpeg ] || fail "tile is $(header content-type)"
ok "tile $TILE: $(stat -c %s "$OUT/b") bytes of JPEG from the pyramid in the object store ($(header x-image-source))"
echo "smoke check: $CHECKS checks passed"
