#!/bin/sh
# Oracle: what the OpenHands SDK 1.58.2 (PyPI openhands-sdk) puts in front of the model for
# CWD with HOME: its own loaders (`load_project_skills`, `load_user_skills`, project first,
# the first of a name winning, as a conversation merges them) and its own renderer
# (`AgentContext.get_system_message_suffix`, no model named, no date).
# usage: run.sh CWD HOME   -> one JSON object on stdout (see driver.py)
# Offline: a new network namespace (loopback only) and mount namespace, HOME overlay-mounted so
# the fixture home is never written (loading the user's skills writes a file there); public
# skills (a git clone) stay off. Requires root.
set -eu
[ $# -eq 2 ] || { echo "usage: $0 CWD HOME" >&2; exit 2; }
HERE=$(cd "$(dirname "$0")" && pwd)
CWD=$(cd "$1" && pwd -P)
H=$(cd "$2" && pwd -P)
CACHE=$(cd "${ORACLE_CACHE:?ORACLE_CACHE is the folder cargo xtask oracle installs the tools into}" && pwd -P)/openhands
PY=$CACHE/venv/bin/python
[ -x "$PY" ] || { echo "oracle: no $PY" >&2; exit 2; }
O=$(mktemp -d /tmp/oracle-openhands-run.XXXXXX)
if [ "${ORACLE_KEEP:-}" = 1 ]; then echo "oracle: scratch $O" >&2; else trap 'rm -rf "$O"' EXIT; fi
mkdir -p "$O/up" "$O/wk" "$O/tmp"
# The SDK lists the files below the working directory with `git ls-files`:
# each `.git` marker of the case becomes a real repository.
. "$HERE/../common/repositories.sh"
real_repositories "$CWD" "$O"
export O CWD H PY HERE
timeout 150 unshare -n -m sh -c '
  set -e
  mount -t overlay overlay -o "lowerdir=$H,upperdir=$O/up,workdir=$O/wk" "$H"
  cd "$CWD"
  env -i HOME="$H" PATH=/usr/bin:/bin TMPDIR="$O/tmp" LANG=C.UTF-8 GIT_CONFIG_NOSYSTEM=1 \
      OPENHANDS_SUPPRESS_BANNER=1 \
      timeout 120 "$PY" "$HERE/driver.py" >"$O/out" 2>"$O/err"
' || { echo "oracle: the SDK failed: $(cat "$O/err" 2>/dev/null)" >&2; exit 1; }
cat "$O/out"
