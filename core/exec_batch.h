// The inputs and results of one exec_batch call: many corpus entries run in one RPC call.
// The baseline runs every corpus entry once; one call per entry (a request, a response,
// and the worker's decoy descriptors set up and torn down) cost more than the entries.
//
// Both live in shared memory (shm_layout.h), in native byte order:
//
//   batch area (coordinator → worker)
//     [u32 inputs][u32 reserved], then per input [u32 values], then per value
//     [u8 type][u64 byte length, or the scalar's bits][the bytes]
//   features area (worker → coordinator)
//     [u32 done][u32 reserved][u64 bytes used], then per input run [u32 n][n × u32 feature]
//
// The worker copies the inputs out before the first runs (the target may write over shared
// memory), and bumps `done` after each input's features, so the inputs before one that
// killed the worker keep their results.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "corpus_format/value.h"

namespace cfuzz::core {

// Packs entries from the first on, as many as fit in `size` bytes; returns how many.
std::size_t pack_batch(std::uint8_t* area, std::uint64_t size, const std::vector<const corpus::Entry*>& entries);

// The inputs of a batch area; throws CorruptInput (input_area.h) when it is not well formed.
std::vector<corpus::Entry> unpack_batch(const std::uint8_t* area, std::uint64_t size);

// Appends each input's features (Corpus::features_of) to a features area it clears first.
class BatchFeatureWriter {
 public:
  BatchFeatureWriter(std::uint8_t* area, std::uint64_t size);
  // False, writing nothing, when the features do not fit in what is left.
  bool add(const std::vector<std::uint32_t>& features);

 private:
  std::uint8_t* area_;
  std::uint64_t size_;
  std::uint64_t used_;
  std::uint32_t done_ = 0;
};

// The features of the first `done` inputs, at most `most` of them; throws CorruptInput when
// the area is not well formed or says more inputs ran than were sent.
std::vector<std::vector<std::uint32_t>> read_batch_features(const std::uint8_t* area, std::uint64_t size,
                                                            std::size_t most);

}  // namespace cfuzz::core
