# Shared by the build-tool tests (sourced): failure reporting, expected exit codes, and a
# scratch directory removed at exit (kept when CFUZZ_KEEP_TMP=1, for debugging).
set -euo pipefail

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

step() { echo "--- $*"; }

work="$(mktemp -d "${TMPDIR:-/tmp}/cfuzz-build-tools.XXXXXX")"
if [ "${CFUZZ_KEEP_TMP:-0}" = "1" ]; then
  echo "scratch directory kept: $work"
else
  trap 'rm -rf "$work"' EXIT
fi
last="$work/last.log"

# expect <exit code|nonzero> <command...>: runs the command, its output in $last, and fails
# the test (showing that output) unless the command exits with that code.
expect() {
  local want=$1
  shift
  local got=0
  # (The outer 2>/dev/null only silences bash's own "Segmentation fault" notice.)
  { "$@" >"$last" 2>&1 || got=$?; } 2>/dev/null
  if [ "$got" != "$want" ] && { [ "$want" != nonzero ] || [ "$got" = 0 ]; }; then
    cat "$last" >&2
    fail "expected exit $want, got $got: $*"
  fi
}

# expect_failure <command...>: like expect, for a seed run that must fail: exit 1 (a seed
# failed), or death by a signal (128+n), which is how a seed that crashes ends the run.
expect_failure() {
  local got=0
  { "$@" >"$last" 2>&1 || got=$?; } 2>/dev/null
  if [ "$got" != 1 ] && [ "$got" -le 128 ]; then
    cat "$last" >&2
    fail "expected a failing run (exit 1 or a signal), got exit $got: $*"
  fi
}

# contains <fixed text> <file>: fails, showing the file, unless it holds the text.
contains() {
  if ! grep -qF -- "$1" "$2"; then
    cat "$2" >&2
    fail "expected \"$1\" in $2"
  fi
}

# lacks <fixed text> <file>
lacks() {
  if grep -qF -- "$1" "$2"; then
    grep -nF -- "$1" "$2" >&2
    fail "did not expect \"$1\" in $2"
  fi
}

# need_file <path> <what>: a clear message when a test runs before the build it needs.
need_file() {
  [ -e "$1" ] || fail "$2 is missing ($1): build the project before running ctest"
}

# The one file in a directory (fails unless there is exactly one).
only_file() {
  local files=("$1"/*)
  [ -e "${files[0]}" ] || fail "no file in $1"
  [ "${#files[@]}" = 1 ] || fail "expected one file in $1, found: ${files[*]}"
  echo "${files[0]}"
}

# has_baked_srcdir <target>: cfuzz_add_fuzz_test compiles the source directory into the
# target (cfuzz_source_directory()); without it the target looks in the current directory.
has_baked_srcdir() {
  nm --defined-only "$1" >"$work/srcdir.nm"
  grep -q " T cfuzz_source_directory$" "$work/srcdir.nm" ||
    fail "$1 does not define cfuzz_source_directory(): the source directory that
cfuzz_add_fuzz_test bakes in is missing (is its generated _cfuzz_srcdir file compiled in a
project whose only language is CXX?)"
}
