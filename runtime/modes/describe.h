// `target --cfuzz-describe`: what the coordinator needs to know before it starts workers,
// as one JSON object: the fuzz tests with their parameter types and f.add seeds (encoded in
// the v1 format), where testdata lives, and how many coverage counters the target has.
// Written to fd 3 when the coordinator provides it (so that nothing the target prints on
// stdout can get in the way), to stdout otherwise.
#pragma once

#include <string>

#include "runtime/engine/engine_namespace.h"

namespace fuzzer::cfuzz {

int describe_target(const std::string& srcdir);

}  // namespace fuzzer::cfuzz
