#include "runtime/libfuzzer/output_corpus.h"

#include "runtime/libfuzzer/libfuzzer_units.h"

namespace fuzzer::cfuzz {

namespace fs = std::filesystem;

void OutputCorpus::write(const std::string& file_name, const std::string& unit) {
  if (dir_.empty()) return;
  write_unit(dir_ / file_name, unit);
  known_.insert(file_name);
}

std::vector<std::pair<std::string, std::string>> OutputCorpus::take_new_units() {
  std::vector<std::pair<std::string, std::string>> units;
  if (reload_ <= 0 || dir_.empty() || Clock::now() < next_look_) return units;
  next_look_ = Clock::now() + std::chrono::seconds(reload_);
  std::error_code ec;
  auto mtime = fs::last_write_time(dir_, ec);
  if (ec || mtime == mtime_) return units;
  mtime_ = mtime;
  for (const auto& path : unit_files(dir_)) {
    std::string name = path.filename().string();
    if (!known_.insert(name).second) continue;
    try {
      units.emplace_back(name, read_unit(path));
    } catch (const std::string&) {
      continue;  // gone meanwhile
    }
  }
  return units;
}

}  // namespace fuzzer::cfuzz
