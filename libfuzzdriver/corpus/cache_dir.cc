#include "libfuzzdriver/corpus/cache_dir.h"

#include <fcntl.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string_view>

#include <xxhash.h>

#include "core/corpus.h"
#include "core/value_shape.h"
#include "corpus_format/codec.h"
#include "corpus_format/corpus_dir.h"
#include "libfuzzdriver/corpus/content_name.h"
#include "libfuzzdriver/util/file_io.h"
#include "libfuzzdriver/util/parallel_for.h"

namespace cfuzz::driver {

namespace fs = std::filesystem;

std::string default_cache_root() {
  if (const char* c = std::getenv("CFUZZ_CACHE"); c != nullptr && c[0] != '\0') return c;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x != nullptr && x[0] != '\0') {
    return std::string(x) + "/cfuzz";
  }
  if (const char* h = std::getenv("HOME"); h != nullptr && h[0] != '\0') return std::string(h) + "/.cache/cfuzz";
  // No $HOME (a service, `env -i`): the user's home from the password database.
  if (const passwd* pw = getpwuid(getuid());
      pw != nullptr && pw->pw_dir != nullptr && pw->pw_dir[0] != '\0' && std::string_view(pw->pw_dir) != "/") {
    return std::string(pw->pw_dir) + "/.cache/cfuzz";
  }
  // No home at all: a private directory of this user's in the temporary directory. A shared,
  // predictable name would let another user plant or read corpus files; one that exists
  // and is not this user's own is refused.
  fs::path dir = fs::temp_directory_path() / ("cfuzz-cache-" + std::to_string(getuid()));
  ::mkdir(dir.c_str(), 0700);
  struct stat st;
  if (::lstat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != getuid() || (st.st_mode & 077) != 0) {
    throw std::runtime_error("cache directory " + dir.string() +
                             " is not a private directory of this user's; set --cachedir or CFUZZ_CACHE");
  }
  return dir.string();
}

std::string target_cache_dir(const std::string& cachedir_flag, const std::string& target_abs_path) {
  if (!cachedir_flag.empty()) return cachedir_flag;
  // The path identifies the target across rebuilds; the name keeps the directory readable.
  char hash[17];
  std::snprintf(hash, sizeof hash, "%016llx",
                static_cast<unsigned long long>(XXH3_64bits(target_abs_path.data(), target_abs_path.size())));
  return default_cache_root() + "/" + fs::path(target_abs_path).filename().string() + "-" + std::string(hash, 8);
}

std::string cache_root(const std::string& cachedir_flag) {
  return cachedir_flag.empty() ? default_cache_root() : cachedir_flag;
}

void check_cache_root_owner(const std::string& root, bool shared) {
  if (shared) return;
  if (const char* env = std::getenv(kSharedCacheEnv); env != nullptr && std::string_view(env) == "1") return;
  struct stat st;
  if (::stat(root.c_str(), &st) != 0 || st.st_uid == ::geteuid()) return;  // missing: it will be this user's
  throw std::runtime_error("cache directory " + root + " belongs to another user (uid " + std::to_string(st.st_uid) +
                           "), who controls what cfuzz would read there; if it is shared on purpose, say so with "
                           "--shared-cache (or " +
                           kSharedCacheEnv + "=1)");
}

std::uint64_t cache_entry_limit(std::uint64_t max_len) {
  return std::max(kCacheEntryLimit, max_len * 4 + (std::uint64_t{64} << 10));
}

std::string cache_dir_for(const std::string& cachedir_flag, const std::string& target_abs_path,
                          const std::string& test) {
  return target_cache_dir(cachedir_flag, target_abs_path) + "/" + test;
}

CacheContents load_cache(const std::string& dir, const std::vector<corpus::Type>& types,
                         const std::vector<std::string>& shapes, std::uint64_t limit) {
  CacheContents c;
  c.skipped = read_cache(
      dir, types, shapes, [&](CachedEntry&& e) { c.entries.push_back(std::move(e)); }, {}, limit);
  return c;
}

SkippedFiles read_cache(const std::string& dir, const std::vector<corpus::Type>& types,
                        const std::vector<std::string>& shapes, const std::function<void(CachedEntry&&)>& take,
                        const std::function<void(std::size_t)>& files, std::uint64_t limit) {
  SkippedFiles skipped;
  std::error_code ec;
  // The directory is below the cache root, where a link may be anyone's: a directory of
  // the user's behind it is not read as a corpus.
  if (fs::is_symlink(fs::symlink_status(dir, ec))) {
    skipped.unusable.push_back("cannot read " + dir + ": it is a symbolic link, not followed");
    return skipped;
  }
  if (!fs::is_directory(dir, ec)) return skipped;
  remove_stale_temporary_files(dir);
  std::vector<std::string> names = corpus::list_corpus_file_names(dir);
  if (files) files(names.size());
  // Read and decoded on all CPUs, a slice at a time: the slice's buffers are all this adds
  // to what the caller keeps.
  constexpr std::size_t kSlice = 4096;
  std::vector<std::optional<corpus::Entry>> read(std::min(kSlice, names.size()));
  std::vector<std::uint64_t> keys(read.size());
  std::vector<std::string> errors(read.size());
  std::vector<char> too_large(read.size());
  std::string prefix = dir + "/";
  for (std::size_t start = 0; start < names.size(); start += kSlice) {
    std::size_t n = std::min(kSlice, names.size() - start);
    parallel_for(n, [&](std::size_t i) {
      std::string path = prefix + names[start + i];
      too_large[i] = 0;
      try {
        corpus::Entry e = corpus::decode(read_untrusted_file(path, limit), path);
        corpus::check_types(e, types, path);
        core::check_shapes(e, shapes, path);
        keys[i] = core::entry_key(e);
        read[i] = std::move(e);
      } catch (const FileError& e) {
        errors[i] = e.what();
        too_large[i] = e.error() == EFBIG;
      } catch (const std::exception& e) {
        errors[i] = e.what();
      }
    });
    for (std::size_t i = 0; i < n; ++i) {
      if (read[i]) {
        take(CachedEntry{std::move(names[start + i]), std::move(*read[i]), keys[i]});
        read[i].reset();
      } else {
        (too_large[i] ? skipped.too_large : skipped.unusable).push_back(std::move(errors[i]));
        errors[i].clear();
      }
    }
  }
  return skipped;
}

std::string save_to_cache(const std::string& root, const std::string& dir, const corpus::Entry& entry) {
  std::string text = corpus::encode(entry);
  std::string name = content_name(text);
  Directory d = Directory::open_below(root, dir, /*create=*/true);
  struct stat st;
  // Content-named: a file of that name is this entry already (a link is refused below).
  if (::fstatat(d.fd(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0 || S_ISLNK(st.st_mode)) {
    d.write_file_atomic(name, text);
  }
  return name;
}

}  // namespace cfuzz::driver
