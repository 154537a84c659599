#!/usr/bin/env bash
# Smoke check of `npm start` (not part of `npm test`): starts the test upstream stand-in, runs
# `npm start` with both base URLs pointed at it, curls /healthz and a proxied Claude Code path,
# then stops both (only the process groups this script started). Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
cat > "$tmp/standin.mts" <<TS
import { startUpstream } from "$PWD/test/support/upstream-server.ts";
const u = await startUpstream();
console.log(u.url);
setInterval(() => {}, 1 << 30);
TS
setsid npx tsx "$tmp/standin.mts" > "$tmp/standin.out" 2>&1 & standin=$!
gateway=""
cleanup() {
  [ -n "$gateway" ] && kill -- "-$gateway" 2>/dev/null || true
  kill -- "-$standin" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT
for _ in $(seq 1 30); do [ -s "$tmp/standin.out" ] && break; sleep 0.5; done
up=$(head -1 "$tmp/standin.out")
setsid env WRANGLER_SEND_METRICS=false npm start -- --var "ANTHROPIC_BASE_URL:$up/anthropic-upstream" --var "OPENAI_BASE_URL:$up/openai-upstream" > "$tmp/start.out" 2>&1 & gateway=$!
for _ in $(seq 1 60); do curl -sf -o /dev/null http://127.0.0.1:8787/healthz && break; sleep 1; done
echo "GET /healthz:"; curl -sf -i http://127.0.0.1:8787/healthz; echo
echo "POST /anthropic/v1/messages/count_tokens:"
curl -sf -i -X POST 'http://127.0.0.1:8787/anthropic/v1/messages/count_tokens?beta=true' \
  -H 'content-type: application/json' -H 'anthropic-version: 2023-06-01' -H 'anthropic-beta: x' \
  -H 'x-test-id: smoke' -d '{"model":"m","messages":[]}'; echo
echo "upstream received:"; curl -sf "$up/__received/smoke"; echo
curl -sf "$up/__received/smoke" | grep -q '"anthropic-beta":"x"'
echo "smoke OK"
