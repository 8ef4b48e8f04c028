// `target --cfuzz-pc-table`: where each coverage counter sits in the code, for
// `cfuzz cover`. SanitizerCoverage gives every counter an entry in the module's PC table
// (the address of its basic block, and whether that block is a function's entry); this
// prints them in the counters' global order, as module-relative addresses, which the
// coordinator symbolizes.
//
//   module 0 /abs/path/of/target
//   0 0x1f4a0 1 0        one line per counter: module, address in the module's file, flags,
//                        and 1 when the counter was set at startup (the test bodies ran)
//
// Written to fd 3 when the coordinator provides it, to stdout otherwise.
#pragma once

#include "runtime/engine/engine_namespace.h"

namespace fuzzer::cfuzz {

int print_pc_table();

}  // namespace fuzzer::cfuzz
