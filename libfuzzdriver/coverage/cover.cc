#include "libfuzzdriver/coverage/cover.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "libfuzzdriver/corpus/cache_dir.h"
#include "libfuzzdriver/corpus/testdata_corpus.h"
#include "libfuzzdriver/coverage/coverage_html.h"
#include "libfuzzdriver/coverage/coverage_report.h"
#include "libfuzzdriver/coverage/llvm_cov_report.h"
#include "libfuzzdriver/coverage/sancov_source_lines.h"
#include "libfuzzdriver/coverage/stats_log.h"
#include "libfuzzdriver/util/file_io.h"
#include "libfuzzdriver/worker/corpus_replay.h"
#include "libfuzzdriver/worker/pc_table.h"
#include "libfuzzdriver/worker/sanitizer_env.h"
#include "libfuzzdriver/worker/target_info.h"

namespace cfuzz::driver {

namespace fs = std::filesystem;

namespace {

// A private directory for the raw profiles, removed however cover ends.
class ProfileDir {
 public:
  ProfileDir() {
    std::string pattern = (fs::temp_directory_path() / "cfuzz-cover-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("cannot create a temporary directory");
    path_ = pattern;
  }
  ~ProfileDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace

int cover_target(const CoverOptions& o) {
  ProfileDir profiles;
  // A target built with source-based coverage writes a profile whenever it exits: into
  // the private directory, not the user's.
  std::vector<std::string> env = fuzzing_environment();
  env.push_back(profile_file_env(profiles.path()));
  TargetInfo target = describe_target(o.target, o.srcdir, env);
  const TestInfo& test = target.select(o.fuzz);
  if (!test.error.empty()) throw std::runtime_error(test.name + " cannot run: " + test.error);
  if (test.types.empty()) throw std::runtime_error(test.name + "'s fuzz function takes no values");
  // Only what the workers write while replaying counts.
  for (const auto& f : fs::directory_iterator(profiles.path())) fs::remove(f.path());

  std::vector<corpus::Entry> inputs = test.seeds;
  for (auto& [name, values] : read_testdata(target, test)) inputs.push_back(std::move(values));
  // Its inputs are run here as they are in `cfuzz run`: the same check of whose they are.
  check_cache_root_owner(cache_root(o.cachedir), o.shared_cache);
  std::string cache = cache_dir_for(o.cachedir, target.abs_path, test.name);
  CacheContents cached = load_cache(cache, test.types, test.shapes);
  for (auto& c : cached.entries) inputs.push_back(std::move(c.values));
  for (const auto& why : cached.skipped.unusable) std::fprintf(stderr, "cfuzz cover: skipping %s\n", why.c_str());
  for (const auto& why : cached.skipped.too_large) std::fprintf(stderr, "cfuzz cover: skipping %s\n", why.c_str());

  ReplaySetup setup{env, o.timeout, o.rss_limit_mb, o.parallel};
  if (target.source_coverage) setup.exit_grace = std::chrono::seconds(60);
  std::vector<ReplayResult> results = replay_corpus(target, test, inputs, setup);

  CoverageReport report;
  report.target = target.abs_path;
  report.test = test.name;
  report.inputs = inputs.size();
  std::vector<bool> reached(target.counters, false);
  for (const auto& r : results) {
    if (r.failed) ++report.failing;
    for (std::uint32_t f : r.features) reached[f / 8] = true;
  }
  if (target.source_coverage) {
    report.method = "llvm-cov";
    add_llvm_cov_lines(target.abs_path, profiles.path(), report);
  } else {
    report.method = "sancov";
    add_sancov_source_lines(read_pc_table(target.abs_path, fuzzing_environment()), reached, report);
  }

  std::string text = o.json ? format_coverage_json(report) : format_coverage_text(report);
  std::fwrite(text.data(), 1, text.size(), stdout);
  if (!o.output.empty()) {
    make_directories(o.output);
    std::string srcdir = !o.srcdir.empty() ? o.srcdir : target.srcdir;
    write_coverage_html(report, read_stats(stats_path(cache)), srcdir, o.output);
    if (!o.json) std::printf("wrote %s\n", (fs::path(o.output) / "index.html").c_str());
  }
  return 0;
}

}  // namespace cfuzz::driver
