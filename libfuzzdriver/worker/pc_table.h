// The target's PC table (runtime/modes/pc_table.h), read by running it with --cfuzz-pc-table:
// for every coverage counter, the module and the address in that module's file of the
// basic block it counts.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace cfuzz::driver {

struct PcEntry {
  int module = -1;  // -1: in no loaded module (not symbolized)
  std::uint64_t address = 0;
  bool function_entry = false;  // the block is its function's entry
  bool at_startup = false;      // reached before any input ran (test bodies, constructors)
};

struct PcTable {
  std::map<int, std::string> modules;  // index -> path of the module's file
  std::vector<PcEntry> entries;        // one per counter, in the counters' global order
};

// Throws std::runtime_error naming the target when it gives no table.
PcTable read_pc_table(const std::string& target_abs_path, const std::vector<std::string>& env);

}  // namespace cfuzz::driver
