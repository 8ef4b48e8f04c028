#include "libfuzzdriver/worker/libfuzzer_binary.h"

#include <string_view>

#include "core/rpc.h"
#include "libfuzzdriver/util/file_io.h"

namespace cfuzz::driver {

bool linked_with_libfuzzer(const std::string& program) {
  std::string bytes;
  try {
    bytes = read_file_bytes(program);
  } catch (const std::exception&) {
    return false;  // unreadable: the describe step says what is wrong
  }
  std::string_view b = bytes;
  if (b.find(core::rpc::kDescribeFlag) != std::string_view::npos) return false;
  return b.find("LLVMFuzzerRunDriver") != std::string_view::npos || b.find("INFO: Seed: ") != std::string_view::npos;
}

}  // namespace cfuzz::driver
