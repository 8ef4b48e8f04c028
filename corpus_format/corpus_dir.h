// Which files of a corpus directory (testdata/fuzz/<Name>/, a cache directory) are its
// entries: the regular files directly inside it, minus the temporary files an interrupted
// atomic write may have left. Shared by the seed run in the target and by the coordinator,
// so that both see the same entries.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace cfuzz::corpus {

// Part of the name an atomic write gives its temporary file: ".<name>.cfuzz-tmp-<random>".
inline constexpr std::string_view kTempFileMarker = ".cfuzz-tmp-";

bool is_temporary_file_name(std::string_view file_name);

// The entries of `dir`, sorted by name (symbolic links to regular files included,
// sub-directories ignored). Throws std::filesystem::filesystem_error if `dir` cannot be
// read; a missing directory has no entries.
std::vector<std::filesystem::path> list_corpus_files(const std::filesystem::path& dir);
// The same, as file names only: a path object per entry weighs several hundred bytes,
// which a cache of 10^5 entries feels.
std::vector<std::string> list_corpus_file_names(const std::filesystem::path& dir);

}  // namespace cfuzz::corpus
