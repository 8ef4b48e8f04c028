// clang's source-based coverage (-fprofile-instr-generate -fcoverage-mapping), when the
// target was also built with it: `cfuzz cover` then reads the profile the workers write
// instead of the PC table. The profile runtime writes at exit(); a worker ends with
// _exit(), so it writes its profile itself first: when LLVM_PROFILE_FILE says where (cover
// sets it), not into default.profraw in the directory of every `cfuzz run`.
#pragma once

#include <cstdlib>

#include "runtime/engine/engine_namespace.h"

extern "C" int __llvm_profile_write_file(void) __attribute__((weak));

namespace fuzzer::cfuzz {

inline bool has_source_profile() { return &__llvm_profile_write_file != nullptr; }

inline void write_source_profile() {
  if (has_source_profile() && std::getenv("LLVM_PROFILE_FILE") != nullptr) __llvm_profile_write_file();
}

}  // namespace fuzzer::cfuzz
