#include "corpus_format/corpus_dir.h"

#include <algorithm>

#include "corpus_format/corpus_error.h"

namespace cfuzz::corpus {

bool is_temporary_file_name(std::string_view name) {
  return !name.empty() && name[0] == '.' && name.find(kTempFileMarker) != std::string_view::npos;
}

std::vector<std::filesystem::path> list_corpus_files(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  if (!std::filesystem::exists(dir, ec)) return files;
  std::filesystem::directory_iterator it(dir, ec);
  if (ec) throw CorpusError(dir.string(), 0, "cannot list the directory: " + ec.message());
  // Sorted by name as plain strings: comparing paths component by component costs more
  // than reading the files, in a directory of 10^5 entries.
  std::vector<std::string> names;
  for (const auto& entry : it) {
    std::string name = entry.path().filename().string();
    if (is_temporary_file_name(name)) continue;
    std::error_code type_ec;
    if (entry.is_regular_file(type_ec)) names.push_back(std::move(name));
  }
  std::sort(names.begin(), names.end());
  files.reserve(names.size());
  for (const auto& name : names) files.push_back(dir / name);
  return files;
}

}  // namespace cfuzz::corpus
