#include "libfuzzdriver/worker/target_info.h"

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <optional>
#include <regex>
#include <stdexcept>

#include "core/rpc_json.h"
#include "core/value_shape.h"
#include "corpus_format/codec.h"
#include "libfuzzdriver/util/process.h"
#include "libfuzzdriver/worker/libfuzzer_binary.h"

namespace cfuzz::driver {

namespace fs = std::filesystem;

corpus::Type type_from_go_name(const std::string& name) {
  if (name == "[]uint8" || name == "[]byte") return corpus::Type::Bytes;
  if (auto t = corpus::parse_type_name(name)) return *t;
  throw std::runtime_error("unknown value type " + name);
}

std::vector<const TestInfo*> TargetInfo::matching(const std::string& pattern) const {
  std::regex re;
  try {
    re = std::regex(pattern);
  } catch (const std::regex_error& e) {
    throw std::runtime_error("--fuzz " + pattern + ": invalid regular expression: " + e.what());
  }
  std::vector<const TestInfo*> matches;
  for (const auto& t : tests) {
    if (std::regex_search(t.name, re)) matches.push_back(&t);
  }
  return matches;
}

const TestInfo& TargetInfo::select(const std::string& pattern) const {
  std::vector<const TestInfo*> matches = matching(pattern);
  if (matches.size() == 1) return *matches[0];
  if (matches.empty()) {
    std::string names;
    for (const auto& t : tests) names += (names.empty() ? "" : " ") + t.name;
    throw std::runtime_error("--fuzz " + pattern + " matches no fuzz test in " + path + " [" + names + "]");
  }
  std::string which;
  for (const auto* m : matches) which += (which.empty() ? "" : " ") + m->name;
  throw std::runtime_error((pattern.empty() ? std::string(path + " has several fuzz tests")
                                            : "--fuzz " + pattern + " matches more than one fuzz test") +
                           ": [" + which + "]; choose one with --fuzz, or fuzz them all with --all");
}

namespace {

// Reads `json_fd` and `output_fd` until both close or the child runs past `timeout`.
void collect(Process& p, int json_fd, int output_fd, std::string* json, std::string* output,
             std::chrono::seconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  pollfd fds[2] = {{json_fd, POLLIN, 0}, {output_fd, POLLIN, 0}};
  std::string* sinks[2] = {json, output};
  int open = 2;
  char buf[65536];
  while (open > 0) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      p.kill_group();
      throw std::runtime_error(p.pid() > 0 ? "it did not answer --cfuzz-describe within " +
                                                 std::to_string(timeout.count()) + "s"
                                           : "timeout");
    }
    int r = poll(fds, 2, static_cast<int>(left.count()));
    if (r < 0 && errno == EINTR) continue;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      ssize_t n = read(fds[i].fd, buf, sizeof buf);
      if (n > 0) {
        if (sinks[i]->size() < (1u << 24)) sinks[i]->append(buf, static_cast<std::size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        fds[i].fd = -1;
        --open;
      }
    }
  }
}

}  // namespace

