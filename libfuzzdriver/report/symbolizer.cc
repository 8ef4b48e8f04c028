#include "libfuzzdriver/report/symbolizer.h"

#include <filesystem>
#include <sstream>

#include "libfuzzdriver/util/llvm_tools.h"
#include "libfuzzdriver/util/process.h"

namespace cfuzz::driver {

std::vector<std::string> symbolize_site(const std::string& target_abs_path, const std::string& site) {
  std::vector<std::string> words;
  std::istringstream in(site);
  for (std::string w; in >> w;) words.push_back(w);
  std::vector<std::string> lines = words;
  std::string tool = find_llvm_tool("llvm-symbolizer");
  if (tool.empty() || words.empty()) return lines;

  std::string module = std::filesystem::path(target_abs_path).filename().string() + "+";
  SpawnSpec spec;
  spec.program = tool;
  spec.args = {"--obj=" + target_abs_path, "--functions=short", "--relativenames"};
  std::vector<std::size_t> which;
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (words[i].rfind(module, 0) == 0) {
      spec.args.push_back(words[i].substr(module.size()));
      which.push_back(i);
    }
  }
  if (which.empty()) return lines;
  std::string out;
  try {
    out = run_and_capture(spec, std::chrono::milliseconds(10000));
  } catch (const std::exception&) {
    return lines;
  }
  // For each address: "function" and "file:line:col" (more pairs for inlined frames: the
  // first is the innermost), then a blank line.
  std::istringstream text(out);
  std::string line;
  std::size_t k = 0;
  std::vector<std::string> block;
  auto flush = [&] {
    if (k < which.size() && block.size() >= 2) {
      std::string function = block[0], where = block[1];
      if (function != "??") {
        lines[which[k]] = function + " " + (where.rfind("??", 0) == 0 ? words[which[k]] : where);
      }
    }
    ++k;
    block.clear();
  };
  while (std::getline(text, line)) {
    if (line.empty()) {
      if (!block.empty()) flush();
    } else {
      block.push_back(line);
    }
  }
  if (!block.empty()) flush();
  return lines;
}

}  // namespace cfuzz::driver
