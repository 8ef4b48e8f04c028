# The installed cfuzz-clang and cfuzz-clang++ find the runtime and the header next to
# themselves (../lib, ../include), also when called through a symbolic link.
# Usage: installed_wrappers_test.sh <prefix> <examples dir>
source "$(dirname "$0")/lib.sh"
prefix=$1
examples=$2
need_file "$prefix/bin/cfuzz-clang++" "the installed cfuzz-clang++"
cd "$work"

step "installed cfuzz-clang++ builds a cfuzz test (cfuzz.h from the prefix)"
expect 0 "$prefix/bin/cfuzz-clang++" -std=c++20 -g -O1 "$examples/typed/money.cc" \
  "$examples/typed/fuzz_money.cc" -o fuzz_money
expect 0 ./fuzz_money --run FuzzFromDouble -v
contains "--- PASS: FuzzFromDouble/seed#1" "$last"

step "cfuzz-clang and cfuzz-clang++ through symbolic links, with sanitizers"
mkdir links
ln -s "$prefix/bin/cfuzz-clang" links/cfuzz-clang
ln -s "$prefix/bin/cfuzz-clang++" links/cfuzz-clang++
expect 0 env CFUZZ_SANITIZE=address links/cfuzz-clang -g -O1 -c "$examples/libfuzzer/simg.c" -o simg.o
expect 0 env CFUZZ_SANITIZE=address links/cfuzz-clang++ -g -O1 "$examples/libfuzzer/fuzz_simg.cc" simg.o \
  -o fuzz_simg
nm fuzz_simg >fuzz_simg.nm
contains "__asan_init" fuzz_simg.nm
contains "T __sanitizer_cov_8bit_counters_init" fuzz_simg.nm
# Raw files on the command line, as with a libFuzzer binary.
printf 'SIMGHEAD\0\5\1\100\0\360\30' >header.simg
expect 0 ./fuzz_simg header.simg
echo PASS
