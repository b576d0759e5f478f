#!/bin/sh
# Oracle: which instruction files OpenCode 1.18.33 (npm opencode-ai) loads for CWD with HOME,
# the exact text of its instruction blocks, and the skills it lists.
# usage: run.sh CWD HOME   -> one JSON object on stdout (see extract.py)
# Offline: a new network namespace (loopback only) and mount namespace, HOME overlay-mounted so
# the fixture home is never written; `opencode run --pure` against an OpenAI-compatible provider
# whose endpoint is the loopback recorder, given in a config file outside the tree and the home
# (OPENCODE_CONFIG), so it shadows no opencode.json of the case. Requires root.
# A fork run the same way (Kilo Code CLI: `../kilo-cli/run.sh`) sets ORACLE_BIN to its binary
# and ORACLE_CONFIG_VAR to the variable that names that config file.
set -eu
[ $# -eq 2 ] || { echo "usage: $0 CWD HOME" >&2; exit 2; }
HERE=$(cd "$(dirname "$0")" && pwd)
CWD=$(cd "$1" && pwd -P)
H=$(cd "$2" && pwd -P)
BIN=${ORACLE_BIN:-${ORACLE_CACHE:?ORACLE_CACHE is the folder cargo xtask oracle installs the tools into}/opencode/node_modules/opencode-ai/bin/opencode.exe}
[ -x "$BIN" ] || BIN=$(dirname "$BIN")/opencode
CONFIG_VAR=${ORACLE_CONFIG_VAR:-OPENCODE_CONFIG}
PY=/usr/bin/python3
O=$(mktemp -d /tmp/oracle-opencode-run.XXXXXX)
if [ "${ORACLE_KEEP:-}" = 1 ]; then echo "oracle: scratch $O" >&2; else trap 'rm -rf "$O"' EXIT; fi
mkdir -p "$O/up" "$O/wk" "$O/tmp"
# OpenCode asks git itself where the repository is (`git rev-parse`):
# each `.git` marker of the case becomes a real repository.
. "$HERE/../common/repositories.sh"
real_repositories "$CWD" "$O"
export O CWD H BIN PY HERE CONFIG_VAR
timeout 150 unshare -n -m sh -c '
  set -e
  ip link set lo up
  mount -t overlay overlay -o "lowerdir=$H,upperdir=$O/up,workdir=$O/wk" "$H"
  "$PY" "$HERE/../claude/recorder.py" "$O/req.jsonl" "$O/port" &
  RP=$!
  i=0; while [ ! -s "$O/port" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done
  PORT=$(cat "$O/port")
  printf "%s" "{\"provider\":{\"oracle\":{\"npm\":\"@ai-sdk/openai-compatible\",\"name\":\"oracle\",\"options\":{\"baseURL\":\"http://127.0.0.1:$PORT/v1\",\"apiKey\":\"oracle-dummy-not-a-key\"},\"models\":{\"m\":{\"name\":\"m\"}}}},\"model\":\"oracle/m\",\"small_model\":\"oracle/m\",\"autoupdate\":false,\"share\":\"disabled\"}" > "$O/provider.json"
  set +e
  cd "$CWD"
  env -i HOME="$H" PATH=/usr/bin:/bin TMPDIR="$O/tmp" TERM=dumb LANG=C.UTF-8 NO_COLOR=1 \
      "$CONFIG_VAR=$O/provider.json" \
      timeout 120 "$BIN" run --pure "say hello please" </dev/null >"$O/out" 2>"$O/err"
  echo $? > "$O/rc"
  kill $RP 2>/dev/null
  wait $RP 2>/dev/null
  exit 0
' || { echo "oracle: sandbox failed" >&2; exit 1; }
"$PY" "$HERE/extract.py" "$O"
