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
check_walls "" libraries
check_walls runtime/ runtime_folders

# A runtime source outside the folders above would be outside every wall.
while IFS= read -r file; do
  echo "${file#"$root"/}: outside the runtime's folders (${!runtime_folders[*]})"
  bad=1
done < <(find "$root/runtime" \( -name '*.h' -o -name '*.cc' -o -name '*.c' \) -not -path "$root/runtime/*/*" | sort)
for dir in "$root"/runtime/*/; do
  folder=$(basename "$dir")
  [ -n "${runtime_folders[$folder]+set}" ] || { echo "runtime/$folder/: a folder without walls (add it to check_walls.sh)"; bad=1; }
done
exit $bad
