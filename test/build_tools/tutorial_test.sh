# The tutorial's example, taken from docs/tutorial.md itself: its code blocks are written out,
# built with the command the tutorial shows, and fuzzed. What the tutorial's transcripts
# show (the failing line, the saved file's name) must be what the real run prints.
# Usage: tutorial_test.sh <bin dir holding cfuzz and cfuzz-clang++> <docs/tutorial.md>
source "$(dirname "$0")/lib.sh"
bin=$1
tutorial=$2
need_file "$bin/cfuzz" "cfuzz"
cd "$work"

step "the code blocks headed // escape.h, // escape.cc, // escape_fuzz.cc"
awk '
  /^```cpp$/ { in_block = 1; file = ""; next }
  /^```$/ { in_block = 0; file = ""; next }
  in_block && file == "" && /^\/\/ [A-Za-z_]+\.(h|cc)$/ { file = $2 }
  in_block && file != "" { print > file }
' "$tutorial"
for f in escape.h escape.cc escape_fuzz.cc; do need_file "$f" "the tutorial's $f"; done

step "built as the tutorial builds it"
build_line=$(grep -m1 '^\$ cfuzz-clang++ ' "$tutorial") || fail "no cfuzz-clang++ command in $tutorial"
read -r -a build_cmd <<<"${build_line#\$ }"
expect 0 env PATH="$bin:$PATH" "${build_cmd[@]}"
expect 0 ./escape_fuzz

step "the failing line the tutorial shows is the fatalf line of its own code block"
shown=$(grep -o 'escape_fuzz\.cc:[0-9]*: unescape rejected' "$tutorial" | sort -u)
[ "$(echo "$shown" | wc -l)" = 1 ] || fail "the tutorial shows different lines: $shown"
real_line=$(grep -n 't.fatalf("unescape rejected' escape_fuzz.cc | cut -d: -f1)
[ "$shown" = "escape_fuzz.cc:$real_line: unescape rejected" ] ||
  fail "the tutorial shows \"$shown\" but the fatalf is on line $real_line of its escape_fuzz.cc"

step "cfuzz run finds the bug and saves the file the tutorial names"
saved=$(grep -m1 -o 'testdata/fuzz/FuzzEscape/[0-9a-f]\{16\}' "$tutorial")
expect 1 env HOME="$work/home" "$bin/cfuzz" run ./escape_fuzz --fuzztime 60s --seed 1
contains "$shown what escape wrote" "$last"
contains "Failing input written to $saved" "$last"
expect 1 ./escape_fuzz --run "FuzzEscape/${saved##*/}"
contains "$shown what escape wrote" "$last"
echo PASS
