// Whole files in tests: read, write, list.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace cfuzz::test {

// The whole content of `path`; throws std::runtime_error naming it when it cannot be opened.
std::string read_file(const std::filesystem::path& path);

// Replaces `path` with `data`, creating missing parent directories; throws
// std::runtime_error naming it on failure.
void write_file(const std::filesystem::path& path, std::string_view data);

// The regular files directly in `dir`, sorted; none when `dir` does not exist.
std::vector<std::filesystem::path> files_in(const std::filesystem::path& dir);

}  // namespace cfuzz::test
