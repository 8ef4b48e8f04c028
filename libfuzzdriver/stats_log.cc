#include "libfuzzdriver/stats_log.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "libfuzzdriver/file_io.h"

namespace cfuzz::driver {

namespace {

nlohmann::json to_json(const StatsRecord& r) {
  return {{"run", r.run},       {"time", r.time},   {"elapsed", r.elapsed},  {"execs", r.execs},
          {"corpus", r.corpus}, {"edges", r.edges}, {"features", r.features}};
}

std::size_t count_lines(const std::string& path) {
  std::ifstream in(path);
  std::size_t n = 0;
  for (std::string line; std::getline(in, line);) ++n;
  return n;
}

// Keeps every other record, and each run's first and last.
void thin(const std::string& path) {
  std::vector<StatsRecord> records = read_stats(path);
  std::string text;
  for (std::size_t i = 0; i < records.size(); ++i) {
    bool first = i == 0 || records[i - 1].run != records[i].run;
    bool last = i + 1 == records.size() || records[i + 1].run != records[i].run;
    if (first || last || i % 2 == 0) text += to_json(records[i]).dump() + "\n";
  }
  write_file_atomic(path, text);
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

bool append_stats(const std::string& path, const StatsRecord& record, std::size_t max_records) {
  std::string line = to_json(record).dump() + "\n";
  int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0 && errno == ENOENT) {  // the first run of this target: no cache directory yet
    try {
      make_directories(std::filesystem::path(path).parent_path());
    } catch (const std::exception&) {
      return false;
    }
    fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  }
  if (fd < 0) return false;
  bool ok = ::write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size());
  // Counting the lines only when the size says there may be too many: records are of
  // about the same length.
  off_t size = ::lseek(fd, 0, SEEK_END);
  ::close(fd);
  bool maybe_full = size > 0 && static_cast<std::size_t>(size) / line.size() >= max_records;
  if (ok && maybe_full && count_lines(path) > max_records) {
    try {
      thin(path);
    } catch (const std::exception&) {
      return false;
    }
  }
  return ok;
}

std::vector<StatsRecord> read_stats(const std::string& path) {
  std::vector<StatsRecord> out;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object()) continue;
    StatsRecord r;
    r.run = j.value("run", std::string());
    r.time = j.value("time", 0.0);
    r.elapsed = j.value("elapsed", 0.0);
    r.execs = j.value("execs", std::uint64_t{0});
    r.corpus = j.value("corpus", std::uint64_t{0});
    r.edges = j.value("edges", std::uint64_t{0});
    r.features = j.value("features", std::uint64_t{0});
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace cfuzz::driver
