#include "libfuzzdriver/coverage/machine_blocks.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <sstream>

#include "libfuzzdriver/util/llvm_tools.h"

namespace cfuzz::driver {

namespace {

struct Instruction {
  std::uint64_t address = 0;
  std::string mnemonic;
  std::uint64_t target = 0;  // of a direct jump; 0 otherwise
  std::string callee;        // of a direct call
  bool function_start = false;
};

enum class Flow { Next, Jump, Branch, Stop, DeadEnd };

// Functions that never return: a sanitizer's report, a throw, an abort. The blocks that
// call them are dead ends, which say nothing of where the code after them goes.
bool never_returns(const std::string& callee) {
  std::string name = callee.substr(0, callee.find('@'));
  for (const char* prefix : {"__asan_report_", "__msan_warning", "__tsan_report", "__cxa_throw", "__cxa_rethrow",
                             "_Unwind_Resume", "__stack_chk_fail", "__assert_fail", "abort", "_exit"}) {
    if (name.rfind(prefix, 0) == 0) return true;
  }
  bool ubsan_abort = name.rfind("__ubsan_handle_", 0) == 0 && name.size() > 6 && name.ends_with("_abort");
  bool std_throw = name.rfind("_ZSt", 0) == 0 && name.find("__throw_") != std::string::npos;
  return ubsan_abort || std_throw || name == "__ubsan_handle_builtin_unreachable" || name == "exit";
}

Flow flow_of(const Instruction& in) {
  const std::string& m = in.mnemonic;
  if (m.rfind("ret", 0) == 0) return Flow::Stop;
  if (m == "ud2" || m == "hlt" || m == "int3") return Flow::DeadEnd;
  if (m.rfind("jmp", 0) == 0) return in.target != 0 ? Flow::Jump : Flow::Stop;  // indirect: unknown targets
  if (m[0] == 'j' || m.rfind("loop", 0) == 0) return Flow::Branch;
  if (m.rfind("call", 0) == 0 && never_returns(in.callee)) return Flow::DeadEnd;
  return Flow::Next;
}

// "   413f1:      \tjmp\t0x41427 <sym+0x36a7>" and "000000000003dd80 <sym>:" lines.
std::vector<Instruction> disassemble(const std::string& module, std::uint64_t from, std::uint64_t to) {
  char range[96];
  std::snprintf(range, sizeof range, "--start-address=0x%llx", static_cast<unsigned long long>(from));
  std::string start = range;
  std::snprintf(range, sizeof range, "--stop-address=0x%llx", static_cast<unsigned long long>(to));
  std::istringstream text(
      run_llvm_tool("llvm-objdump", {"-d", "--no-show-raw-insn", "--no-print-imm-hex", start, range, module}));
  std::vector<Instruction> out;
  bool next_starts_function = false;
  std::string line;
  while (std::getline(text, line)) {
    if (line.empty()) continue;
    if (line[0] != ' ') {
      next_starts_function = line.size() > 2 && line.back() == ':' && line.find('<') != std::string::npos;
      continue;
    }
    std::size_t colon = line.find(':');
    std::size_t tab = line.find('\t', colon == std::string::npos ? 0 : colon);
    if (colon == std::string::npos || tab == std::string::npos) continue;
    Instruction in;
    try {
      in.address = std::stoull(line.substr(0, colon), nullptr, 16);
    } catch (const std::exception&) {
      continue;
    }
    std::istringstream rest(line.substr(tab + 1));
    rest >> in.mnemonic;
    if (in.mnemonic.empty()) continue;
    std::string operand;
    if (in.mnemonic[0] == 'j' && rest >> operand && operand.rfind("0x", 0) == 0) {
      in.target = std::stoull(operand, nullptr, 16);
    }
    std::size_t open = line.find('<', tab), close = line.rfind('>');
    if (in.mnemonic.rfind("call", 0) == 0 && open != std::string::npos && close > open) {
      in.callee = line.substr(open + 1, close - open - 1);
    }
    in.function_start = next_starts_function;
    next_starts_function = false;
    out.push_back(std::move(in));
  }
  return out;
}

}  // namespace

std::vector<MachineBlock> machine_blocks(const std::string& module, std::uint64_t from, std::uint64_t to,
                                         const std::vector<std::uint64_t>& known_starts) {
  std::vector<Instruction> code = disassemble(module, from, to);
  // UBSan's function prologue (-fsanitize=function) jumps over a few bytes of signature
  // data at the function's start; decoded as instructions they would bring jumps and block
  // starts that do not exist. They are dropped.
  std::vector<Instruction> kept;
  kept.reserve(code.size());
  std::uint64_t data_until = 0;
  for (auto& in : code) {
    if (in.address < data_until) continue;
    if (in.function_start && in.mnemonic.rfind("jmp", 0) == 0 && in.target > in.address &&
        in.target - in.address <= 16) {
      data_until = in.target;
    }
    kept.push_back(std::move(in));
  }
  code = std::move(kept);
  std::set<std::uint64_t> starts(known_starts.begin(), known_starts.end());
  std::set<std::uint64_t> function_starts;
  for (std::size_t i = 0; i < code.size(); ++i) {
    if (code[i].function_start) {
      starts.insert(code[i].address);
      function_starts.insert(code[i].address);
    }
    if (code[i].target != 0) starts.insert(code[i].target);
    if (flow_of(code[i]) != Flow::Next && i + 1 < code.size()) starts.insert(code[i + 1].address);
  }

  std::vector<MachineBlock> blocks;
  std::vector<Flow> ends;  // how each block ends
  std::vector<std::uint64_t> jump_targets;
  auto open_block = [&](std::uint64_t at) {
    if (!blocks.empty()) blocks.back().end = at;
    blocks.push_back({at, at, {}, {}, false});
    ends.push_back(Flow::Next);
    jump_targets.push_back(0);
  };
  auto pending = starts.begin();
  for (std::size_t i = 0; i < code.size(); ++i) {
    // A start that falls inside a decoded instruction: data in the code, decoded as if it
    // were instructions (UBSan's function prologue jumps over its signature bytes). The
    // block starts there all the same.
    while (pending != starts.end() && *pending < code[i].address) {
      if (!blocks.empty() && *pending > blocks.back().start) open_block(*pending);
      ++pending;
    }
    if (blocks.empty() || (pending != starts.end() && *pending == code[i].address)) open_block(code[i].address);
    if (pending != starts.end() && *pending == code[i].address) ++pending;
    ends.back() = flow_of(code[i]);
    jump_targets.back() = code[i].target;
  }
  if (!blocks.empty()) blocks.back().end = to;

  auto link = [&](std::size_t from_block, std::uint64_t address) {
    long to_block = block_at(blocks, address);
    if (to_block < 0 || blocks[static_cast<std::size_t>(to_block)].start != address) return;
    blocks[from_block].successors.push_back(static_cast<std::size_t>(to_block));
    blocks[static_cast<std::size_t>(to_block)].predecessors.push_back(from_block);
  };
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    blocks[b].dead_end = ends[b] == Flow::DeadEnd;
    bool next_in_function = b + 1 < blocks.size() && function_starts.count(blocks[b + 1].start) == 0;
    if (ends[b] == Flow::Jump || ends[b] == Flow::Branch) link(b, jump_targets[b]);
    if ((ends[b] == Flow::Next || ends[b] == Flow::Branch) && next_in_function) link(b, blocks[b + 1].start);
  }
  return blocks;
}

long block_at(const std::vector<MachineBlock>& blocks, std::uint64_t address) {
  auto it = std::upper_bound(blocks.begin(), blocks.end(), address,
                             [](std::uint64_t a, const MachineBlock& b) { return a < b.start; });
  if (it == blocks.begin()) return -1;
  --it;
  return address < it->end ? static_cast<long>(it - blocks.begin()) : -1;
}

}  // namespace cfuzz::driver
