#include "libfuzzdriver/worker/pc_table.h"

#include <sstream>
#include <stdexcept>

#include "core/rpc.h"
#include "libfuzzdriver/util/process.h"

namespace cfuzz::driver {

PcTable read_pc_table(const std::string& target_abs_path, const std::vector<std::string>& env) {
  SpawnSpec spec;
  spec.program = target_abs_path;
  spec.args = {core::rpc::kPcTableFlag};
  spec.env = env;
  int status = 0;
  std::string out = run_and_capture(spec, std::chrono::milliseconds(60000), &status, core::rpc::kRequestFd);
  if (status != 0) {
    throw std::runtime_error(target_abs_path + " gave no PC table (" + describe_status(status) +
                             "); rebuild it with this cfuzz's cfuzz-clang++");
  }
  PcTable table;
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("module ", 0) == 0) {
      std::size_t space = line.find(' ', 7);
      if (space == std::string::npos) continue;
      table.modules[std::stoi(line.substr(7, space - 7))] = line.substr(space + 1);
      continue;
    }
    std::istringstream fields(line);
    PcEntry e;
    std::string address;
    std::uint64_t flags = 0;
    int at_startup = 0;
    if (!(fields >> e.module >> address >> flags >> at_startup)) {
      throw std::runtime_error(target_abs_path + ": malformed PC table line: " + line);
    }
    e.address = std::stoull(address, nullptr, 16);
    e.function_entry = (flags & 1) != 0;
    e.at_startup = at_startup != 0;
    table.entries.push_back(e);
  }
  return table;
}

}  // namespace cfuzz::driver
