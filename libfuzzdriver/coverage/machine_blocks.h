// The basic blocks of a module's machine code, from llvm-objdump's disassembly: where
// each starts and ends, and which blocks control can pass to next. `cfuzz cover` needs
// them because SanitizerCoverage leaves out the blocks whose coverage the others imply (a
// block that dominates all its successors; a join block after its predecessors): their
// code belongs to no counter, and whether it ran is inferred from their neighbours.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cfuzz::driver {

struct MachineBlock {
  std::uint64_t start = 0, end = 0;  // [start, end)
  std::vector<std::size_t> successors;
  std::vector<std::size_t> predecessors;
  bool dead_end = false;  // ends in a trap or a call that never returns (a sanitizer's report)
};

// The blocks of the functions of `module` lying in [from, to), sorted by address.
// `known_starts` are addresses known to start blocks (the PC table's), besides the jump
// targets and the instructions after jumps and returns. Throws std::runtime_error when
// llvm-objdump is missing or fails.
std::vector<MachineBlock> machine_blocks(const std::string& module, std::uint64_t from, std::uint64_t to,
                                         const std::vector<std::uint64_t>& known_starts);

// The block holding `address`, or -1.
long block_at(const std::vector<MachineBlock>& blocks, std::uint64_t address);

}  // namespace cfuzz::driver
