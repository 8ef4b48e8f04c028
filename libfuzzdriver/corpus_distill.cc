#include "libfuzzdriver/corpus_distill.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <thread>
#include <unordered_map>

#include <nlohmann/json.hpp>
#include <xxhash.h>

#include "core/input_area.h"
#include "corpus_format/codec.h"
#include "corpus_format/corpus_dir.h"
#include "libfuzzdriver/content_name.h"
#include "libfuzzdriver/corpus_replay.h"
#include "libfuzzdriver/file_io.h"
#include "libfuzzdriver/minimize_driver.h"
#include "libfuzzdriver/sanitizer_env.h"
#include "libfuzzdriver/target_info.h"
#include "libfuzzdriver/worker.h"

namespace cfuzz::driver {

namespace fs = std::filesystem;

namespace {

struct Input {
  std::string path;
  corpus::Entry values;
  std::uint64_t size = 0;
  std::vector<std::uint32_t> features;  // counter index * 8 + bucket bit
  std::uint64_t exec_ns = 0;
  bool ran = false;
  bool failed = false;
  std::string failure;
};

std::vector<std::string> input_files(const std::vector<std::string>& paths) {
  std::vector<std::string> files;
  for (const auto& p : paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      for (const auto& f : corpus::list_corpus_files(p)) files.push_back(f.string());
    } else if (fs::exists(p, ec)) {
      files.push_back(p);
    } else {
      throw std::runtime_error(p + ": no such file or directory");
    }
  }
  return files;
}

}  // namespace

int distill_corpus(const DistillOptions& o) {
  TargetInfo target = describe_target(o.target, "", fuzzing_environment());
  const TestInfo& test = target.select(o.fuzz);
  if (!test.error.empty()) throw std::runtime_error(test.name + " cannot run: " + test.error);
  if (o.raw &&
      (test.types.size() != 1 || (test.types[0] != corpus::Type::Bytes && test.types[0] != corpus::Type::String))) {
    throw std::runtime_error("--raw needs a fuzz test taking one []byte or string; " + test.name + " takes " +
                             corpus::format_type_list(test.types));
  }
  auto say = [&](const std::string& text, const nlohmann::json& event) {
    std::printf("%s\n", o.json ? event.dump().c_str() : text.c_str());
    std::fflush(stdout);
  };

  // Load, skipping what cannot be read, and without duplicates.
  std::vector<Input> inputs;
  std::size_t malformed = 0;
  std::unordered_map<std::uint64_t, std::size_t> seen;
  for (const auto& file : input_files(o.inputs)) {
    Input in;
    in.path = file;
    try {
      if (o.raw) {
        std::string bytes = read_file_bytes(file);
        if (test.types[0] == corpus::Type::Bytes) {
          in.values.emplace_back(corpus::Bytes(bytes.begin(), bytes.end()));
        } else {
          in.values.emplace_back(bytes);
        }
      } else {
        in.values = corpus::read_file(file);
        corpus::check_types(in.values, test.types, file);
      }
    } catch (const std::exception& e) {
      ++malformed;
      say("corpus minimize: skipping " + std::string(e.what()), {{"event", "skipped"}, {"reason", e.what()}});
      continue;
    }
    std::string encoded = corpus::encode(in.values);
    std::uint64_t h = XXH3_64bits(encoded.data(), encoded.size());
    if (seen.count(h) != 0) continue;
    seen[h] = inputs.size();
    in.size = core::entry_size(in.values);
    inputs.push_back(std::move(in));
  }

  // Run every input once, spread over the workers.
  std::vector<corpus::Entry> values;
  values.reserve(inputs.size());
  for (const auto& in : inputs) values.push_back(in.values);
  std::vector<ReplayResult> results =
      replay_corpus(target, test, values, {fuzzing_environment(), o.timeout, o.rss_limit_mb, o.parallel});
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    inputs[i].ran = results[i].ran;
    inputs[i].failed = results[i].failed;
    inputs[i].failure = std::move(results[i].failure);
    inputs[i].exec_ns = results[i].exec_ns;
    inputs[i].features = std::move(results[i].features);
  }

  std::size_t crashed = 0;
  for (const auto& in : inputs) {
    if (!in.failed) continue;
    ++crashed;
    say("corpus minimize: leaving out " + in.path + ", which fails: " + in.failure,
        {{"event", "failing_input"}, {"input", in.path}, {"failure", in.failure}});
  }

  // afl-cmin's choice: for every feature, the smallest (then fastest) input that has it.
  auto better = [&](std::size_t a, std::size_t b) {
    if (inputs[a].size != inputs[b].size) return inputs[a].size < inputs[b].size;
    if (inputs[a].exec_ns != inputs[b].exec_ns) return inputs[a].exec_ns < inputs[b].exec_ns;
    return a < b;
  };
  std::unordered_map<std::uint32_t, std::size_t> owner;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (!inputs[i].ran || inputs[i].failed) continue;
    for (std::uint32_t f : inputs[i].features) {
      auto it = owner.find(f);
      if (it == owner.end() || better(i, it->second)) owner[f] = i;
    }
  }
  std::vector<std::size_t> kept;
  for (const auto& [f, i] : owner) kept.push_back(i);
  std::sort(kept.begin(), kept.end());
  kept.erase(std::unique(kept.begin(), kept.end()), kept.end());
  // Drop chosen inputs made redundant by the rest, largest first.
  std::unordered_map<std::uint32_t, int> coverers;
  for (std::size_t i : kept) {
    for (std::uint32_t f : inputs[i].features) coverers[f]++;
  }
  std::vector<std::size_t> by_size = kept;
  std::sort(by_size.begin(), by_size.end(), [&](std::size_t a, std::size_t b) { return better(b, a); });
  std::vector<bool> dropped(inputs.size(), false);
  for (std::size_t i : by_size) {
    bool redundant = std::all_of(inputs[i].features.begin(), inputs[i].features.end(),
                                 [&](std::uint32_t f) { return coverers[f] > 1; });
    if (!redundant) continue;
    dropped[i] = true;
    for (std::uint32_t f : inputs[i].features) coverers[f]--;
  }

  make_directories(o.output);
  std::size_t written = 0;
  for (std::size_t i : kept) {
    if (dropped[i]) continue;
    std::string text = o.raw ? std::string() : corpus::encode(inputs[i].values);
    if (o.raw) {
      const auto& v = inputs[i].values[0];
      if (const auto* b = std::get_if<corpus::Bytes>(&v)) {
        text.assign(b->begin(), b->end());
      } else {
        text = std::get<std::string>(v);
      }
    }
    write_file_atomic(fs::path(o.output) / content_name(text), text);
    ++written;
  }
  say("corpus minimize: " + std::to_string(inputs.size()) + " distinct inputs (" + std::to_string(malformed) +
          " unreadable, " + std::to_string(crashed) + " failing) -> " + std::to_string(written) + " entries in " +
          o.output + ", keeping all " + std::to_string(owner.size()) + " coverage features",
      {{"event", "done"},
       {"inputs", inputs.size()},
       {"unreadable", malformed},
       {"failing", crashed},
       {"kept", written},
       {"features", owner.size()},
       {"output", o.output}});
  return 0;
}

}  // namespace cfuzz::driver
