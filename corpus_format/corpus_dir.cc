#include "corpus_format/corpus_dir.h"

#include <algorithm>

#include "corpus_format/corpus_error.h"

namespace cfuzz::corpus {

bool is_temporary_file_name(std::string_view name) {
  return !name.empty() && name[0] == '.' && name.find(kTempFileMarker) != std::string_view::npos;
}

std::vector<std::string> list_corpus_file_names(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  if (!std::filesystem::exists(dir, ec)) return names;
  std::filesystem::directory_iterator it(dir, ec);
  if (ec) throw CorpusError(dir.string(), 0, "cannot list the directory: " + ec.message());
  for (const auto& entry : it) {
    std::string name = entry.path().filename().string();
    if (is_temporary_file_name(name)) continue;
    std::error_code type_ec;
    if (entry.is_regular_file(type_ec)) names.push_back(std::move(name));
  }
  // Sorted as plain strings: comparing paths component by component costs more than
  // reading the files, in a directory of 10^5 entries.
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<std::filesystem::path> list_corpus_files(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> files;
  for (const auto& name : list_corpus_file_names(dir)) files.push_back(dir / name);
  return files;
}

}  // namespace cfuzz::corpus
