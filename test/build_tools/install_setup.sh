# Fixture: `cmake --install` of the build tree into a fresh prefix, shared by the tests of
# the installed package.
# Usage: install_setup.sh <cmake> <build dir> <prefix>
set -euo pipefail
cmake=$1
build=$2
prefix=$3

rm -rf "$prefix"
"$cmake" --install "$build" --prefix "$prefix"
for f in bin/cfuzz bin/cfuzz-clang bin/cfuzz-clang++ lib/libcfuzz_runtime.a lib/libcfuzz_gtest_main.a include/cfuzz/cfuzz.h include/cfuzz/domains.h include/cfuzz/regexp.h include/cfuzz/typed_values.h \
         lib/cmake/cfuzz/cfuzzConfig.cmake lib/cmake/cfuzz/cfuzzConfigVersion.cmake \
         lib/cmake/cfuzz/cfuzzFunctions.cmake; do
  [ -e "$prefix/$f" ] || { echo "FAIL: cmake --install did not install $f" >&2; exit 1; }
done
# The installed package must stand alone: nothing in it may point back into the build tree.
if grep -rlF -- "$build" "$prefix/lib/cmake" "$prefix/bin/cfuzz-clang" "$prefix/bin/cfuzz-clang++"; then
  echo "FAIL: the installed files above name the build directory $build" >&2
  exit 1
fi
echo PASS
