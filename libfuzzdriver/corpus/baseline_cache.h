// What earlier runs of the same binary measured in their baselines: each corpus entry's
// coverage features, so that a second run on a big cache need not run every entry again
// before it fuzzes (libFuzzer and Go re-run the whole corpus at every start).
//
//   <cache dir of the target>/<FuzzName>.baseline
//
// beside the test's corpus directory, like the stats file. It holds the identity of the
// binary it was measured with (the XXH3-128 of the file's bytes): another binary, even the
// same source rebuilt, has other counters, and its baseline starts from nothing. Entries are
// keyed by the XXH3-64 of their v1 text, so an entry whose file changed is not matched.
//
// Binary, little-endian: "cfuzz-baseline-1\n", the identity as 32 hex digits and "\n", then
// per entry the key (8 bytes), the number of features (4) and the features (4 each:
// counter * 8 + hit-count bucket bit). A file that does not read as that is ignored.
//
// The file may be anyone's (a shared cache): it is read through no symbolic link and up to
// kBaselineFileLimit bytes, and only the entries the caller asks for are kept.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace cfuzz::driver {

// A bigger baseline file (about a million entries of 60 features) is ignored.
inline constexpr std::uint64_t kBaselineFileLimit = std::uint64_t{256} << 20;

class BaselineCache {
 public:
  // Which entries to keep of a file: those of the corpus at hand.
  using Wanted = std::function<bool(std::uint64_t key)>;

  // The identity of the binary at `path` counting `counters` coverage counters: the hash of
  // its contents, seeded with the count (the same binary counts more with its value
  // profile on). Empty when unreadable.
  static std::string binary_identity(const std::string& path, std::uint64_t counters = 0);
  static std::string path_for(const std::string& test_cache_dir);
  static std::uint64_t key_of(const std::string& encoded_entry);

  // The cache at `path` when it was written for `identity`; else an empty one. With
  // `wanted`, only the entries it accepts are kept.
  static BaselineCache load(const std::string& path, const std::string& identity, const Wanted& wanted = {});
  // The same, from the file's bytes.
  static BaselineCache parse(std::string_view data, const std::string& identity, const Wanted& wanted = {});

  const std::vector<std::uint32_t>* find(std::uint64_t key) const;
  void put(std::uint64_t key, const std::vector<std::uint32_t>& features);
  std::size_t size() const { return features_.size(); }
  std::vector<std::uint64_t> keys() const;
  // Whether entries were added or changed since it was loaded or last written.
  bool changed() const { return changed_; }
  void mark_written() { changed_ = false; }

  // Writes it atomically for `identity`, to `path` below the cache root `root` (no symbolic
  // link below `root` is followed, nor replaced at `path`). Throws FileError when it cannot.
  void save(const std::string& root, const std::string& path, const std::string& identity) const;
  // The file's bytes for `identity`, holding only the entries of `keys` it knows (a run
  // keeps only its corpus's entries); and their atomic write, as save does. Apart, so that
  // a caller can take the bytes under its lock and write them outside it.
  std::string serialize(const std::string& identity, const std::vector<std::uint64_t>& keys) const;
  static void write(const std::string& root, const std::string& path, const std::string& bytes);

 private:
  std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> features_;
  bool changed_ = false;
};

}  // namespace cfuzz::driver
