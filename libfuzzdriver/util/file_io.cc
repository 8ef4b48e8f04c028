#include "libfuzzdriver/util/file_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <random>
#include <system_error>
#include <utility>

#include "corpus_format/corpus_dir.h"

namespace cfuzz::driver {

namespace {

std::string describe_errno(int err) { return std::strerror(err); }

[[noreturn]] void fail(std::string_view verb, const std::filesystem::path& path, int err) {
  throw FileError("cannot " + std::string(verb) + " " + path.string() + ": " + describe_errno(err), err);
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

// CFUZZ_TEST_WRITE_FAULT (file_io.h): the error, and the paths it hits.
struct WriteFault {
  int err = 0;
  std::string prefix;
};

// Parsed at each write (a rare event next to the write itself), so that a test can set it.
WriteFault write_fault() {
  WriteFault f;
  const char* spec = std::getenv("CFUZZ_TEST_WRITE_FAULT");
  if (spec == nullptr) return f;
  std::string_view s = spec;
  auto colon = s.find(':');
  if (colon == std::string_view::npos) return f;
  static constexpr std::pair<std::string_view, int> kNames[] = {
      {"ENOSPC", ENOSPC}, {"EROFS", EROFS}, {"EACCES", EACCES}, {"EDQUOT", EDQUOT}, {"EIO", EIO}};
  for (const auto& [name, err] : kNames) {
    if (s.substr(0, colon) == name) f.err = err;
  }
  f.prefix = s.substr(colon + 1);
  return f;
}

// The injected error for a write of `path`; 0 when none.
int injected_fault(const std::filesystem::path& path) {
  const WriteFault f = write_fault();
  if (f.err == 0 || f.prefix.empty() || !path.string().starts_with(f.prefix)) return 0;
  return f.err;
}

int write_all(int fd, std::string_view data, int fault = 0) {
  if (fault != 0) {  // half of it lands, as on a disk that fills up mid-write
    data = data.substr(0, data.size() / 2);
  }
  while (!data.empty()) {
    const ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return fault;
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

std::string read_untrusted_file(const std::filesystem::path& path, std::uint64_t limit) {
  Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW));
  if (fd.get() < 0 && errno == ELOOP) {
    throw FileError("cannot read " + path.string() + ": it is a symbolic link, not followed", ELOOP);
  }
  if (fd.get() < 0) fail("read", path, errno);
  struct stat st;
  if (::fstat(fd.get(), &st) != 0) fail("read", path, errno);
  if (!S_ISREG(st.st_mode)) throw FileError("cannot read " + path.string() + ": not a regular file");
  auto too_big = [&](std::uint64_t size) {
    return FileError("cannot read " + path.string() + ": " + std::to_string(size) + " bytes, over the limit of " +
                         std::to_string(limit),
                     EFBIG);
  };
  if (static_cast<std::uint64_t>(st.st_size) > limit) throw too_big(static_cast<std::uint64_t>(st.st_size));
  // Read up to one byte past the limit: a file that grew since fstat is caught, not followed.
  std::string data(static_cast<std::size_t>(st.st_size), '\0');
  std::size_t got = 0;
  for (;;) {
    if (got == data.size()) {
      if (got > limit) throw too_big(got);
      data.resize(std::min<std::uint64_t>(limit + 1, std::max<std::uint64_t>(got * 2, got + 4096)));
    }
    const ssize_t n = ::read(fd.get(), data.data() + got, data.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail("read", path, errno);
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  if (got > limit) throw too_big(got);
  data.resize(got);
  return data;
}

bool is_storage_refusal(int err) {
  return err == ENOSPC || err == EDQUOT || err == EROFS || err == EACCES || err == EPERM;
}

namespace {

// A new file of a batch in one directory operation: an unnamed file (O_TMPFILE) linked into
// place once it is complete. False when that cannot be done (the name exists, or the file
// system has no O_TMPFILE); then the caller writes a named temporary file and renames it.
bool link_new_file(int dir_fd, const std::string& name, std::string_view data, int fault) {
  Fd fd(::openat(dir_fd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666));
  if (fd.get() < 0) return false;
  if (write_all(fd.get(), data, fault) != 0) return false;
  // Linking a descriptor by itself (AT_EMPTY_PATH) needs a capability; its /proc path not.
  // linkat never replaces what is at `name`, a symbolic link included.
  std::string self = "/proc/self/fd/" + std::to_string(fd.get());
  return ::linkat(AT_FDCWD, self.c_str(), dir_fd, name.c_str(), AT_SYMLINK_FOLLOW) == 0;
}

[[noreturn]] void refuse_link(const std::filesystem::path& path) {
  throw FileError("cannot write " + path.string() + ": it is a symbolic link, not written through", ELOOP);
}

}  // namespace

Directory::~Directory() {
  if (fd_ >= 0) ::close(fd_);
}

Directory Directory::open(const std::filesystem::path& dir) {
  const std::filesystem::path shown = dir.empty() ? "." : dir;
  int fd = ::open(shown.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) fail("open directory", shown, errno);
  return Directory(fd, dir);  // empty stays empty: the files' names are shown as given
}

namespace {

// "a/b/" and "a//b" as "a/b", so that one path is compared with another part by part.
std::filesystem::path normal(const std::filesystem::path& p) {
  std::filesystem::path n = p.lexically_normal();
  return n.has_filename() || n == n.root_path() ? n : n.parent_path();
}

}  // namespace

Directory Directory::open_below(const std::filesystem::path& root, const std::filesystem::path& dir, bool create) {
  std::filesystem::path rel = normal(dir).lexically_relative(normal(root));
  if (rel.empty() || *rel.begin() == "..") {
    throw FileError("cannot use " + dir.string() + ": it is not inside " + root.string());
  }
  if (create) make_directories(root);
  Directory at = open(root);
  std::filesystem::path path = at.path();
  for (const auto& part : rel) {
    if (part == ".") continue;
    path /= part;
    int fd = ::openat(at.fd(), part.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT && create) {
      if (int fault = injected_fault(path); fault != 0) fail("create directory", path, fault);
      if (::mkdirat(at.fd(), part.c_str(), 0777) != 0 && errno != EEXIST) fail("create directory", path, errno);
      fd = ::openat(at.fd(), part.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    }
    if (fd < 0) {
      // O_NOFOLLOW on a link gives ELOOP, O_DIRECTORY on one ENOTDIR: say which it was.
      struct stat st;
      if (::fstatat(at.fd(), part.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode)) {
        throw FileError("cannot use " + path.string() + ": it is a symbolic link, not followed", ELOOP);
      }
      fail("open directory", path, errno);
    }
    at = Directory(fd, path);
  }
  return at;
}

void Directory::write_file_atomic(const std::string& name, std::string_view data, Durability durability) const {
  const std::filesystem::path path = path_ / name;
  struct stat st;
  if (::fstatat(fd_, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode)) refuse_link(path);
  const int fault = injected_fault(path);
  if (durability == Durability::WithBatch && link_new_file(fd_, name, data, fault)) return;
  std::string temp;
  int fd_value = -1;
  // O_EXCL on a fresh random name: never clobbers another writer's temporary file, and
  // never opens a link someone put there.
  for (int attempt = 0; attempt < 100 && fd_value < 0; ++attempt) {
    temp = "." + name + std::string(corpus::kTempFileMarker) + random_suffix();
    fd_value = ::openat(fd_, temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd_value < 0 && errno != EEXIST) fail("write", path, errno);
  }
  if (fd_value < 0) fail("write", path, EEXIST);
  Fd fd(fd_value);

  const bool now = durability == Durability::Now;
  int err = write_all(fd.get(), data, fault);
  if (err == 0 && now && ::fsync(fd.get()) != 0) err = errno;
  if (err == 0) err = fd.close();
  // A link put in place since the check above is replaced by the rename, not followed.
  if (err == 0 && ::renameat(fd_, temp.c_str(), fd_, name.c_str()) != 0) err = errno;
  if (err != 0) {
    ::unlinkat(fd_, temp.c_str(), 0);
    fail("write", path, err);
  }
  // Make the rename itself durable. Some file systems cannot fsync a directory; the
  // file is complete and in place either way, so that is not worth failing over.
  if (now) ::fsync(fd_);
}

void Directory::append(const std::string& name, std::string_view data) const {
  const std::filesystem::path path = path_ / name;
  // O_NONBLOCK: a FIFO put there would otherwise block the run until someone reads it.
  Fd fd(::openat(fd_, name.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644));
  if (fd.get() < 0 && errno == ELOOP) refuse_link(path);
  if (fd.get() < 0) fail("write", path, errno);
  struct stat st;
  if (::fstat(fd.get(), &st) != 0) fail("write", path, errno);
  if (!S_ISREG(st.st_mode)) throw FileError("cannot write " + path.string() + ": not a regular file", EINVAL);
  // A second name of a file elsewhere (a hard link) would be written through as a link is.
  if (st.st_nlink != 1) {
    throw FileError("cannot write " + path.string() + ": it has other names (hard links), not written through", ELOOP);
  }
  const int fault = injected_fault(path);
  std::size_t written = 0;
  int err = 0;
  std::string_view rest = fault != 0 ? data.substr(0, data.size() / 2) : data;
  while (!rest.empty()) {
    const ssize_t n = ::write(fd.get(), rest.data(), rest.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      err = errno;
      break;
    }
    written += static_cast<std::size_t>(n);
    rest.remove_prefix(static_cast<std::size_t>(n));
  }
  if (err == 0) err = fault;
  if (err != 0) {
    // Take back what landed: a torn record would glue itself to the next one.
    off_t end = ::lseek(fd.get(), 0, SEEK_END);
    if (written > 0 && end >= static_cast<off_t>(written)) {
      end -= static_cast<off_t>(written);
      if (::ftruncate(fd.get(), end) != 0) end = -1;  // readers skip a torn line
    }
    // A file this write made, still empty, goes too: no empty file is left behind.
    struct stat now;
    if (end == 0 && ::fstatat(fd_, name.c_str(), &now, AT_SYMLINK_NOFOLLOW) == 0 && now.st_ino == st.st_ino &&
        now.st_size == 0) {
      ::unlinkat(fd_, name.c_str(), 0);
    }
    fail("write", path, err);
  }
}

void write_file_atomic(const std::filesystem::path& path, std::string_view data, Durability durability) {
  Directory::open(path.parent_path()).write_file_atomic(path.filename().string(), data, durability);
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