TargetInfo describe_target(const std::string& path, const std::string& srcdir, const std::vector<std::string>& env) {
  std::error_code ec;
  if (!fs::exists(path, ec)) throw std::runtime_error("target " + path + ": no such file");
  if (fs::is_directory(path, ec)) throw std::runtime_error("target " + path + " is a directory, not a program");
  if (access(path.c_str(), X_OK) != 0) throw std::runtime_error("target " + path + " is not executable");

  TargetInfo info;
  info.path = path;
  info.abs_path = fs::canonical(path, ec).string();
  if (linked_with_libfuzzer(info.abs_path)) {
    throw std::runtime_error(path +
                             " is a libFuzzer binary (built with -fsanitize=fuzzer), not a cfuzz target; "
                             "rebuild it with cfuzz-clang++ (or -fsanitize=fuzzer-no-link and the cfuzz runtime) "
                             "in place of -fsanitize=fuzzer");
  }

  auto [json_r, json_w] = make_pipe();
  auto [out_r, out_w] = make_pipe();
  SpawnSpec spec;
  spec.program = info.abs_path;
  spec.args = {core::rpc::kDescribeFlag};
  if (!srcdir.empty()) spec.args.push_back("--srcdir=" + srcdir);
  spec.env = env;
  spec.fds = {{json_w, core::rpc::kRequestFd}, {out_w, 1}, {out_w, 2}};
  Process p;
  try {
    p = Process::spawn(spec);
  } catch (...) {
    close(json_r);
    close(json_w);
    close(out_r);
    close(out_w);
    throw;
  }
  close(json_w);
  close(out_w);
  std::string json_text, output;
  try {
    // Describing takes the target's start-up and its test bodies, nothing more: a program
    // that is still busy after this long is doing something else (fuzzing, waiting).
    collect(p, json_r, out_r, &json_text, &output, std::chrono::seconds(20));
  } catch (const std::runtime_error& e) {
    close(json_r);
    close(out_r);
    throw std::runtime_error(path + " is not a cfuzz target: " + e.what());
  }
  close(json_r);
  close(out_r);
  p.wait();

  auto first_line = [](std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
    if (auto nl = s.rfind('\n'); nl != std::string::npos) s = s.substr(nl + 1);
    return s.empty() ? s : " (" + s + ")";
  };
  std::optional<core::rpc::DescribeReply> answer;
  try {
    answer = core::rpc::decode_describe_reply(json_text);
  } catch (const std::exception& e) {
    throw std::runtime_error(path + " is not a cfuzz target: its --cfuzz-describe answer is malformed (" + e.what() +
                             ")");
  }
  if (!answer) {
    throw std::runtime_error(path + " is not a cfuzz target: it did not answer --cfuzz-describe (" +
                             describe_status(p.status()) + ")" + first_line(output) +
                             "; build it with cfuzz-clang++ or cfuzz_add_fuzz_test");
  }
  const core::rpc::DescribeReply& reply = *answer;
  if (reply.protocol != core::rpc::kProtocolVersion) {
    throw std::runtime_error(path + " was built with a different cfuzz version (protocol " +
                             std::to_string(reply.protocol) + ", this cfuzz speaks " +
                             std::to_string(core::rpc::kProtocolVersion) + "); rebuild it");
  }
  info.counters = reply.counters;
  info.modules = reply.modules;
  info.srcdir = reply.srcdir;
  info.source_coverage = reply.source_coverage;
  for (const auto& t : reply.tests) {
    TestInfo ti;
    ti.name = t.name;
    ti.error = t.error;
    for (const auto& n : t.types) ti.types.push_back(type_from_go_name(n));
    if (!t.shapes.empty()) {
      if (t.shapes.size() != ti.types.size()) {
        throw std::runtime_error(path + ": the describe reply gives " + std::to_string(t.shapes.size()) +
                                 " value shapes for " + std::to_string(ti.types.size()) + " values of " + t.name);
      }
      for (const auto& s : t.shapes) {
        if (!s.empty()) core::ValueShape::parse(s);  // throws, naming what is malformed
      }
      ti.shapes = t.shapes;
    }
    for (std::size_t k = 0; k < t.seeds.size(); ++k) {
      if (t.seeds[k].empty()) {
        ti.seeds.emplace_back();
      } else {
        ti.seeds.push_back(corpus::decode(t.seeds[k], ti.name + "/seed#" + std::to_string(k)));
      }
    }
    info.tests.push_back(std::move(ti));
  }
  if (info.tests.empty()) throw std::runtime_error(path + " has no fuzz tests");
  if (info.counters == 0) {
    throw std::runtime_error(path +
                             " is not instrumented: it has no SanitizerCoverage counters; "
                             "build it with cfuzz-clang++ (or clang -fsanitize=fuzzer-no-link)");
  }
  return info;
}

}  // namespace cfuzz::driver
