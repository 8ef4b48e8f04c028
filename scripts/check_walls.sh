#!/usr/bin/env bash
# Fails when an #include crosses one of the walls between the project's libraries
# (docs/architecture.md, "Components"):
#   corpus_format  includes nothing of ours
#   core           corpus_format
#   runtime        core, corpus_format   (never libfuzzdriver: the target must not link the coordinator)
#   libfuzzdriver  core, corpus_format   (never runtime)
#   cmd            libfuzzdriver, corpus_format
# Usage: check_walls.sh [SOURCE_ROOT]   (default: the repository this script is in)
set -euo pipefail
root=${1:-"$(cd "$(dirname "$0")/.." && pwd)"}

declare -A allowed=(
  [corpus_format]="corpus_format"
  [core]="core corpus_format"
  [runtime]="runtime core corpus_format"
  [libfuzzdriver]="libfuzzdriver core corpus_format"
  [cmd]="cmd libfuzzdriver corpus_format"
)
libraries="${!allowed[*]}"

bad=0
for lib in "${!allowed[@]}"; do
  [ -d "$root/$lib" ] || { echo "check_walls: no $root/$lib" >&2; exit 2; }
  while IFS=: read -r file line text; do
    included=$(sed -E 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"([^/"]+)\/.*/\1/' <<<"$text")
    # Only our own libraries count; other quoted includes (a vendored-free tree has none) pass.
    [[ " $libraries " == *" $included "* ]] || continue
    if [[ " ${allowed[$lib]} " != *" $included "* ]]; then
      echo "${file#"$root"/}:$line: $lib must not include $included/ (allowed: ${allowed[$lib]})"
      bad=1
    fi
  done < <(grep -rnE --include='*.h' --include='*.cc' --include='*.c' '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^/"]+/' "$root/$lib" || true)
done
exit $bad
