#include "libfuzzdriver/cache_dir.h"

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

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
#include "libfuzzdriver/content_name.h"
#include "libfuzzdriver/file_io.h"
#include "libfuzzdriver/parallel_for.h"

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

std::string cache_dir_for(const std::string& cachedir_flag, const std::string& target_abs_path,
                          const std::string& test) {
  return target_cache_dir(cachedir_flag, target_abs_path) + "/" + test;
}

CacheContents load_cache(const std::string& dir, const std::vector<corpus::Type>& types,
                         const std::vector<std::string>& shapes) {
  CacheContents c;
  c.skipped = read_cache(dir, types, shapes, [&](CachedEntry&& e) { c.entries.push_back(std::move(e)); });
  return c;
}

std::vector<std::string> read_cache(const std::string& dir, const std::vector<corpus::Type>& types,
                                    const std::vector<std::string>& shapes,
                                    const std::function<void(CachedEntry&&)>& take,
                                    const std::function<void(std::size_t)>& files) {
  std::vector<std::string> skipped;
  std::error_code ec;
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
  std::string prefix = dir + "/";
  for (std::size_t start = 0; start < names.size(); start += kSlice) {
    std::size_t n = std::min(kSlice, names.size() - start);
    parallel_for(n, [&](std::size_t i) {
      std::string path = prefix + names[start + i];
      try {
        corpus::Entry e = corpus::read_file(path);
        corpus::check_types(e, types, path);
        core::check_shapes(e, shapes, path);
        keys[i] = core::entry_key(e);
        read[i] = std::move(e);
      } catch (const std::exception& e) {
        errors[i] = e.what();
      }
    });
    for (std::size_t i = 0; i < n; ++i) {
      if (read[i]) {
        take(CachedEntry{std::move(names[start + i]), std::move(*read[i]), keys[i]});
        read[i].reset();
      } else {
        skipped.push_back(std::move(errors[i]));
        errors[i].clear();
      }
    }
  }
  return skipped;
}

std::string save_to_cache(const std::string& dir, const corpus::Entry& entry) {
  std::string text = corpus::encode(entry);
  std::string name = content_name(text);
  make_directories(dir);
  fs::path path = fs::path(dir) / name;
  std::error_code ec;
  if (!fs::exists(path, ec)) write_file_atomic(path, text);
  return name;
}

}  // namespace cfuzz::driver
