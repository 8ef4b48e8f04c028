#include "runtime/describe.h"

#include <fcntl.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "core/rpc.h"
#include "corpus_format/codec.h"
#include "runtime/coverage_registry.h"
#include "runtime/registry.h"
#include "runtime/test_body.h"
#include "runtime/testdata.h"

namespace cfuzz::runtime {

int describe_target(const std::string& srcdir) {
  using nlohmann::json;
  json tests = json::array();
  for (const auto& t : registered_tests()) {
    json entry{{"name", t.name}};
    auto f = run_test_body(t);
    if (!f->fuzz_function()) {
      entry["error"] = body_failure(*f);
    } else {
      json types = json::array();
      for (auto type : f->fuzz_function()->types) types.push_back(corpus::go_type_name(type));
      entry["types"] = types;
      json seeds = json::array();
      for (const auto& seed : f->seeds()) {
        // A seed with no values (f.add() for a function of no values) has no v1 encoding.
        seeds.push_back(seed.values.empty() ? std::string() : corpus::encode(seed.values));
      }
      entry["seeds"] = seeds;
    }
    f->run_cleanups();
    tests.push_back(entry);
  }
  const auto& cov = coverage_registry();
  json out{{"protocol", core::rpc::kProtocolVersion},
           {"counters", cov.total_counters},
           {"modules", cov.region_count},
           {"srcdir", testdata_root(srcdir)},
           {"tests", tests}};
  std::string text = out.dump() + "\n";
  int fd = fcntl(core::rpc::kRequestFd, F_GETFD) != -1 ? core::rpc::kRequestFd : STDOUT_FILENO;
  return core::rpc::write_all(fd, text) ? 0 : 2;
}

}  // namespace cfuzz::runtime
