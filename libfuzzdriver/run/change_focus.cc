#include "libfuzzdriver/run/change_focus.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include <nlohmann/json.hpp>

#include "libfuzzdriver/util/llvm_tools.h"

namespace cfuzz::driver {

namespace fs = std::filesystem;

namespace {

// Debug info names files as the compiler saw them; the diff as git does. Both are made
// canonical (symbolic links resolved), once per name.
class Paths {
 public:
  const std::string& canonical(const std::string& p) {
    auto it = seen_.find(p);
    if (it != seen_.end()) return it->second;
    std::error_code ec;
    fs::path c = fs::weakly_canonical(fs::path(p), ec);
    return seen_[p] = ec ? fs::path(p).lexically_normal().string() : c.lexically_normal().string();
  }

 private:
  std::map<std::string, std::string> seen_;
};

struct FunctionSpan {
  std::string name;
  std::uint32_t first = 0, last = 0;
  std::vector<std::size_t> counters;
};

using FunctionKey = std::pair<std::string, std::uint32_t>;  // file and line where it begins

}  // namespace

bool ChangeFocus::reaches_changed_function(const std::vector<bool>& reached) const {
  if (!counters) return false;
  for (std::size_t c = 0; c < reached.size() && c < counters->size(); ++c) {
    if (reached[c] && (*counters)[c]) return true;
  }
  return false;
}

std::size_t ChangeFocus::lines_reached(const std::vector<bool>& reached) const {
  std::size_t n = 0;
  for (const auto& l : lines) {
    if (std::any_of(l.counters.begin(), l.counters.end(),
                    [&](std::size_t c) { return c < reached.size() && reached[c]; })) {
      ++n;
    }
  }
  return n;
}

ChangeFocus map_changes(const PcTable& table, const ChangedLines& changed) {
  ChangeFocus focus;
  auto flags = std::make_shared<std::vector<bool>>(table.entries.size(), false);
  focus.counters = flags;
  if (changed.empty()) return focus;
  std::map<int, std::vector<std::size_t>> by_module;
  for (std::size_t c = 0; c < table.entries.size(); ++c) {
    if (table.entries[c].module >= 0) by_module[table.entries[c].module].push_back(c);
  }
  Paths paths;
  bool any_line = false;  // of any counter: without debug info, there is none
  std::map<FunctionKey, FunctionSpan> functions;
  std::map<std::pair<std::string, std::uint32_t>, std::vector<std::size_t>> line_counters;
  for (const auto& [module, counters] : by_module) {
    auto path = table.modules.find(module);
    if (path == table.modules.end()) continue;
    std::string text;
    for (std::size_t c : counters) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "0x%llx\n", static_cast<unsigned long long>(table.entries[c].address));
      text += buf;
    }
    std::istringstream out(run_llvm_tool(
        "llvm-symbolizer", {"--obj=" + path->second, "--output-style=JSON", "--inlines", "--demangle"}, text));
    std::string line;
    for (std::size_t k = 0; std::getline(out, line) && k < counters.size(); ++k) {
      nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
      if (j.is_discarded() || !j.contains("Symbol") || !j["Symbol"].is_array()) continue;
      for (const auto& frame : j["Symbol"]) {
        std::string file = frame.value("FileName", std::string());
        std::uint32_t at = frame.value("Line", 0u);
        if (file.empty() || at == 0) continue;
        any_line = true;
        const std::string& f = paths.canonical(file);
        line_counters[{f, at}].push_back(counters[k]);
        std::string start_file = frame.value("StartFileName", std::string());
        std::uint32_t start = frame.value("StartLine", 0u);
        if (start_file.empty() || start == 0) continue;
        FunctionSpan& fn = functions[{paths.canonical(start_file), start}];
        if (fn.name.empty()) fn.name = frame.value("FunctionName", std::string("??"));
        fn.first = start;
        if (paths.canonical(start_file) == f) fn.last = std::max(fn.last, at);
        fn.counters.push_back(counters[k]);
      }
    }
  }
  if (!any_line && !by_module.empty()) {
    throw std::runtime_error("its counters have no source lines: build it with -g (debug info) to map changes");
  }
  for (const auto& [key, fn] : functions) {
    auto file = changed.files.find(key.first);
    if (file == changed.files.end()) continue;
    auto it = file->second.lower_bound(fn.first);
    if (it == file->second.end() || *it > std::max(fn.first, fn.last)) continue;
    focus.functions.push_back(fn.name);
    for (std::size_t c : fn.counters) (*flags)[c] = true;
  }
  for (const auto& [file, lines] : changed.files) {
    for (std::uint32_t l : lines) {
      auto it = line_counters.find({file, l});
      if (it == line_counters.end()) continue;
      std::vector<std::size_t> cs = it->second;
      std::sort(cs.begin(), cs.end());
      cs.erase(std::unique(cs.begin(), cs.end()), cs.end());
      focus.lines.push_back({file, l, std::move(cs)});
    }
  }
  std::sort(focus.functions.begin(), focus.functions.end());
  focus.functions.erase(std::unique(focus.functions.begin(), focus.functions.end()), focus.functions.end());
  return focus;
}

}  // namespace cfuzz::driver
