#include "core/exec_batch.h"

#include <cstring>
#include <string>

#include "core/input_area.h"
#include "core/shm_layout.h"

namespace cfuzz::core {

namespace {

constexpr std::uint64_t kBatchHeader = 8;      // u32 inputs, u32 reserved
constexpr std::uint64_t kFeaturesHeader = 16;  // u32 done, u32 reserved, u64 used

template <typename T>
void put(std::uint8_t* area, std::uint64_t& at, T v) {
  std::memcpy(area + at, &v, sizeof v);
  at += sizeof v;
}

// Reads in bounds, or throws.
class Cursor {
 public:
  Cursor(const std::uint8_t* area, std::uint64_t size) : area_(area), size_(size) {}
  template <typename T>
  T get() {
    T v;
    std::memcpy(&v, take(sizeof v), sizeof v);
    return v;
  }
  const std::uint8_t* take(std::uint64_t n) {
    if (n > size_ - at_) throw CorruptInput("shared memory holds a corrupt input batch (runs past its area)");
    const std::uint8_t* p = area_ + at_;
    at_ += n;
    return p;
  }

 private:
  const std::uint8_t* area_;
  std::uint64_t size_;
  std::uint64_t at_ = 0;
};

std::uint64_t packed_size(const corpus::Entry& e) {
  std::uint64_t n = sizeof(std::uint32_t);
  for (const corpus::Value& v : e) {
    auto bytes = byte_value(v);
    n += 1 + sizeof(std::uint64_t) + (bytes ? bytes->size() : 0);
  }
  return n;
}

}  // namespace

std::size_t pack_batch(std::uint8_t* area, std::uint64_t size, const std::vector<const corpus::Entry*>& entries) {
  if (size < kBatchHeader) return 0;
  std::uint64_t at = kBatchHeader;
  std::uint32_t count = 0;
  for (const corpus::Entry* e : entries) {
    if (e->size() > kMaxValues || packed_size(*e) > size - at) break;
    put(area, at, static_cast<std::uint32_t>(e->size()));
    for (const corpus::Value& v : *e) {
      put(area, at, static_cast<std::uint8_t>(v.index()));
      auto bytes = byte_value(v);
      put(area, at, bytes ? std::uint64_t{bytes->size()} : scalar_bits(v));
      if (bytes && !bytes->empty()) std::memcpy(area + at, bytes->data(), bytes->size());
      at += bytes ? bytes->size() : 0;
    }
    ++count;
  }
  std::uint64_t head = 0;
  put(area, head, count);
  put(area, head, std::uint32_t{0});
  return count;
}

std::vector<corpus::Entry> unpack_batch(const std::uint8_t* area, std::uint64_t size) {
  Cursor in(area, size);
  auto count = in.get<std::uint32_t>();
  in.get<std::uint32_t>();
  std::vector<corpus::Entry> out;
  out.reserve(count < size / 4 ? count : 0);
  for (std::uint32_t i = 0; i < count; ++i) {
    auto values = in.get<std::uint32_t>();
    if (values > kMaxValues) throw CorruptInput("shared memory holds a corrupt input batch (too many values)");
    corpus::Entry e;
    e.reserve(values);
    for (std::uint32_t k = 0; k < values; ++k) {
      auto tag = in.get<std::uint8_t>();
      auto bits = in.get<std::uint64_t>();
      if (tag >= corpus::kTypeCount) throw CorruptInput("shared memory holds a corrupt input batch (bad type tag)");
      auto type = static_cast<corpus::Type>(tag);
      if (type == corpus::Type::Bytes) {
        const std::uint8_t* p = in.take(bits);
        e.emplace_back(corpus::Bytes(p, p + bits));
      } else if (type == corpus::Type::String) {
        e.emplace_back(std::string(reinterpret_cast<const char*>(in.take(bits)), bits));
      } else {
        e.push_back(scalar_from_bits(type, bits));
      }
    }
    out.push_back(std::move(e));
  }
  return out;
}

BatchFeatureWriter::BatchFeatureWriter(std::uint8_t* area, std::uint64_t size)
    : area_(area), size_(size), used_(kFeaturesHeader) {
  std::uint64_t at = 0;
  put(area_, at, std::uint32_t{0});
  put(area_, at, std::uint32_t{0});
  put(area_, at, used_);
}

bool BatchFeatureWriter::add(const std::vector<std::uint32_t>& features) {
  std::uint64_t bytes = 4 * (features.size() + 1);
  if (bytes > size_ - used_) return false;
  std::uint64_t at = used_;
  put(area_, at, static_cast<std::uint32_t>(features.size()));
  if (!features.empty()) std::memcpy(area_ + at, features.data(), 4 * features.size());
  used_ += bytes;
  // The count last: what a worker dying now leaves behind is whole.
  std::uint64_t head = 0;
  put(area_, head, ++done_);
  head = 8;
  put(area_, head, used_);
  return true;
}

std::vector<std::vector<std::uint32_t>> read_batch_features(const std::uint8_t* area, std::uint64_t size,
                                                            std::size_t most) {
  Cursor in(area, size);
  auto done = in.get<std::uint32_t>();
  in.get<std::uint32_t>();
  in.get<std::uint64_t>();
  if (done > most) {
    throw CorruptInput("shared memory holds corrupt batch results (" + std::to_string(done) + " inputs of " +
                       std::to_string(most) + ")");
  }
  std::vector<std::vector<std::uint32_t>> out(done);
  for (auto& features : out) {
    auto n = in.get<std::uint32_t>();
    const std::uint8_t* p = in.take(4ULL * n);  // bounds first: n may be anything
    features.resize(n);
    if (n != 0) std::memcpy(features.data(), p, 4ULL * n);
  }
  return out;
}

}  // namespace cfuzz::core
