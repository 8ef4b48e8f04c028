#include "libfuzzdriver/coverage/sancov_source_lines.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "libfuzzdriver/coverage/machine_blocks.h"
#include "libfuzzdriver/coverage/source_filter.h"
#include "libfuzzdriver/util/llvm_tools.h"

namespace cfuzz::driver {

namespace {

struct Function {
  std::uint64_t start = 0, end = 0;
};

// Defined functions with their sizes, sorted by address.
std::vector<Function> function_bounds(const std::string& module) {
  std::istringstream in(
      run_llvm_tool("llvm-nm", {"--print-size", "--numeric-sort", "--defined-only", "--no-demangle", module}));
  std::vector<Function> out;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream f(line);
    std::string start, size, type;
    if (!(f >> start >> size >> type) || type.size() != 1 || std::string("tTwW").find(type) == std::string::npos) {
      continue;
    }
    Function fn;
    fn.start = std::stoull(start, nullptr, 16);
    fn.end = fn.start + std::stoull(size, nullptr, 16);
    if (fn.end > fn.start) out.push_back(fn);
  }
  return out;
}

// The addresses of the line table's rows ("0x... line column file ..." in llvm-dwarfdump's
// text), but the ends of sequences.
std::vector<std::uint64_t> line_table_addresses(const std::string& module) {
  std::istringstream in(run_llvm_tool("llvm-dwarfdump", {"--debug-line", module}));
  std::vector<std::uint64_t> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("0x", 0) != 0 || line.find("end_sequence") != std::string::npos) continue;
    std::istringstream f(line);
    std::string address;
    std::uint32_t row_line = 0;
    if (f >> address >> row_line && row_line != 0) out.push_back(std::stoull(address, nullptr, 16));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// Counters of one module, sorted by address.
struct Block {
  std::uint64_t address;
  std::size_t counter;
};

// Whether each machine block ran: a block with a counter as it says; one without, when a
// neighbour's coverage implies it. Block U ran when a block that ran passes control only to
// U, directly or through blocks that pass only to U (the join after an `if` or a diamond),
// dead ends aside; or when a block that ran is entered only from U, directly or through
// blocks entered only from U.
std::vector<bool> blocks_reached(const std::vector<MachineBlock>& code, const std::vector<Block>& blocks,
                                 const std::vector<bool>& reached) {
  std::vector<bool> ran(code.size(), false), counted(code.size(), false);
  for (const auto& b : blocks) {
    long m = block_at(code, b.address);
    if (m < 0) continue;
    auto i = static_cast<std::size_t>(m);
    counted[i] = true;
    ran[i] = ran[i] || reached[b.counter];
  }
  auto only = [](const std::vector<std::size_t>& v, std::size_t u) { return v.size() == 1 && v[0] == u; };
  // A successor that is a dead end (a sanitizer's report, a throw) is left out: when it is
  // taken, the run stops there.
  auto leads_only_to = [&](std::size_t p, std::size_t u) {
    return std::all_of(code[p].successors.begin(), code[p].successors.end(), [&](std::size_t s) {
      return s == u || only(code[s].successors, u) || (code[s].dead_end && code[s].successors.empty());
    });
  };
  auto entered_only_from = [&](std::size_t s, std::size_t u) {
    return std::all_of(code[s].predecessors.begin(), code[s].predecessors.end(),
                       [&](std::size_t p) { return p == u || only(code[p].predecessors, u); });
  };
  auto mark = [&](std::size_t u) {
    if (counted[u] || ran[u]) return false;
    ran[u] = true;
    return true;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t b = 0; b < code.size(); ++b) {
      if (!ran[b]) continue;
      // Forwards: a successor, or the one block a successor passes to.
      for (std::size_t s : code[b].successors) {
        if (leads_only_to(b, s)) changed = mark(s) || changed;
        if (code[s].successors.size() == 1 && leads_only_to(b, code[s].successors[0])) {
          changed = mark(code[s].successors[0]) || changed;
        }
      }
      // Backwards: a predecessor, or the one block a predecessor is entered from.
      for (std::size_t p : code[b].predecessors) {
        if (entered_only_from(b, p)) changed = mark(p) || changed;
        if (code[p].predecessors.size() == 1 && entered_only_from(b, code[p].predecessors[0])) {
          changed = mark(code[p].predecessors[0]) || changed;
        }
      }
    }
  }
  return ran;
}

std::string normal_path(const std::string& p) { return std::filesystem::path(p).lexically_normal().string(); }

