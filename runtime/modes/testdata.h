// Where a target's committed corpus lives: <dir>/testdata/fuzz/<FuzzName>/, as in Go.
// <dir> is --srcdir if given, else the source directory the CMake helper baked into the
// binary (if it exists here), else the current directory.
#pragma once

#include <string>

#include "runtime/engine/engine_namespace.h"

namespace fuzzer::cfuzz {

std::string testdata_root(const std::string& srcdir_flag);
std::string corpus_dir(const std::string& root, const std::string& test_name);

}  // namespace fuzzer::cfuzz
