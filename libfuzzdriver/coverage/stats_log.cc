#include "libfuzzdriver/coverage/stats_log.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "libfuzzdriver/util/file_io.h"

namespace cfuzz::driver {

namespace {

nlohmann::json to_json(const StatsRecord& r) {
  return {{"run", r.run},       {"time", r.time},   {"elapsed", r.elapsed},  {"execs", r.execs},
          {"corpus", r.corpus}, {"edges", r.edges}, {"features", r.features}};
}

// Keeps every other record, and each run's first and last.
void thin(const Directory& dir, const std::string& name, const std::vector<StatsRecord>& records) {
  std::string text;
  for (std::size_t i = 0; i < records.size(); ++i) {
    bool first = i == 0 || records[i - 1].run != records[i].run;
    bool last = i + 1 == records.size() || records[i + 1].run != records[i].run;
    if (first || last || i % 2 == 0) text += to_json(records[i]).dump() + "\n";
  }
  dir.write_file_atomic(name, text);
}

// A record's line is about 150 bytes; one far longer is not a record.
constexpr std::size_t kMaxLine = 4096;

// A number field: absent is 0; of another type, negative, or not finite, none.
std::optional<double> real_field(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end()) return 0.0;
  if (!it->is_number()) return std::nullopt;
  double v = it->get<double>();
  if (!std::isfinite(v) || v < 0) return std::nullopt;
  return v;
}

std::optional<std::uint64_t> count_field(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end()) return std::uint64_t{0};
  if (!it->is_number_unsigned()) return std::nullopt;
  return it->get<std::uint64_t>();
}

}  // namespace

std::string stats_path(const std::string& test_cache_dir) {
  std::string dir = test_cache_dir;
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  return dir + ".stats.jsonl";
}

std::string new_run_id() {
  auto now = std::chrono::system_clock::now().time_since_epoch();
  return std::to_string(std::chrono::duration_cast<std::chrono::seconds>(now).count()) + "-" + std::to_string(getpid());
}

void append_stats(const std::string& root, const std::string& path, const StatsRecord& record,
                  std::size_t max_records) {
  std::string line = to_json(record).dump() + "\n";
  std::filesystem::path p(path);
  // The first run of this target makes the cache directory.
  Directory dir = Directory::open_below(root, p.parent_path(), /*create=*/true);
  const std::string name = p.filename().string();
  dir.append(name, line);
  // Reading the records only when the size says there may be too many: records are of
  // about the same length.
  struct stat st;
  if (::fstatat(dir.fd(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return;
  if (static_cast<std::size_t>(st.st_size) / line.size() < max_records) return;
  std::vector<StatsRecord> records = read_stats(path);
  if (records.size() > max_records || static_cast<std::uint64_t>(st.st_size) > kStatsFileLimit) {
    thin(dir, name, records);
  }
}

std::optional<StatsRecord> parse_stats_line(std::string_view line) {
  if (line.size() > kMaxLine) return std::nullopt;
  nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return std::nullopt;
  StatsRecord r;
  if (auto run = j.find("run"); run != j.end()) {
    if (!run->is_string()) return std::nullopt;
    r.run = run->get<std::string>();
  }
  auto time = real_field(j, "time");
  auto elapsed = real_field(j, "elapsed");
  auto execs = count_field(j, "execs");
  auto corpus = count_field(j, "corpus");
  auto edges = count_field(j, "edges");
  auto features = count_field(j, "features");
  if (!time || !elapsed || !execs || !corpus || !edges || !features) return std::nullopt;
  r.time = *time;
  r.elapsed = *elapsed;
  r.execs = *execs;
  r.corpus = *corpus;
  r.edges = *edges;
  r.features = *features;
  return r;
}

std::vector<StatsRecord> read_stats(const std::string& path) {
  std::string text;
  try {
    text = read_untrusted_file(path, kStatsFileLimit);
  } catch (const FileError&) {
    return {};  // missing, a link, too big: no records
  }
  return parse_stats(text);
}

std::vector<StatsRecord> parse_stats(std::string_view text) {
  std::vector<StatsRecord> out;
  std::string_view rest = text;
  while (!rest.empty()) {
    std::size_t end = rest.find('\n');
    if (end == std::string_view::npos) break;  // torn: a run killed mid-write
    if (auto r = parse_stats_line(rest.substr(0, end))) out.push_back(std::move(*r));
    rest.remove_prefix(end + 1);
  }
  return out;
}

}  // namespace cfuzz::driver
