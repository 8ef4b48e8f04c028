// Reading and writing whole files, with errors that name the file. Corpus files are
// written atomically: a reader (or a later run after a crash) sees the old file or the new
// one, never a torn mix.
#pragma once

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cfuzz::driver {

// An I/O failure; what() is one line: "cannot write PATH: No space left on device".
class FileError : public std::runtime_error {
 public:
  explicit FileError(const std::string& what, int error = 0) : std::runtime_error(what), error_(error) {}
  // The errno behind it: ELOOP when a symbolic link was refused, EFBIG for a file over a
  // read limit; 0 when none.
  int error() const { return error_; }

 private:
  int error_;
};

// Whether `err` says the storage takes no writes now (full, over quota, read-only, not
// permitted): trying other files there is pointless.
bool is_storage_refusal(int err);

// The whole content of `path`.
std::string read_file_bytes(const std::filesystem::path& path);

// For files someone else may have put there (a shared cache): at most `limit` bytes, never
// more in memory. A bigger file, by its size or by what a read finds when it grew after
// being measured, is a FileError with EFBIG, unread. A symbolic link at `path` is refused
// (ELOOP), and anything but a regular file too.
std::string read_untrusted_file(const std::filesystem::path& path, std::uint64_t limit);

// How soon a write is on disk: at once (the file and the rename flushed), or with a batch
// of writes that one sync_file_system call makes durable together.
enum class Durability { Now, WithBatch };

// Replaces `path` with `data`: writes a temporary file in the same directory, renames it
// over `path` and (Durability::Now) flushes the file before and the directory after. On
// failure the temporary file is removed and `path` is left as it was. New files get mode
// 0666 minus the umask. Readers never see a partial file either way.
void write_file_atomic(const std::filesystem::path& path, std::string_view data,
                       Durability durability = Durability::Now);

// A directory held open, so that files are made in it by descriptor (openat, renameat):
// nothing can swap a symbolic link into the path between a check and a write.
class Directory {
 public:
  // `dir` as given (links in it are followed: the user named it).
  static Directory open(const std::filesystem::path& dir);
  // `dir` below `root`: each component after `root` is opened without following a
  // symbolic link (one there is a FileError with ELOOP naming it) and, with `create`, made
  // when missing. For trees others can write to, such as a shared cache: whoever can
  // write there cannot make a write land outside it.
  static Directory open_below(const std::filesystem::path& root, const std::filesystem::path& dir, bool create);

  Directory(Directory&& other) noexcept : fd_(other.fd_), path_(std::move(other.path_)) { other.fd_ = -1; }
  Directory& operator=(Directory&& other) noexcept {
    std::swap(fd_, other.fd_);
    std::swap(path_, other.path_);
    return *this;
  }
  Directory(const Directory&) = delete;
  ~Directory();
  int fd() const { return fd_; }
  const std::filesystem::path& path() const { return path_; }

  // write_file_atomic of the file `name` in this directory. A symbolic link where the
  // file should be is refused (ELOOP), never replaced or written through.
  void write_file_atomic(const std::string& name, std::string_view data, Durability durability = Durability::Now) const;
  // Appends `data` to `name` with one write, creating it (mode 0644 minus the umask). Only
  // a regular file with one link is written: a symbolic link (ELOOP), a second name of
  // another file, a FIFO or a device is refused. A write cut short (a full disk) is taken
  // back, so that no torn record is left.
  void append(const std::string& name, std::string_view data) const;

 private:
  Directory(int fd, std::filesystem::path path) : fd_(fd), path_(std::move(path)) {}
  int fd_;
  std::filesystem::path path_;
};

// Flushes the file system holding `dir` (syncfs): the end of a batch of writes.
void sync_file_system(const std::filesystem::path& dir);

// Creates `dir` and its parents when missing; an error if it exists as something else.
void make_directories(const std::filesystem::path& dir);

// Removes the temporary files write_file_atomic left in `dir` when its process was killed
// mid-write: those older than 10 minutes (a write takes milliseconds, and another cfuzz on
// the same directory may be writing right now). Best effort: errors are ignored.
void remove_stale_temporary_files(const std::filesystem::path& dir);

// For tests of what a full or read-only disk does: CFUZZ_TEST_WRITE_FAULT=ERRNO:PREFIX (an
// errno name: ENOSPC, EROFS, EACCES, EDQUOT, EIO) makes every write of a file whose path
// starts with PREFIX fail with that error after half of its bytes, as a disk that fills up
// mid-write does, and the making of directories there at once. Read at each write.

// (The files of a corpus directory, without write_file_atomic's temporary files, are
// corpus::list_corpus_files in corpus_format/corpus_dir.h.)

}  // namespace cfuzz::driver
