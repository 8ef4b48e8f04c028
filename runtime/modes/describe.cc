#include "runtime/modes/describe.h"

#include <fcntl.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "core/rpc_json.h"
#include "corpus_format/codec.h"
#include "runtime/engine/coverage_registry.h"
#include "runtime/engine/registry.h"
#include "runtime/engine/test_body.h"
#include "runtime/modes/testdata.h"
#include "runtime/worker/source_profile.h"

namespace fuzzer::cfuzz {

int describe_target(const std::string& srcdir) {
  core::rpc::DescribeReply reply;
  for (const auto& t : registered_tests()) {
    core::rpc::DescribedTest entry;
    entry.name = t.name;
    auto f = run_test_body(t);
    if (!f->fuzz_function()) {
      entry.error = body_failure(*f);
    } else {
      for (auto type : f->fuzz_function()->types) entry.types.emplace_back(corpus::go_type_name(type));
      const auto& shapes = f->fuzz_function()->shapes;
      for (const auto& s : shapes) {
        if (!s.empty()) entry.shapes = shapes;  // only when some value is typed
      }
      for (const auto& seed : f->seeds()) {
        // A seed with no values (f.add() for a function of no values) has no v1 encoding.
        entry.seeds.push_back(seed.values.empty() ? std::string() : corpus::encode(seed.values));
      }
    }
    f->run_cleanups();
    reply.tests.push_back(std::move(entry));
  }
  const auto& cov = coverage_registry();
  reply.protocol = core::rpc::kProtocolVersion;
  reply.counters = cov.total_counters;
  reply.modules = cov.region_count;
  reply.srcdir = testdata_root(srcdir);
  reply.source_coverage = has_source_profile();
  nlohmann::json out = reply;
  std::string text = out.dump() + "\n";
  int fd = fcntl(core::rpc::kRequestFd, F_GETFD) != -1 ? core::rpc::kRequestFd : STDOUT_FILENO;
  return core::rpc::write_all(fd, text) ? 0 : 2;
}

}  // namespace fuzzer::cfuzz
