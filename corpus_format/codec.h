// Reading and writing `go test fuzz v1` corpus files.
//
//   go test fuzz v1
//   []byte("\x00\x01")
//   int64(-3)
//
// decode() accepts everything Go 1.19's decoder accepts and nothing it rejects; encode()
// writes exactly the bytes Go 1.19 writes for the same values, so encode(decode(f)) == f
// for every file written by either tool.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "corpus_format/corpus_error.h"
#include "corpus_format/value.h"

namespace cfuzz::corpus {

inline constexpr std::string_view kHeader = "go test fuzz v1";

// Throws CorpusError naming `filename` (used only for messages), the 1-based line and
// what was expected there.
Entry decode(std::string_view text, std::string_view filename = {});

// Throws std::invalid_argument for an empty entry (Go refuses to marshal zero values).
std::string encode(const Entry& entry);

// Throws CorpusError (line 0) when the entry's types differ from `want`, in Go's words:
// "wrong number of values in corpus entry: 1, want 2" or
// "mismatched types in corpus entry: [string int], want [[]uint8 int8]".
void check_types(const Entry& entry, const std::vector<Type>& want, std::string_view filename = {});

// Reads and decodes one file; I/O errors are CorpusErrors naming the file too.
Entry read_file(const std::string& path);

}  // namespace cfuzz::corpus
