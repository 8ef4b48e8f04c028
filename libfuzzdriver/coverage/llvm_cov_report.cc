#include "libfuzzdriver/coverage/llvm_cov_report.h"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>
#include <stdexcept>

#include "libfuzzdriver/coverage/source_filter.h"
#include "libfuzzdriver/util/llvm_tools.h"

namespace cfuzz::driver {

namespace fs = std::filesystem;

namespace {

std::string demangle(const std::string& name) {
  // A function local to a file is named "file.cc:name" in the profile.
  std::string symbol = name.substr(name.rfind(':') == std::string::npos ? 0 : name.rfind(':') + 1);
  int status = 0;
  char* text = abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status);
  if (status != 0 || text == nullptr) return symbol;
  std::string out = text;
  std::free(text);
  return out;
}

}  // namespace

std::string profile_file_env(const std::string& dir) { return "LLVM_PROFILE_FILE=" + dir + "/cover-%p.profraw"; }

void add_llvm_cov_lines(const std::string& target_abs_path, const std::string& profile_dir, CoverageReport& report) {
  std::vector<std::string> merge{"merge", "-sparse", "-o", profile_dir + "/merged.profdata"};
  for (const auto& f : fs::directory_iterator(profile_dir)) {
    if (f.path().extension() == ".profraw") merge.push_back(f.path().string());
  }
  if (merge.size() == 4) throw std::runtime_error("no coverage profile was written while the corpus was replayed");
  run_llvm_tool("llvm-profdata", merge);
  std::istringstream lcov(run_llvm_tool(
      "llvm-cov", {"export", "--format=lcov", "--instr-profile=" + profile_dir + "/merged.profdata", target_abs_path}));

  // lcov: SF:<file>, FN:<line>,<name>, FNDA:<count>,<name>, DA:<line>,<count>, end_of_record.
  std::map<std::string, FileCoverage> files;
  FileCoverage* current = nullptr;
  std::map<std::string, std::size_t> function_index;
  std::string line;
  while (std::getline(lcov, line)) {
    if (line.rfind("SF:", 0) == 0) {
      std::string path = fs::path(line.substr(3)).lexically_normal().string();
      current = is_user_source(path) ? &files[path] : nullptr;
      if (current != nullptr) current->path = path;
      function_index.clear();
    } else if (current == nullptr) {
      continue;
    } else if (line.rfind("FN:", 0) == 0) {
      std::size_t comma = line.find(',');
      if (comma == std::string::npos) continue;
      FunctionCoverage fn;
      fn.line = static_cast<std::uint32_t>(std::stoul(line.substr(3, comma - 3)));
      fn.name = demangle(line.substr(comma + 1));
      function_index[line.substr(comma + 1)] = current->functions.size();
      current->functions.push_back(fn);
    } else if (line.rfind("FNDA:", 0) == 0) {
      std::size_t comma = line.find(',');
      if (comma == std::string::npos) continue;
      auto it = function_index.find(line.substr(comma + 1));
      if (it != function_index.end() && std::stoull(line.substr(5, comma - 5)) > 0) {
        current->functions[it->second].covered = true;
      }
    } else if (line.rfind("DA:", 0) == 0) {
      std::size_t comma = line.find(',');
      if (comma == std::string::npos) continue;
      auto n = static_cast<std::uint32_t>(std::stoul(line.substr(3, comma - 3)));
      bool& covered = current->lines[n];
      covered = covered || std::stoull(line.substr(comma + 1)) > 0;
    }
  }
  for (auto& [path, fc] : files) {
    std::sort(fc.functions.begin(), fc.functions.end(),
              [](const FunctionCoverage& a, const FunctionCoverage& b) { return a.line < b.line; });
    report.files.push_back(std::move(fc));
  }
}

}  // namespace cfuzz::driver
