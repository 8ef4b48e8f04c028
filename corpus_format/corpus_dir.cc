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
  for (const auto& entry : it) {
    if (is_temporary_file_name(entry.path().filename().string())) continue;
    std::error_code type_ec;
    if (entry.is_regular_file(type_ec)) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace cfuzz::corpus
