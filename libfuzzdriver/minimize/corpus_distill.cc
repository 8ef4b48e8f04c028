#include "libfuzzdriver/minimize/corpus_distill.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include <nlohmann/json.hpp>
#include <xxhash.h>

#include "core/input_area.h"
#include "corpus_format/codec.h"
#include "corpus_format/corpus_dir.h"
#include "libfuzzdriver/corpus/content_name.h"
#include "libfuzzdriver/minimize/minimize_driver.h"
#include "libfuzzdriver/util/file_io.h"
#include "libfuzzdriver/worker/corpus_replay.h"
#include "libfuzzdriver/worker/sanitizer_env.h"
#include "libfuzzdriver/worker/target_info.h"
#include "libfuzzdriver/worker/worker.h"

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

void say(const DistillOptions& o, const std::string& text, const nlohmann::json& event) {
  std::printf("%s\n", o.json ? event.dump().c_str() : text.c_str());
  std::fflush(stdout);
}

// The inputs, skipping what cannot be read (counted in `malformed`), without duplicates.
std::vector<Input> load_inputs(const DistillOptions& o, const TestInfo& test, std::size_t* malformed) {
  std::vector<Input> inputs;
  std::unordered_set<std::uint64_t> seen;
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
      ++*malformed;
      say(o, "corpus minimize: skipping " + std::string(e.what()), {{"event", "skipped"}, {"reason", e.what()}});
      continue;
    }
    std::string encoded = corpus::encode(in.values);
    if (!seen.insert(XXH3_64bits(encoded.data(), encoded.size())).second) continue;
    in.size = core::entry_size(in.values);
    inputs.push_back(std::move(in));
  }
  return inputs;
}

// Runs every input once, spread over the workers, and records what each did.
void replay_inputs(const DistillOptions& o, const TargetInfo& target, const TestInfo& test,
                   std::vector<Input>& inputs) {
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
}

// afl-cmin's choice: for every feature, the smallest (then fastest) input that has it; then
// the chosen inputs that the rest make redundant are dropped, largest first. Returns the
// indices kept, in order, and in `features` how many features they cover.
std::vector<std::size_t> choose_inputs(const std::vector<Input>& inputs, std::size_t* features) {
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
  *features = owner.size();
  std::vector<std::size_t> kept;
  for (const auto& [f, i] : owner) kept.push_back(i);
  std::sort(kept.begin(), kept.end());
  kept.erase(std::unique(kept.begin(), kept.end()), kept.end());
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
  std::erase_if(kept, [&](std::size_t i) { return dropped[i]; });
  return kept;
}

// The chosen inputs as files named after their content in o.output: v1 files, or with
// --raw the bytes themselves.
void write_inputs(const DistillOptions& o, const std::vector<Input>& inputs, const std::vector<std::size_t>& chosen) {
  make_directories(o.output);
  for (std::size_t i : chosen) {
    std::string text;
    if (!o.raw) {
      text = corpus::encode(inputs[i].values);
    } else if (const auto* b = std::get_if<corpus::Bytes>(&inputs[i].values[0])) {
      text.assign(b->begin(), b->end());
    } else {
      text = std::get<std::string>(inputs[i].values[0]);
    }
    write_file_atomic(fs::path(o.output) / content_name(text), text);
  }
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
  std::size_t malformed = 0;
  std::vector<Input> inputs = load_inputs(o, test, &malformed);
  replay_inputs(o, target, test, inputs);
  std::size_t crashed = 0;
  for (const auto& in : inputs) {
    if (!in.failed) continue;
    ++crashed;
    say(o, "corpus minimize: leaving out " + in.path + ", which fails: " + in.failure,
        {{"event", "failing_input"}, {"input", in.path}, {"failure", in.failure}});
  }
  std::size_t features = 0;
  std::vector<std::size_t> chosen = choose_inputs(inputs, &features);
  write_inputs(o, inputs, chosen);
  say(o,
      "corpus minimize: " + std::to_string(inputs.size()) + " distinct inputs (" + std::to_string(malformed) +
          " unreadable, " + std::to_string(crashed) + " failing) -> " + std::to_string(chosen.size()) + " entries in " +
          o.output + ", keeping all " + std::to_string(features) + " coverage features",
      {{"event", "done"},
       {"inputs", inputs.size()},
       {"unreadable", malformed},
       {"failing", crashed},
       {"kept", chosen.size()},
       {"features", features},
       {"output", o.output}});
  return 0;
}

}  // namespace cfuzz::driver
