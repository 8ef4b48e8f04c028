// Values that look like user-space addresses. Comparisons of pointers hand them out; they
// change from run to run (address space randomization) and mean nothing in an input. The
// runtime's comparison table and the coordinator's dictionary both leave them out, and a
// repeatable `--seed` run depends on the two agreeing, so the rule is here once.
#pragma once

#include <cstdint>

namespace cfuzz::core {

// Between 2^40 and 2^48: where x86-64 Linux puts heaps, stacks and mappings.
inline bool looks_like_address(std::uint64_t v) {
  return v >= (std::uint64_t{1} << 40) && v < (std::uint64_t{1} << 48);
}

}  // namespace cfuzz::core
