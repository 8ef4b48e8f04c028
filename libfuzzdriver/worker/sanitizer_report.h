// What a sanitizer's report in the target's output adds to a failure record.
//
// The dying worker describes a sanitizer failure as well as it can from inside (ASan's
// error type and pc, UBSan's check and location), but some things only the printed report
// has: ThreadSanitizer's and LeakSanitizer's error types, and the first frame of the
// target's own code when the error was caught inside a sanitizer interceptor (an overflow
// in memcpy is reported at __asan_memcpy's pc). Failures are compared and deduplicated by
// these fields, so they are read the same way for every failure.
#pragma once

#include <string>

#include "core/failure_record.h"

namespace cfuzz::driver {

void refine_from_sanitizer_report(core::FailureRecord& r, const std::string& output);

}  // namespace cfuzz::driver
