#!/bin/sh
# Oracle: which instruction files Kilo Code CLI 7.7.7 (npm @kilocode/cli, built on OpenCode)
# loads for CWD with HOME, its instruction blocks and the skills it lists: OpenCode's runner
# (`../opencode/run.sh`) with `kilo run --pure` and its config file named by KILO_CONFIG.
# usage: run.sh CWD HOME   -> one JSON object on stdout
set -eu
ORACLE_BIN=${ORACLE_BIN:-${ORACLE_CACHE:?ORACLE_CACHE is the folder cargo xtask oracle installs the tools into}/kilo-cli/node_modules/@kilocode/cli-linux-x64/bin/kilo}
ORACLE_CONFIG_VAR=KILO_CONFIG
export ORACLE_BIN ORACLE_CONFIG_VAR
exec sh "$(cd "$(dirname "$0")" && pwd)/../opencode/run.sh" "$@"
