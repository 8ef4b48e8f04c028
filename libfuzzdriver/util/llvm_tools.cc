#include "libfuzzdriver/util/llvm_tools.h"

#include <unistd.h>

#include <cstdio>
#include <stdexcept>

#include "libfuzzdriver/util/process.h"

namespace cfuzz::driver {

std::string find_llvm_tool(const std::string& name) {
  std::string tool = find_in_path(name);
  if (tool.empty()) tool = find_in_path(name + "-14");
  for (int version = 20; tool.empty() && version >= 11; --version) {
    std::string candidate = "/usr/lib/llvm-" + std::to_string(version) + "/bin/" + name;
    if (access(candidate.c_str(), X_OK) == 0) tool = candidate;
  }
  return tool;
}

std::string run_llvm_tool(const std::string& name, std::vector<std::string> args, const std::string& stdin_text) {
  std::string tool = find_llvm_tool(name);
  if (tool.empty()) throw std::runtime_error(name + " not found: install Debian's llvm package");
  SpawnSpec spec;
  spec.program = tool;
  spec.args = std::move(args);
  // Input through a file, not the command line: a big target has more addresses than
  // fit in one.
  std::FILE* input = nullptr;
  if (!stdin_text.empty()) {
    input = std::tmpfile();
    if (input == nullptr) throw std::runtime_error("cannot create a temporary file for " + name);
    std::fwrite(stdin_text.data(), 1, stdin_text.size(), input);
    std::fflush(input);
    std::rewind(input);
    spec.fds.push_back({fileno(input), 0});
  }
  int status = 0;
  std::string out;
  try {
    out = run_and_capture(spec, std::chrono::minutes(5), &status);
  } catch (...) {
    if (input != nullptr) std::fclose(input);
    throw;
  }
  if (input != nullptr) std::fclose(input);
  if (status != 0) throw std::runtime_error(name + " failed (" + describe_status(status) + ")");
  return out;
}

}  // namespace cfuzz::driver
