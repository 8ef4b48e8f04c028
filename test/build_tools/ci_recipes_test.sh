# docs/ci.md's GitHub Actions and GitLab CI jobs, their shell commands taken from the page
# (ci_recipes.py) and run as the CI systems run them (bash -e), against a project of two
# fuzz targets (examples/parser and examples/typed, three fuzz tests, planted bugs) built
# with the installed package: the job fails on the bug it finds, and leaves a JUnit file
# and a SARIF log that their schemas accept, with the reproducer in both.
# Usage: ci_recipes_test.sh <prefix> <examples dir> <source dir>
source "$(dirname "$0")/lib.sh"
prefix=$1
examples=$2
source_dir=$3
need_file "$prefix/lib/cmake/cfuzz/cfuzzConfig.cmake" "the installed package"

make_project() {
  mkdir -p "$1"
  cp -r "$examples/parser" "$examples/typed" "$1/"
  cat >"$1/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.22)
project(ci_example LANGUAGES CXX)
add_subdirectory(parser)
add_subdirectory(typed)
CMAKE
}

# check_reports <project>: the reports are valid, and the typed example's bug is in both with
# the file it was saved to.
check_reports() {
  local schemas="$source_dir/test/e2e/schemas"
  expect 0 python3 "$source_dir/test/e2e/validate_json.py" "$schemas/sarif-2.1.0-subset.schema.json" "$1/cfuzz.sarif"
  expect 0 python3 "$source_dir/test/e2e/xml_to_json.py" "$1/cfuzz.xml"
  cp "$last" "$work/junit.json"
  expect 0 python3 "$source_dir/test/e2e/validate_json.py" "$schemas/junit.schema.json" "$work/junit.json"
  for test in FuzzParseConfig FuzzFormatParse FuzzFromDouble; do
    contains "name=\"$test\"" "$1/cfuzz.xml"
  done
  saved="$(ls "$1/typed/testdata/fuzz/FuzzFormatParse" | grep -vx int64_min)" ||
    fail "no reproducer in $1/typed/testdata/fuzz/FuzzFormatParse"
  contains "FuzzFormatParse/$saved" "$1/cfuzz.xml"
  contains "FuzzFormatParse/$saved" "$1/cfuzz.sarif"
  [ -n "$(ls "$1/.cfuzz-cache")" ] || fail "nothing in the cache directory $1/.cfuzz-cache"
}

for ci in github gitlab; do
  step "docs/ci.md's $ci job"
  expect 0 python3 "$(dirname "$0")/ci_recipes.py" "$source_dir/docs/ci.md" "$ci"
  cp "$last" "$work/$ci.sh"
  cat "$work/$ci.sh"
  make_project "$work/$ci"
  # The budget is the suite's, not the page's 5 minutes: the typed bug takes well under 1 s.
  (cd "$work/$ci" && expect 1 env CFUZZ_PREFIX="$prefix" FUZZTIME=8s bash -e "$work/$ci.sh")
  cp "$last" "$work/$ci.log"
  contains "--- summary: 3 fuzz tests" "$work/$ci.log"
  contains "FAIL  FuzzFormatParse (build/bin/fuzz_money)" "$work/$ci.log"
  check_reports "$work/$ci"
done
echo PASS
