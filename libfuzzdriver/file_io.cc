#include "libfuzzdriver/file_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <random>
#include <system_error>

#include "corpus_format/corpus_dir.h"

namespace cfuzz::driver {

namespace {

std::string describe_errno(int err) { return std::strerror(err); }

[[noreturn]] void fail(std::string_view verb, const std::filesystem::path& path, int err) {
  throw FileError("cannot " + std::string(verb) + " " + path.string() + ": " + describe_errno(err));
}

// Closes a descriptor on every path out of a scope unless released.
class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }
  // Closes now and reports the error close() gives (a delayed write error, on NFS).
  int close() {
    const int fd = fd_;
    fd_ = -1;
    return ::close(fd) == 0 ? 0 : errno;
  }

 private:
  int fd_;
};

std::string random_suffix() {
  thread_local std::mt19937_64 rng{std::random_device{}() ^ (static_cast<std::uint64_t>(::getpid()) << 32)};
  static constexpr char kDigits[] = "0123456789abcdef";
  std::uint64_t x = rng();
  std::string s;
  for (int i = 0; i < 12; ++i, x >>= 4) s.push_back(kDigits[x & 0xF]);
  return s;
}

int write_all(int fd, std::string_view data) {
  while (!data.empty()) {
    const ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return 0;
}

}  // namespace

std::string read_file_bytes(const std::filesystem::path& path) {
  // O_NONBLOCK: opening a FIFO with no writer would otherwise wait forever; such files are
  // refused below, and regular files ignore the flag.
  Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (fd.get() < 0) fail("read", path, errno);
  struct stat st;
  if (::fstat(fd.get(), &st) != 0) fail("read", path, errno);
  if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
    throw FileError("cannot read " + path.string() + ": not a regular file");
  }
  // A regular file ignores O_NONBLOCK. Its size is known: read that much, without a last
  // read to find the end (a corpus of 100k small files pays one system call per read).
  std::string data;
  if (S_ISREG(st.st_mode) && st.st_size > 0) {
    data.resize(static_cast<std::size_t>(st.st_size));
    std::size_t got = 0;
    while (got < data.size()) {
      const ssize_t n = ::read(fd.get(), data.data() + got, data.size() - got);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) fail("read", path, errno);
      if (n == 0) break;  // it shrank meanwhile
      got += static_cast<std::size_t>(n);
    }
    data.resize(got);
    return data;
  }
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd.get(), buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("read", path, errno);  // EISDIR lands here for a directory
    }
    if (n == 0) break;
    data.append(buf, static_cast<std::size_t>(n));
  }
  return data;
}

namespace {

// A new file of a batch in one directory operation: an unnamed file (O_TMPFILE) linked into
// place once it is complete. False when that cannot be done (the name exists, or the file
// system has no O_TMPFILE); then the caller writes a named temporary file and renames it.
bool link_new_file(const std::filesystem::path& dir, const std::filesystem::path& path, std::string_view data) {
  Fd fd(::open(dir.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666));
  if (fd.get() < 0) return false;
  if (write_all(fd.get(), data) != 0) return false;
  // Linking a descriptor by itself (AT_EMPTY_PATH) needs a capability; its /proc path not.
  std::string self = "/proc/self/fd/" + std::to_string(fd.get());
  return ::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, path.c_str(), AT_SYMLINK_FOLLOW) == 0;
}

}  // namespace

void write_file_atomic(const std::filesystem::path& path, std::string_view data, Durability durability) {
  const std::filesystem::path dir = path.has_parent_path() ? path.parent_path() : ".";
  if (durability == Durability::WithBatch && link_new_file(dir, path, data)) return;
  std::filesystem::path temp;
  int fd_value = -1;
  // O_EXCL on a fresh random name: never clobbers another writer's temporary file.
  for (int attempt = 0; attempt < 100 && fd_value < 0; ++attempt) {
    temp = dir / ("." + path.filename().string() + std::string(corpus::kTempFileMarker) + random_suffix());
    fd_value = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd_value < 0 && errno != EEXIST) fail("write", path, errno);
  }
  if (fd_value < 0) fail("write", path, EEXIST);
  Fd fd(fd_value);

  const bool now = durability == Durability::Now;
  int err = write_all(fd.get(), data);
  if (err == 0 && now && ::fsync(fd.get()) != 0) err = errno;
  if (err == 0) err = fd.close();
  if (err == 0 && ::rename(temp.c_str(), path.c_str()) != 0) err = errno;
  if (err != 0) {
    ::unlink(temp.c_str());
    fail("write", path, err);
  }
  if (!now) return;
  // Make the rename itself durable. Some file systems cannot fsync a directory; the
  // file is complete and in place either way, so that is not worth failing over.
  Fd dir_fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (dir_fd.get() >= 0) ::fsync(dir_fd.get());
}

void sync_file_system(const std::filesystem::path& dir) {
  Fd fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (fd.get() < 0 || ::syncfs(fd.get()) != 0) ::sync();
}

void remove_stale_temporary_files(const std::filesystem::path& dir) {
  constexpr auto kStale = std::chrono::minutes(10);
  std::error_code ec;
  auto now = std::filesystem::file_time_type::clock::now();
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (!corpus::is_temporary_file_name(entry.path().filename().string())) continue;
    if (!entry.is_regular_file(ec)) continue;
    auto written = entry.last_write_time(ec);
    if (!ec && now - written > kStale) std::filesystem::remove(entry.path(), ec);
  }
}

void make_directories(const std::filesystem::path& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    throw FileError("cannot create directory " + dir.string() + ": " + ec.message());
  }
  if (!std::filesystem::is_directory(dir, ec)) {
    throw FileError("cannot use " + dir.string() + " as a directory: it is not one");
  }
}

}  // namespace cfuzz::driver
