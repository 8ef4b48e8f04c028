// Reading and writing whole files, with errors that name the file. Corpus files are
// written atomically: a reader (or a later run after a crash) sees the old file or the new
// one, never a torn mix.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace cfuzz::driver {

// An I/O failure; what() is one line: "cannot write PATH: No space left on device".
class FileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The whole content of `path`.
std::string read_file_bytes(const std::filesystem::path& path);

// How soon a write is on disk: at once (the file and the rename flushed), or with a batch
// of writes that one sync_file_system call makes durable together.
enum class Durability { Now, WithBatch };

// Replaces `path` with `data`: writes a temporary file in the same directory, renames it
// over `path` and (Durability::Now) flushes the file before and the directory after. On
// failure the temporary file is removed and `path` is left as it was. New files get mode
// 0666 minus the umask. Readers never see a partial file either way.
void write_file_atomic(const std::filesystem::path& path, std::string_view data,
                       Durability durability = Durability::Now);

// Flushes the file system holding `dir` (syncfs): the end of a batch of writes.
void sync_file_system(const std::filesystem::path& dir);

// Creates `dir` and its parents when missing; an error if it exists as something else.
void make_directories(const std::filesystem::path& dir);

// Removes the temporary files write_file_atomic left in `dir` when its process was killed
// mid-write: those older than 10 minutes (a write takes milliseconds, and another cfuzz on
// the same directory may be writing right now). Best effort: errors are ignored.
void remove_stale_temporary_files(const std::filesystem::path& dir);

// (The files of a corpus directory, without write_file_atomic's temporary files, are
// corpus::list_corpus_files in corpus_format/corpus_dir.h.)

}  // namespace cfuzz::driver
