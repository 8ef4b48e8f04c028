// Leak detection per input, as libFuzzer's -detect_leaks does it. LeakSanitizer (in ASan or
// LSan builds) normally checks once, at exit, where a leak names no input. Here malloc and
// free are counted while an input runs; an input that allocated more than it freed is
// checked with LeakSanitizer right away, and a leak is that input's failure. The stack below
// the check is cleared first, so that what the input left in its dead frames cannot make a
// leaked block look reachable.
//
// Checks cost a scan of the heap, so they run only where the answer matters: for inputs
// with new coverage while fuzzing, and for every input a seed run, a reproduction or a
// minimization runs. After 1000 checks that found nothing (a target that keeps what it
// allocates in global state) they stop, as libFuzzer's do.
#pragma once

#include "runtime/engine/engine_namespace.h"

namespace fuzzer::cfuzz {

// Turns detection on, if the target has LeakSanitizer; without it this does nothing.
void enable_leak_detection();

// Bracket one execution of the fuzz function.
void leak_tracking_begin();
void leak_tracking_end();

// After an execution that passed: true if it allocated more than it freed and LeakSanitizer
// then found a leak (its report is on standard error).
bool input_leaked();

// Fails the running input as a leak and ends the process (crash_handler.h).
[[noreturn]] void fail_input_for_leak();

}  // namespace fuzzer::cfuzz
