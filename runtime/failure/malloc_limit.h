// libFuzzer's -malloc_limit_mb: one allocation larger than the limit is the running input's
// failure, "out-of-memory (malloc(N))", before it can take the machine's memory. It needs a
// sanitizer's allocator hooks (AddressSanitizer, LeakSanitizer...), as it does under
// libFuzzer; without a sanitizer only -rss_limit_mb applies.
#pragma once

#include <cstdint>

#include "runtime/engine/engine_namespace.h"

namespace fuzzer::cfuzz {

// The failure detail of such an input; its message is "malloc(N)".
inline constexpr const char* kMallocLimitDetail = "malloc-limit";

// Returns false when the target has no allocator hooks to watch with.
bool enable_malloc_limit(std::uint64_t limit_mb);

}  // namespace fuzzer::cfuzz
