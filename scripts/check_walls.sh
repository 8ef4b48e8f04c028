#!/usr/bin/env bash
# Fails when an #include crosses one of the walls between the project's libraries
# (docs/architecture.md, "Components"):
#   corpus_format  includes nothing of ours
#   core           corpus_format
#   runtime        core, corpus_format   (never libfuzzdriver: the target must not link the coordinator)
#   libfuzzdriver  core, corpus_format   (never runtime)
#   cmd            libfuzzdriver, corpus_format
# and inside runtime/, between its folders:
#   engine, failure   each other             (the hot path and failure detection, under both front ends)
#   worker            engine, failure        (the worker server: cfuzz run's front end)
#   libfuzzer         engine, failure        (the libFuzzer front end; never the worker server)
#   modes             all of them            (the entry points: only they choose a front end)
#   include           none                   (the public API)
# and inside libfuzzdriver/, between its folders:
#   util              none of the others     (small shared utilities: files, processes, budgets)
#   worker            util                   (the target and its worker processes)
#   report            util                   (what a run prints and writes of its failures and results)
#   corpus            worker, util           (the corpus and the cache; a test's testdata needs its TargetInfo)
#   minimize          corpus, worker, util   (minimization of a failing input and of a corpus)
#   coverage          corpus, worker, util   (cfuzz cover and its report)
#   run               all of them            (cfuzz run: only the run puts the parts together)
# Every source of runtime/ and libfuzzdriver/ sits in one of those folders, and every folder has walls.
# Usage: check_walls.sh [SOURCE_ROOT]   (default: the repository this script is in)
set -euo pipefail
root=${1:-"$(cd "$(dirname "$0")/.." && pwd)"}

declare -A libraries=(
  [corpus_format]="corpus_format"
  [core]="core corpus_format"
  [runtime]="runtime core corpus_format"
  [libfuzzdriver]="libfuzzdriver core corpus_format"
  [cmd]="cmd libfuzzdriver corpus_format"
)
# Inside runtime/, the folder after "runtime/" is what counts.
declare -A runtime_folders=(
  [engine]="engine failure"
  [failure]="failure engine"
  [worker]="worker engine failure"
  [libfuzzer]="libfuzzer engine failure"
  [modes]="modes engine failure worker libfuzzer"
  [include]=""
)
declare -A libfuzzdriver_folders=(
  [util]="util"
  [worker]="worker util"
  [report]="report util"
  [corpus]="corpus worker util"
  [minimize]="minimize corpus worker util"
  [coverage]="coverage corpus worker util"
  [run]="run util worker report corpus minimize coverage"
)

bad=0
# check_walls PREFIX WALLS: every #include "PREFIX<part>/..." in $root/PREFIX<folder> against
# WALLS, an array from each folder to the parts it may include. Includes of other parts pass
# (the standard library's and other projects' headers are not ours).
check_walls() {
  local prefix=$1
  local -n walls=$2
  local parts=" ${!walls[*]} " folder file line text included
  for folder in "${!walls[@]}"; do
    [ -d "$root/$prefix$folder" ] || { echo "check_walls: no $root/$prefix$folder" >&2; exit 2; }
    while IFS=: read -r file line text; do
      included=${text#*\"$prefix}
      included=${included%%/*}
      [[ "$parts" == *" $included "* ]] || continue
      if [[ " ${walls[$folder]} " != *" $included "* ]]; then
        echo "${file#"$root"/}:$line: $prefix$folder must not include $prefix$included/ (allowed: ${walls[$folder]:-nothing})"
        bad=1
      fi
    done < <(grep -rnE --include='*.h' --include='*.cc' --include='*.c' \
               "^[[:space:]]*#[[:space:]]*include[[:space:]]*\"$prefix[^/\"]+/" "$root/$prefix$folder" || true)
  done
}
# check_folders LIBRARY WALLS: every source of $root/LIBRARY sits in one of the folders of WALLS
# (a source elsewhere would be outside every wall), and every folder there has walls.
check_folders() {
  local library=$1
  local -n folders=$2
  local file dir folder
  while IFS= read -r file; do
    echo "${file#"$root"/}: outside the folders of $library/ (${!folders[*]})"
    bad=1
  done < <(find "$root/$library" \( -name '*.h' -o -name '*.cc' -o -name '*.c' \) -not -path "$root/$library/*/*" | sort)
  for dir in "$root/$library"/*/; do
    folder=$(basename "$dir")
    [ -n "${folders[$folder]+set}" ] || { echo "$library/$folder/: a folder without walls (add it to check_walls.sh)"; bad=1; }
  done
}
check_walls "" libraries
check_walls runtime/ runtime_folders
check_walls libfuzzdriver/ libfuzzdriver_folders
check_folders runtime runtime_folders
check_folders libfuzzdriver libfuzzdriver_folders
exit $bad
