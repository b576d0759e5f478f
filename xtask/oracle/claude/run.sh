#!/bin/sh
# Oracle: which memory files Claude Code 2.1.332 loads for CWD with HOME, and the exact text.
# usage: run.sh CWD HOME   -> one JSON object on stdout
# Runs fully offline (new net namespace, loopback only), HOME is overlay-mounted so the
# fixture home is never modified. Requires root (unshare -n -m, mount).
set -eu
[ $# -eq 2 ] || { echo "usage: $0 CWD HOME" >&2; exit 2; }
HERE=$(cd "$(dirname "$0")" && pwd)
CWD=$(cd "$1" && pwd -P)
H=$(cd "$2" && pwd -P)
BIN=${CLAUDE_ORACLE_BIN:-${ORACLE_CACHE:?ORACLE_CACHE is the folder cargo xtask oracle installs the tools into}/claude/node_modules/@anthropic-ai/claude-code-linux-x64/claude}
PY=/usr/bin/python3
O=$(mktemp -d /tmp/oracle-claude-run.XXXXXX)
# CLAUDE_ORACLE_KEEP=1 keeps the scratch dir (recorded requests, hook log) and prints its path on stderr
if [ "${CLAUDE_ORACLE_KEEP:-}" = 1 ]; then echo "oracle: scratch $O" >&2; else trap 'rm -rf "$O"' EXIT; fi
mkdir -p "$O/up" "$O/wk" "$O/tmp"
# hook: append each InstructionsLoaded payload (one JSON per line)
$PY -c 'import json,sys; o=sys.argv[1]; print(json.dumps({"hooks":{"InstructionsLoaded":[{"hooks":[{"type":"command","command":"cat >> %s/hook.jsonl; echo >> %s/hook.jsonl" % (o,o)}]}]}}))' "$O" > "$O/settings.json"

export O CWD H BIN PY HERE
timeout 150 unshare -n -m sh -c '
  set -e
  ip link set lo up
  mount -t overlay overlay -o "lowerdir=$H,upperdir=$O/up,workdir=$O/wk" "$H"
  "$PY" "$HERE/recorder.py" "$O/req.jsonl" "$O/port" &
  RP=$!
  i=0; while [ ! -s "$O/port" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done
  PORT=$(cat "$O/port")
  set +e
  cd "$CWD"
  env -i HOME="$H" PATH=/usr/bin:/bin TMPDIR="$O/tmp" TERM=dumb \
      ANTHROPIC_API_KEY=sk-ant-fake ANTHROPIC_BASE_URL="http://127.0.0.1:$PORT" \
      timeout 120 "$BIN" -p hi --settings "$O/settings.json" </dev/null >"$O/out" 2>"$O/err"
  echo $? > "$O/rc"
  kill $RP 2>/dev/null
  wait $RP 2>/dev/null
  exit 0
' || { echo "oracle: sandbox failed" >&2; exit 1; }
"$PY" "$HERE/extract.py" "$O"