void add_module(const std::string& module, const std::vector<Block>& blocks, const std::vector<bool>& reached,
                std::map<std::string, FileCoverage>& files) {
  // Only the functions with counters are instrumented code.
  std::vector<Function> functions = function_bounds(module);
  auto function_of = [&](std::uint64_t a) -> const Function* {
    auto it = std::upper_bound(functions.begin(), functions.end(), a,
                               [](std::uint64_t x, const Function& f) { return x < f.start; });
    if (it == functions.begin()) return nullptr;
    --it;
    return a < it->end ? &*it : nullptr;
  };
  std::set<const Function*> instrumented;
  std::vector<std::uint64_t> starts;
  for (const auto& b : blocks) {
    if (const Function* fn = function_of(b.address)) instrumented.insert(fn);
    starts.push_back(b.address);
  }
  if (instrumented.empty()) return;
  std::uint64_t from = UINT64_MAX, to = 0;
  for (const Function* fn : instrumented) {
    from = std::min(from, fn->start);
    to = std::max(to, fn->end);
  }
  std::vector<MachineBlock> code = machine_blocks(module, from, to, starts);
  std::vector<bool> ran = blocks_reached(code, blocks, reached);

  std::vector<std::uint64_t> rows = line_table_addresses(module);
  if (rows.empty()) {
    throw std::runtime_error(module + " has no debug line table: build it with -g (debug info) to see lines");
  }
  std::vector<std::uint64_t> addresses;  // of instrumented code, each with its block
  std::vector<std::size_t> block_of;
  std::string text;
  for (std::uint64_t a : rows) {
    const Function* fn = function_of(a);
    long m = block_at(code, a);
    if (fn == nullptr || instrumented.count(fn) == 0 || m < 0) continue;
    addresses.push_back(a);
    block_of.push_back(static_cast<std::size_t>(m));
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%llx\n", static_cast<unsigned long long>(a));
    text += buf;
  }
  if (addresses.empty()) return;

  std::istringstream out(
      run_llvm_tool("llvm-symbolizer", {"--obj=" + module, "--output-style=JSON", "--inlines", "--demangle"}, text));
  std::map<std::pair<std::string, std::uint32_t>, FunctionCoverage> seen;
  std::string line;
  for (std::size_t k = 0; std::getline(out, line) && k < addresses.size(); ++k) {
    nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.contains("Symbol") || !j["Symbol"].is_array()) continue;
    bool block_ran = ran[block_of[k]];
    for (const auto& frame : j["Symbol"]) {
      std::string file = normal_path(frame.value("FileName", std::string()));
      auto at = frame.value("Line", 0u);
      if (is_user_source(file) && at != 0) {
        FileCoverage& fc = files[file];
        fc.path = file;
        bool& covered = fc.lines[at];
        covered = covered || block_ran;
      }
      std::string start_file = normal_path(frame.value("StartFileName", std::string()));
      auto start_line = frame.value("StartLine", 0u);
      if (is_user_source(start_file) && start_line != 0) {
        FunctionCoverage& fn = seen[{start_file, start_line}];  // template instances: one function
        if (fn.name.empty()) fn.name = frame.value("FunctionName", std::string("??"));
        fn.line = start_line;
        fn.covered = fn.covered || block_ran;
      }
    }
  }
  for (auto& [where, fn] : seen) {
    FileCoverage& fc = files[where.first];
    fc.path = where.first;
    fc.functions.push_back(fn);
  }
}

}  // namespace

void add_sancov_source_lines(const PcTable& table, const std::vector<bool>& reached, CoverageReport& report) {
  std::map<int, std::vector<Block>> by_module;
  std::vector<bool> all_reached = reached;
  all_reached.resize(table.entries.size(), false);
  for (std::size_t c = 0; c < table.entries.size(); ++c) {
    const PcEntry& e = table.entries[c];
    if (e.module >= 0) by_module[e.module].push_back({e.address, c});
    if (e.at_startup) all_reached[c] = true;
  }
  std::map<std::string, FileCoverage> files;
  for (auto& [module, blocks] : by_module) {
    auto path = table.modules.find(module);
    if (path == table.modules.end()) continue;
    std::sort(blocks.begin(), blocks.end(), [](const Block& a, const Block& b) { return a.address < b.address; });
    add_module(path->second, blocks, all_reached, files);
  }
  for (auto& [path, fc] : files) {
    std::sort(fc.functions.begin(), fc.functions.end(),
              [](const FunctionCoverage& a, const FunctionCoverage& b) { return a.line < b.line; });
    report.files.push_back(std::move(fc));
  }
}

}  // namespace cfuzz::driver
