// LLVM's command-line tools (llvm-symbolizer, llvm-cov, ...), wherever Debian put them.
#pragma once

#include <string>
#include <vector>

namespace cfuzz::driver {

// The full path of `name` (in $PATH, as name-14 and so on, or under /usr/lib/llvm-N/bin,
// where Debian keeps them when only clang's own packages are installed), or empty.
std::string find_llvm_tool(const std::string& name);

// Runs tool `name` with `args` (and `stdin_text` on its standard input) and returns its
// standard output. Throws std::runtime_error when it is missing or fails.
std::string run_llvm_tool(const std::string& name, std::vector<std::string> args, const std::string& stdin_text = "");

}  // namespace cfuzz::driver
