#include "runtime/modes/pc_table.h"

#include <fcntl.h>
#include <link.h>
#include <unistd.h>

#include <cinttypes>
#include <cstdio>
#include <string>
#include <vector>

#include "core/rpc.h"
#include "runtime/engine/coverage_registry.h"
#include "runtime/engine/registry.h"
#include "runtime/engine/stack_depth_feature.h"
#include "runtime/engine/test_body.h"
#include "runtime/engine/value_profile.h"

namespace fuzzer::cfuzz {

namespace {

struct Module {
  std::string path;
  std::uintptr_t bias = 0;  // load address minus the file's addresses
  std::vector<std::pair<std::uintptr_t, std::uintptr_t>> segments;
};

int collect(dl_phdr_info* info, std::size_t, void* data) {
  auto* modules = static_cast<std::vector<Module>*>(data);
  Module m;
  m.path = info->dlpi_name != nullptr ? info->dlpi_name : "";
  if (m.path.empty()) {  // the executable itself
    char buf[4096];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n > 0) m.path.assign(buf, static_cast<std::size_t>(n));
  }
  m.bias = info->dlpi_addr;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const auto& ph = info->dlpi_phdr[i];
    if (ph.p_type == PT_LOAD) m.segments.emplace_back(info->dlpi_addr + ph.p_vaddr, ph.p_memsz);
  }
  modules->push_back(std::move(m));
  return 0;
}

}  // namespace

int print_pc_table() {
  // What a worker runs before its first input (static constructors, the test bodies with
  // their f.add calls) is coverage of the process too, as source-based coverage counts it;
  // the counters it set are marked.
  for (const auto& t : registered_tests()) run_test_body(t)->run_cleanups();
  std::vector<Module> modules;
  dl_iterate_phdr(collect, &modules);
  const auto& r = coverage_registry();
  std::string out;
  std::vector<bool> named(modules.size(), false);  // its "module" line written
  std::string lines;
  for (std::size_t k = 0, t = 0; k < r.region_count; ++k) {
    // The runtime's stack-depth steps and value profile are counters of no code.
    if (is_stack_depth_region(r.regions[k]) || is_value_profile_region(r.regions[k])) {
      for (std::size_t i = 0; i < r.regions[k].size; ++i) lines += "-1 0x0 0 0\n";
      continue;
    }
    // Each module registers its counters and then its PC table, one entry per counter.
    if (t >= r.pc_table_count ||
        static_cast<std::size_t>(r.pc_tables[t].end - r.pc_tables[t].begin) != 2 * r.regions[k].size) {
      std::fprintf(stderr,
                   "cfuzz: module %zu has no PC table matching its counters (built without "
                   "-fsanitize-coverage=pc-table?)\n",
                   k);
      return 2;
    }
    for (std::size_t i = 0; i < r.regions[k].size; ++i) {
      const std::uintptr_t* e = r.pc_tables[t].begin + 2 * i;
      int at_startup = r.regions[k].begin[i] != 0 ? 1 : 0;
      std::uintptr_t pc = e[0];
      std::size_t m = 0;
      while (m < modules.size()) {
        bool inside = false;
        for (auto [start, size] : modules[m].segments) inside = inside || (pc >= start && pc - start < size);
        if (inside) break;
        ++m;
      }
      if (m == modules.size()) {
        lines += "-1 0x0 0 0\n";
        continue;
      }
      if (!named[m]) {
        named[m] = true;
        out += "module " + std::to_string(m) + " " + modules[m].path + "\n";
      }
      char buf[64];
      std::snprintf(buf, sizeof buf, "%zu 0x%" PRIxPTR " %" PRIuPTR " %d\n", m, pc - modules[m].bias, e[1], at_startup);
      lines += buf;
    }
    ++t;
  }
  out += lines;
  int fd = fcntl(core::rpc::kRequestFd, F_GETFD) != -1 ? core::rpc::kRequestFd : STDOUT_FILENO;
  return core::rpc::write_all(fd, out) ? 0 : 2;
}

}  // namespace fuzzer::cfuzz
