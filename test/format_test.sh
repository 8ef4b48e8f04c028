#!/usr/bin/env bash
# The project's C and C++ sources follow .clang-format: clang-format would change none of
# them. The check itself must catch a file it would change (a copy with one bad line).
# Fix a failure with: clang-format -i FILE...
set -euo pipefail
src=$1
cd "$src"
mapfile -t files < <(find cmd core corpus_format libfuzzdriver runtime test examples scripts \
  -type f \( -name '*.h' -o -name '*.cc' -o -name '*.c' \) -not -path '*/testdata/*' | sort)
[ ${#files[@]} -gt 100 ] || { echo "FAIL: only ${#files[@]} source files found under $src" >&2; exit 1; }

bad=()
for f in "${files[@]}"; do
  clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if [ ${#bad[@]} -gt 0 ]; then
  echo "FAIL: ${#bad[@]} file(s) differ from .clang-format (run: clang-format -i ${bad[*]})" >&2
  exit 1
fi

planted=$(mktemp -d)
trap 'rm -rf "$planted"' EXIT
cp .clang-format "$planted/"
printf 'int  f( int x ){return x;}\n' > "$planted/bad.cc"
if clang-format --dry-run --Werror "$planted/bad.cc" >/dev/null 2>&1; then
  echo "FAIL: clang-format accepted a misformatted file" >&2
  exit 1
fi
echo "ok: ${#files[@]} files follow .clang-format"
