// The library side of `cfuzz corpus`: converting raw files to v1 entries and back,
// showing entries, and rewriting them in canonical form. The command line (cmd/) only
// turns flags into these calls and prints what they return.
//
// Errors are exceptions whose what() is one line naming the file: corpus::CorpusError for
// a malformed entry (with its line number), FileError for I/O, CorpusToolError otherwise.
#pragma once

#include <cstddef>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "corpus_format/value.h"

namespace cfuzz::driver {

class CorpusToolError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ConvertedFile {
  std::filesystem::path input;
  std::filesystem::path output;
  std::size_t raw_bytes = 0;  // size of the raw data (input of bin2v1, output of v12bin)
  bool unchanged = false;     // the output already existed with exactly this content
};

// bin2v1: each raw file becomes one v1 entry holding its bytes as a single value of
// `type` (Type::Bytes for []byte, or Type::String), written atomically to
// out_dir/<content_name of the entry>. out_dir is created when missing.
std::vector<ConvertedFile> convert_bin_to_v1(const std::vector<std::filesystem::path>& inputs,
                                             const std::filesystem::path& out_dir,
                                             corpus::Type type = corpus::Type::Bytes);

// v12bin: each entry, which must hold exactly one []byte or string value, becomes a raw
// file with those bytes, written atomically to out_dir under the entry's own file name.
// All inputs are checked (and their names compared) before anything is written.
std::vector<ConvertedFile> convert_v1_to_bin(const std::vector<std::filesystem::path>& inputs,
                                             const std::filesystem::path& out_dir);

struct ShowOptions {
  // Longest []byte or string shown in full; longer ones are cut with a note. 0: no limit.
  std::size_t max_bytes = 256;
};

// One line per value: "  0: []byte "\x00ab" (3 bytes)", "  1: float64 NaN (bits 0x...)".
std::string show_entry(const corpus::Entry& entry, const ShowOptions& options = {});

// "FILE:" followed by show_entry of the file's entry.
std::string show_file(const std::filesystem::path& path, const ShowOptions& options = {});

// The files `paths` stand for: a file is itself, a directory its regular files (not
// recursing), in the order given and, within a directory, sorted by name.
std::vector<std::filesystem::path> expand_corpus_paths(const std::vector<std::filesystem::path>& paths);

struct FormatResult {
  std::vector<std::filesystem::path> checked;        // every entry file looked at
  std::vector<std::filesystem::path> non_canonical;  // those not in canonical form
};

// fmt: decodes every entry in `paths` (files or directories) and, unless check_only,
// rewrites those whose bytes differ from the canonical encoding, atomically. Entries keep
// their names. Every entry is decoded first: a malformed one throws before anything is rewritten.
FormatResult format_corpus(const std::vector<std::filesystem::path>& paths, bool check_only);

}  // namespace cfuzz::driver
