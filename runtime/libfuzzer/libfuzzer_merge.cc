#include "runtime/libfuzzer/libfuzzer_merge.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <unordered_set>

#include "runtime/libfuzzer/child_process.h"
#include "runtime/libfuzzer/libfuzzer_units.h"

namespace fuzzer::cfuzz {

namespace {

namespace fs = std::filesystem;

struct UnitRecord {
  std::string path;
  std::uint64_t size = 0;
  bool started = false;
  bool done = false;  // FT seen
  std::vector<std::uint32_t> features, counters;
};

struct ControlFile {
  std::size_t first_corpus = 0;  // units from the output directory, listed first
  std::vector<UnitRecord> units;
  std::size_t started = 0;  // units with a STARTED record
  std::string last_failure;
};

void say(const std::string& line) { std::fprintf(stderr, "%s\n", line.c_str()); }

// False for a file that is not a control file (or is cut short where no record can end).
bool parse_control_file(const std::string& path, ControlFile* cf) {
  std::ifstream in(path);
  std::size_t n = 0;
  if (!(in >> n >> cf->first_corpus) || n == 0 || n > 10000000 || cf->first_corpus > n) return false;
  std::string line;
  std::getline(in, line);
  cf->units.assign(n, {});
  for (auto& u : cf->units) {
    if (!std::getline(in, u.path)) return false;
  }
  std::size_t last = SIZE_MAX;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string marker;
    std::size_t i = 0;
    if (!(words >> marker >> i)) continue;  // a torn last line
    if (marker == "STARTED") {
      if (i != cf->started || i >= n) return false;
      cf->units[i].started = true;
      words >> cf->units[i].size;
      last = i;
      ++cf->started;
    } else if ((marker == "FT" || marker == "COV") && i == last) {
      auto& list = marker == "FT" ? cf->units[i].features : cf->units[i].counters;
      for (std::uint32_t v; words >> v;) list.push_back(v);
      if (marker == "FT") cf->units[i].done = true;
    } else {
      return false;
    }
  }
  if (last != SIZE_MAX && !cf->units[last].done) cf->last_failure = cf->units[last].path;
  return true;
}

bool write_control_file(const std::string& path, const std::vector<UnitRecord>& units, std::size_t first_corpus) {
  std::ofstream out(path, std::ios::trunc);
  out << units.size() << "\n" << first_corpus << "\n";
  for (const auto& u : units) out << u.path << "\n";
  return static_cast<bool>(out.flush());
}

std::vector<UnitRecord> list_by_size(const fs::path& dir) {
  std::vector<UnitRecord> units;
  for (const auto& p : unit_files(dir)) {
    std::error_code ec;
    units.push_back(UnitRecord{p.string(), fs::file_size(p, ec), false, false, {}, {}});
  }
  std::stable_sort(units.begin(), units.end(), [](const auto& a, const auto& b) { return a.size < b.size; });
  return units;
}

// Reads what an earlier merge with this control file already ran (`known`, whose units
// need not run again, or how many `attempts` a merge cut short still needs), else writes a
// new control file of the units to run. An exit code when the merge ends here.
std::optional<int> prepare_control_file(const std::string& cf_path, const std::vector<UnitRecord>& old_units,
                                        const std::vector<UnitRecord>& new_units, std::vector<UnitRecord>* known,
                                        std::size_t* attempts) {
  ControlFile cf;
  std::error_code ec;
  if (fs::exists(cf_path, ec) && fs::file_size(cf_path, ec) > 0) {
    say("MERGE-OUTER: non-empty control file provided: '" + cf_path + "'");
    if (parse_control_file(cf_path, &cf)) {
      say("MERGE-OUTER: control file ok, " + std::to_string(cf.units.size()) +
          " files total, first not processed file " + std::to_string(cf.started));
      if (!cf.last_failure.empty()) {
        say("MERGE-OUTER: '" + cf.last_failure +
            "' will be skipped as unlucky (merge has stumbled on it the last time)");
      }
      if (cf.started >= cf.units.size()) {
        if (cf.units.size() == old_units.size() + new_units.size()) {
          say("MERGE-OUTER: nothing to do, merge has been completed before");
          return 0;
        }
        say("MERGE-OUTER: starting merge from scratch, but reusing coverage information from the given control file");
        *known = cf.units;
      } else {
        *attempts = cf.units.size() - cf.started;  // resume where it stopped
      }
    } else {
      say("MERGE-OUTER: bad control file, will overwrite it");
    }
  }
  if (*attempts == 0) {
    std::set<std::string> known_paths;
    for (const auto& k : *known) known_paths.insert(k.path);
    std::vector<UnitRecord> todo;
    std::size_t first = 0;
    for (const auto& u : old_units) {
      if (!known_paths.count(u.path)) {
        todo.push_back(u);
        ++first;
      }
    }
    for (const auto& u : new_units) {
      if (!known_paths.count(u.path)) todo.push_back(u);
    }
    say("MERGE-OUTER: " + std::to_string(old_units.size() + new_units.size()) + " files, " +
        std::to_string(old_units.size()) + " in the initial corpus, " + std::to_string(known->size()) +
        " processed earlier");
    if (!write_control_file(cf_path, todo, first)) {
      say("MERGE-OUTER: failed to write to the control file: " + cf_path);
      return 1;
    }
    *attempts = todo.size();
  }

  return std::nullopt;
}

// Greedy: the first corpus's features first, then new units, smallest first (more features
// first among equals), each written to `dir` if it adds a feature. Says what was added.
void add_new_units(const ControlFile& done, const std::vector<UnitRecord>& known, const std::string& dir,
                   std::int64_t max_len) {
  std::unordered_set<std::uint32_t> features, initial_cov;
  std::vector<const UnitRecord*> candidates;
  for (std::size_t i = 0; i < done.units.size(); ++i) {
    const UnitRecord& u = done.units[i];
    if (i < done.first_corpus) {
      features.insert(u.features.begin(), u.features.end());
      initial_cov.insert(u.counters.begin(), u.counters.end());
    } else if (u.done) {
      candidates.push_back(&u);
    }
  }
  for (const auto& k : known) {
    if (k.done) candidates.push_back(&k);
  }
  std::stable_sort(candidates.begin(), candidates.end(), [](const UnitRecord* a, const UnitRecord* b) {
    return a->size != b->size ? a->size < b->size : a->features.size() > b->features.size();
  });
  std::size_t before = features.size();
  std::unordered_set<std::uint32_t> new_cov;
  std::size_t added = 0;
  for (const UnitRecord* u : candidates) {
    bool adds = false;
    for (std::uint32_t f : u->features) adds |= features.insert(f).second;
    if (!adds) continue;
    for (std::uint32_t c : u->counters) {
      if (!initial_cov.count(c)) new_cov.insert(c);
    }
    std::ifstream in(u->path, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (max_len > 0 && bytes.size() > static_cast<std::size_t>(max_len))
      bytes.resize(static_cast<std::size_t>(max_len));
    write_unit(fs::path(dir) / unit_name(bytes), bytes);
    ++added;
  }
  say("MERGE-OUTER: " + std::to_string(added) + " new files with " + std::to_string(features.size() - before) +
      " new features added; " + std::to_string(new_cov.size()) + " new coverage edges");
}

}  // namespace

int merge_outer(const LibFuzzerOptions& o, int argc, char** argv) {
  std::vector<std::string> dirs;
  for (const auto& in : o.inputs) {
    std::error_code ec;
    if (!fs::is_directory(in, ec)) {
      say("ERROR: " + in + ": -merge=1 takes corpus directories");
      return 1;
    }
    dirs.push_back(in);
  }
  if (dirs.size() < 2) {
    say("INFO: Merge requires two or more corpus dirs");
    return 0;
  }
  std::vector<UnitRecord> old_units = list_by_size(dirs[0]), new_units;
  for (std::size_t d = 1; d < dirs.size(); ++d) {
    auto more = list_by_size(dirs[d]);
    new_units.insert(new_units.end(), more.begin(), more.end());
  }
  std::string cf_path = o.merge_control_file;
  bool temporary = cf_path.empty();
  if (temporary) {
    const char* tmp = std::getenv("TMPDIR");
    cf_path = std::string(tmp != nullptr ? tmp : "/tmp") + "/libFuzzerTemp.Merge" + std::to_string(getpid()) + ".txt";
  }

  std::vector<UnitRecord> known;
  std::size_t attempts = 0;
  if (auto code = prepare_control_file(cf_path, old_units, new_units, &known, &attempts)) return *code;

  std::error_code ec;
  std::vector<std::string> inner = own_command(argc, argv, {"-merge", "-merge_control_file", "-merge_inner"},
                                               {"-merge_control_file=" + cf_path, "-merge_inner=1"});
  for (std::size_t attempt = 1; attempt <= attempts; ++attempt) {
    say("MERGE-OUTER: attempt " + std::to_string(attempt));
    if (run_child(inner, ChildOutput::Inherit).exit_code == 0) {
      say("MERGE-OUTER: successful in " + std::to_string(attempt) + " attempt(s)");
      break;
    }
  }
  say("MERGE-OUTER: the control file has " + std::to_string(fs::file_size(cf_path, ec)) + " bytes");
  ControlFile done;
  if (!parse_control_file(cf_path, &done)) {
    say("MERGE: failed to parse the control file (unexpected error)");
    return 1;
  }

  add_new_units(done, known, dirs[0], o.max_len);
  if (temporary) fs::remove(cf_path, ec);
  return 0;
}

int merge_inner(const LibFuzzerOptions& o, std::uint64_t max_len, const UnitFeatures& run) {
  ControlFile cf;
  if (!parse_control_file(o.merge_control_file, &cf)) {
    say("MERGE-INNER: cannot read the control file '" + o.merge_control_file + "'");
    return 1;
  }
  say("MERGE-INNER: using the control file '" + o.merge_control_file + "'");
  if (!cf.last_failure.empty())
    say("MERGE-INNER: '" + cf.last_failure + "' caused a failure at the previous merge step");
  say("MERGE-INNER: " + std::to_string(cf.units.size()) + " total files; " + std::to_string(cf.started) +
      " processed earlier; will process " + std::to_string(cf.units.size() - cf.started) + " files now");
  FILE* out = std::fopen(o.merge_control_file.c_str(), "a");
  if (out == nullptr) {
    say("MERGE-INNER: cannot append to the control file '" + o.merge_control_file + "'");
    return 1;
  }
  std::unordered_set<std::uint32_t> seen_features, seen_counters;
  for (std::size_t i = cf.started; i < cf.units.size(); ++i) {
    std::ifstream in(cf.units[i].path, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (bytes.size() > max_len) bytes.resize(max_len);
    // On disk before the unit runs: if it kills this process, the next one skips it.
    std::fprintf(out, "STARTED %zu %zu\n", i, bytes.size());
    std::fflush(out);
    std::vector<std::uint32_t> features = run(bytes);
    std::string ft = "FT " + std::to_string(i), cov = "COV " + std::to_string(i);
    std::uint32_t last_counter = UINT32_MAX;
    for (std::uint32_t f : features) {
      if (seen_features.insert(f).second) ft += " " + std::to_string(f);
      std::uint32_t counter = f / 8;
      if (counter != last_counter && seen_counters.insert(counter).second) cov += " " + std::to_string(counter);
      last_counter = counter;
    }
    std::fprintf(out, "%s\n%s\n", ft.c_str(), cov.c_str());
    std::fflush(out);
  }
  std::fclose(out);
  return 0;
}

}  // namespace fuzzer::cfuzz
