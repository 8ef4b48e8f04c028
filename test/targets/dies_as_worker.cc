// A libFuzzer harness that refuses to run as a `cfuzz run` worker: its start-up (a static
// constructor) sees the worker flag and dies, as a target does whose runtime cannot run
// under its sanitizer or whose own initialization fails in the worker's environment.
// DIES_AS_WORKER=exit0 makes it exit with status 0 instead of aborting. Run any other way
// (a seed run, the libFuzzer front end) it is a plain harness.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>

namespace {

bool running_as_worker() {
  std::ifstream f("/proc/self/cmdline");
  std::string cmdline((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  return cmdline.find("--cfuzz-worker") != std::string::npos;
}

struct DieAsWorker {
  DieAsWorker() {
    if (!running_as_worker()) return;
    std::fprintf(stderr, "dies_as_worker: cannot initialize the parser tables\n");
    const char* how = std::getenv("DIES_AS_WORKER");
    if (how != nullptr && std::strcmp(how, "exit0") == 0) std::exit(0);
    std::abort();
  }
} die_as_worker;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) { return size > 3 && data[0] == 'x' ? 1 : 0; }
