#!/bin/sh
# Oracle: which instruction files GitHub Copilot CLI 1.0.102 (npm @github/copilot) loads for
# CWD with HOME, the exact text of its instructions and the skills it lists.
# usage: run.sh CWD HOME   -> one JSON object on stdout (see extract.py)
# Offline: a new network namespace (loopback only) and mount namespace, HOME overlay-mounted so
# the fixture home is never written; `copilot -p` in the tool's documented offline mode
# (COPILOT_OFFLINE, a provider whose base URL is the loopback recorder, a dummy key). The
# binary unpacks itself once into the oracle cache (COPILOT_CACHE_HOME), outside the home.
# Requires root.
set -eu
[ $# -eq 2 ] || { echo "usage: $0 CWD HOME" >&2; exit 2; }
HERE=$(cd "$(dirname "$0")" && pwd)
CWD=$(cd "$1" && pwd -P)
H=$(cd "$2" && pwd -P)
CACHE=$(cd "${ORACLE_CACHE:?ORACLE_CACHE is the folder cargo xtask oracle installs the tools into}" && pwd -P)/copilot-cli
BIN=$CACHE/node_modules/@github/copilot-linux-x64/copilot
[ -x "$BIN" ] || { echo "oracle: no $BIN" >&2; exit 2; }
PY=/usr/bin/python3
O=$(mktemp -d /tmp/oracle-copilot-run.XXXXXX)
if [ "${ORACLE_KEEP:-}" = 1 ]; then echo "oracle: scratch $O" >&2; else trap 'rm -rf "$O"' EXIT; fi
mkdir -p "$O/up" "$O/wk" "$O/tmp" "$CACHE/unpacked"
# Copilot CLI asks git where the repository is (`git rev-parse --show-toplevel`):
# each `.git` marker of the case becomes a real repository.
. "$HERE/../common/repositories.sh"
real_repositories "$CWD" "$O"
export O CWD H BIN PY HERE CACHE
timeout 150 unshare -n -m sh -c '
  set -e
  ip link set lo up
  mount -t overlay overlay -o "lowerdir=$H,upperdir=$O/up,workdir=$O/wk" "$H"
  "$PY" "$HERE/../claude/recorder.py" "$O/req.jsonl" "$O/port" &
  RP=$!
  i=0; while [ ! -s "$O/port" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done
  PORT=$(cat "$O/port")
  set +e
  cd "$CWD"
  env -i HOME="$H" PATH=/usr/bin:/bin TMPDIR="$O/tmp" TERM=dumb LANG=C.UTF-8 NO_COLOR=1 \
      COPILOT_OFFLINE=true COPILOT_AUTO_UPDATE=false COPILOT_CACHE_HOME="$CACHE/unpacked" \
      COPILOT_PROVIDER_BASE_URL="http://127.0.0.1:$PORT/v1" \
      COPILOT_PROVIDER_API_KEY=oracle-dummy-not-a-key COPILOT_MODEL=oracle-model \
      timeout 120 "$BIN" -p "say hello please" --trust-folder </dev/null >"$O/out" 2>"$O/err"
  echo $? > "$O/rc"
  for what in instruction skill; do
    env -i HOME="$H" PATH=/usr/bin:/bin TMPDIR="$O/tmp" TERM=dumb LANG=C.UTF-8 NO_COLOR=1 \
        COPILOT_OFFLINE=true COPILOT_AUTO_UPDATE=false COPILOT_CACHE_HOME="$CACHE/unpacked" \
        timeout 60 "$BIN" "$what" list --json </dev/null >"$O/$what.json" 2>>"$O/err"
  done
  kill $RP 2>/dev/null
  wait $RP 2>/dev/null
  exit 0
' || { echo "oracle: sandbox failed" >&2; exit 1; }
# The instruction list names a project's files relative to the repository root: the
# nearest directory with a `.git` (the working directory out of any repository).
ROOT=$CWD
d=$CWD
while :; do
  if [ -e "$d/.git" ]; then ROOT=$d; break; fi
  [ "$d" = / ] && break
  d=$(dirname "$d")
done
ORACLE_CWD=$CWD ORACLE_ROOT=$ROOT "$PY" "$HERE/extract.py" "$O"
