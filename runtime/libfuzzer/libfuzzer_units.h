// Units, libFuzzer's word for inputs as files: how the libFuzzer front end lists corpus
// directories, reads and writes unit files, and maps a unit to a fuzz test's input. A test
// taking one []byte or string takes the unit's bytes; any other test's units are
// `go test fuzz v1` files, so that a typed test's corpus stays readable by Go's tools.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "corpus_format/value.h"
#include "runtime/engine/engine_namespace.h"

namespace fuzzer::cfuzz {

// The input a unit holds, cut to `max_len` bytes if raw; nullopt for a unit that is not a
// v1 file of the test's types.
std::optional<corpus::Entry> entry_of_unit(const std::string& bytes, const std::vector<corpus::Type>& types, bool raw,
                                           std::uint64_t max_len);

// The bytes of a raw unit's input (its one []byte or string).
std::string raw_bytes(const corpus::Entry& e);

// How a test's inputs are units: its types, and whether a unit is the raw bytes of its one
// []byte or string (else `go test fuzz v1` text).
struct UnitForm {
  std::vector<corpus::Type> types;
  bool raw = true;

  explicit UnitForm(std::vector<corpus::Type> t);
  std::optional<corpus::Entry> entry(const std::string& bytes, std::uint64_t max_len) const {
    return entry_of_unit(bytes, types, raw, max_len);
  }
  std::string unit(const corpus::Entry& e) const;
};

// The name libFuzzer gives a unit's file: the SHA-1 of its bytes, in hex. Two processes
// that find the same input write one file.
std::string unit_name(const std::string& unit);

// The files of a corpus directory as libFuzzer lists them: recursively, not descending into
// directories whose names start with a dot, in name order.
std::vector<std::filesystem::path> unit_files(const std::filesystem::path& dir);

// Reads a unit (throws std::string naming the file).
std::string read_unit(const std::filesystem::path& path);

// Writes a unit under a temporary name and renames it, so that a run ended by a signal
// never leaves a torn unit (throws std::string naming the file).
void write_unit(const std::filesystem::path& path, const std::string& unit);

}  // namespace fuzzer::cfuzz
