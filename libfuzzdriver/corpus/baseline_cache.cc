#include "libfuzzdriver/corpus/baseline_cache.h"

#include <cstdio>
#include <cstring>
#include <filesystem>

#include <xxhash.h>

#include "libfuzzdriver/util/file_io.h"

namespace cfuzz::driver {

namespace {

constexpr char kMagic[] = "cfuzz-baseline-1\n";
constexpr std::size_t kMagicSize = sizeof kMagic - 1;
constexpr std::size_t kIdentitySize = 32;

template <typename T>
bool take(std::string_view data, std::size_t& at, T* out) {
  if (data.size() - at < sizeof(T)) return false;
  std::memcpy(out, data.data() + at, sizeof(T));
  at += sizeof(T);
  return true;
}

template <typename T>
void put_raw(std::string& out, T v) {
  out.append(reinterpret_cast<const char*>(&v), sizeof v);
}

}  // namespace

std::string BaselineCache::binary_identity(const std::string& path, std::uint64_t counters) {
  std::string bytes;
  try {
    bytes = read_file_bytes(path);
  } catch (const std::exception&) {
    return {};
  }
  XXH128_hash_t h = XXH3_128bits_withSeed(bytes.data(), bytes.size(), counters);
  char buf[kIdentitySize + 1];
  std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(h.high64),
                static_cast<unsigned long long>(h.low64));
  return buf;
}

std::string BaselineCache::path_for(const std::string& test_cache_dir) {
  std::string dir = test_cache_dir;
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  return dir + ".baseline";
}

std::uint64_t BaselineCache::key_of(const std::string& encoded_entry) {
  return XXH3_64bits(encoded_entry.data(), encoded_entry.size());
}

BaselineCache BaselineCache::load(const std::string& path, const std::string& identity, const Wanted& wanted) {
  if (identity.size() != kIdentitySize) return BaselineCache{};
  std::string data;
  try {
    data = read_untrusted_file(path, kBaselineFileLimit);
  } catch (const std::exception&) {
    return BaselineCache{};  // missing, a link, too big
  }
  return parse(data, identity, wanted);
}

BaselineCache BaselineCache::parse(std::string_view data, const std::string& identity, const Wanted& wanted) {
  BaselineCache cache;
  if (identity.size() != kIdentitySize || data.size() < kMagicSize + kIdentitySize + 1 ||
      data.compare(0, kMagicSize, kMagic) != 0 || data.compare(kMagicSize, kIdentitySize, identity) != 0 ||
      data[kMagicSize + kIdentitySize] != '\n') {
    return cache;  // another binary's, or not a baseline file at all
  }
  std::size_t at = kMagicSize + kIdentitySize + 1;
  while (at < data.size()) {
    std::uint64_t key = 0;
    std::uint32_t n = 0;
    if (!take(data, at, &key) || !take(data, at, &n) || (data.size() - at) / 4 < n) return BaselineCache{};
    if (!wanted || wanted(key)) {
      std::vector<std::uint32_t> features(n);
      if (n != 0) std::memcpy(features.data(), data.data() + at, std::size_t{n} * 4);
      cache.features_[key] = std::move(features);
    }
    at += std::size_t{n} * 4;
  }
  return cache;
}

const std::vector<std::uint32_t>* BaselineCache::find(std::uint64_t key) const {
  auto it = features_.find(key);
  return it == features_.end() ? nullptr : &it->second;
}

void BaselineCache::put(std::uint64_t key, const std::vector<std::uint32_t>& features) {
  auto [it, inserted] = features_.try_emplace(key, features);
  if (!inserted && it->second != features) it->second = features;
  changed_ = changed_ || inserted;
}

std::vector<std::uint64_t> BaselineCache::keys() const {
  std::vector<std::uint64_t> out;
  out.reserve(features_.size());
  for (const auto& [key, features] : features_) out.push_back(key);
  return out;
}

void BaselineCache::save(const std::string& root, const std::string& path, const std::string& identity) const {
  write(root, path, serialize(identity, keys()));
}

std::string BaselineCache::serialize(const std::string& identity, const std::vector<std::uint64_t>& keys) const {
  std::string out = kMagic + identity + "\n";
  for (std::uint64_t key : keys) {
    const std::vector<std::uint32_t>* features = find(key);
    if (features == nullptr) continue;
    put_raw(out, key);
    put_raw(out, static_cast<std::uint32_t>(features->size()));
    out.append(reinterpret_cast<const char*>(features->data()), features->size() * 4);
  }
  return out;
}

void BaselineCache::write(const std::string& root, const std::string& path, const std::string& bytes) {
  std::filesystem::path p(path);
  Directory::open_below(root, p.parent_path(), /*create=*/true).write_file_atomic(p.filename().string(), bytes);
}

}  // namespace cfuzz::driver
