// The shared-memory region between the coordinator and one worker.
//
// One region per worker, created by the coordinator (a memfd, so nothing is left behind in
// /dev/shm), passed to the worker as fd 5 and mapped by both. It outlives worker restarts.
// The JSON-RPC messages on the pipes stay small: inputs, coverage and failure details
// travel here. The layout is plain fixed-width data, identical in both processes.
//
//   [ShmHeader][base input][current input][best input][splice input][mask][snapshot]
//   [batch inputs][batch features]
//
// Recovering a crashing input needs no replay: the worker mutates the `current` area in
// place and executes exactly what is there, bumping `exec_count` and setting `phase` to
// Executing around the target call. Whatever kills the process, the coordinator finds the
// input that was running in `current`.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "core/failure_record.h"

namespace cfuzz::core {

inline constexpr std::uint64_t kShmMagic = 0x314d48535a554643ULL;  // "CFUZSHM1"
inline constexpr std::uint32_t kShmVersion = 2;
// Most parameters a fuzz function may take; far more than Go's own tests use.
inline constexpr std::uint32_t kMaxValues = 32;

// Where the worker is, as seen from outside. Death while Executing is the input's fault.
enum class Phase : std::uint32_t {
  Idle = 0,       // between calls, or running its own code
  Executing = 1,  // inside the fuzz function with the `current` input
};

// One typed value of an input. Byte values ([]byte, string) keep their bytes in the slot's
// data area; scalars keep their bits here (integers sign- or zero-extended to 64 bits,
// floats as their IEEE-754 bit pattern).
struct SlotHeader {
  std::uint8_t type;  // cfuzz::corpus::Type
  std::uint8_t reserved[7];
  std::uint64_t len;   // byte length for []byte and string, 0 for scalars
  std::uint64_t bits;  // scalar payload
};
static_assert(sizeof(SlotHeader) == 24);

// An input area: the typed values of one corpus entry. Slot i's bytes live at
// `data_offset + i * slot_capacity` from the start of the area.
struct InputAreaHeader {
  std::uint32_t count;  // number of values
  std::uint32_t reserved;
  std::uint64_t slot_capacity;  // bytes available to each byte value
  SlotHeader slots[kMaxValues];
};
inline constexpr std::uint64_t kInputDataOffset = sizeof(InputAreaHeader);

inline constexpr std::uint64_t input_area_size(std::uint64_t slot_capacity, std::uint32_t count) {
  return kInputDataOffset + slot_capacity * count;
}

// Progress of the in-worker minimizer, so that the coordinator can resume it in a fresh
// worker after a candidate killed the old one.
struct MinimizeProgress {
  std::uint32_t active;  // 1 while a minimize call is running
  std::uint32_t reserved;
  std::uint64_t state[6];    // core::MinimizerState, serialized
  std::uint64_t candidates;  // candidates tried in this call
};

struct ShmHeader {
  std::uint64_t magic;
  std::uint32_t version;
  std::uint32_t header_size;
  std::uint64_t total_size;

  // Area offsets from the start of the mapping, fixed when the region is created.
  std::uint64_t base_offset;      // coordinator → worker: the entry to fuzz, run or minimize
  std::uint64_t current_offset;   // worker: the input being (or last) executed
  std::uint64_t best_offset;      // worker: the smallest qualifying input while minimizing
  std::uint64_t splice_offset;    // coordinator → worker: another corpus entry for crossover
  std::uint64_t input_area_size;  // size of each of the four input areas
  std::uint64_t mask_offset;      // coordinator → worker: coverage seen so far
  std::uint64_t snapshot_offset;  // worker → coordinator: bucketed counters of one execution
  std::uint64_t counters_capacity;
  std::uint64_t batch_offset;  // coordinator → worker: the packed inputs of an exec_batch call
  std::uint64_t batch_size;
  std::uint64_t features_offset;  // worker → coordinator: the features of each input it ran
  std::uint64_t features_size;

  // Written by the worker.
  std::uint64_t counters_len;  // 8-bit counters in the target (all modules)
  std::uint64_t rng_state;     // PRNG state at the start of the current mutation chain
  std::uint64_t rng_inc;
  std::atomic<std::uint64_t> exec_count;  // executions in the current call
  std::atomic<std::uint32_t> phase;       // Phase
  std::uint32_t reserved;
  FailureRecord failure;
  MinimizeProgress minimize;
};
static_assert(std::atomic<std::uint64_t>::is_always_lock_free);
static_assert(std::atomic<std::uint32_t>::is_always_lock_free);

// Offsets and sizes of every area for a region sized for `values` values of up to
// `slot_capacity` bytes and `counters` coverage counters.
struct ShmGeometry {
  std::uint64_t slot_capacity;
  std::uint32_t values;
  std::uint64_t input_area_size;
  std::uint64_t base_offset, current_offset, best_offset, splice_offset;
  std::uint64_t mask_offset, snapshot_offset, counters_capacity;
  std::uint64_t batch_offset, batch_size, features_offset, features_size;
  std::uint64_t total_size;
};
// Bytes of packed inputs one exec_batch call carries at most (core/exec_batch.h); the
// features area holds at least this much too, and always one input's worth.
inline constexpr std::uint64_t kBatchAreaSize = 256 * 1024;
ShmGeometry shm_geometry(std::uint64_t slot_capacity, std::uint32_t values, std::uint64_t counters);

// Writes a fresh header for `g` into a zeroed region.
void shm_init_header(void* region, const ShmGeometry& g);
// Writes the layout fields of the header and each input area's slot capacity again, as `g`
// has them, leaving what the worker reported: the coordinator does it before every call,
// so that nothing a target wrote over the layout outlives the call.
void shm_restore_layout(void* region, const ShmGeometry& g);

// Typed access to a mapped region; both sides use it. It checks nothing, and it reads the
// area offsets once, when it is made: the worker makes it after validating the header
// (shm_header_valid), the coordinator from the geometry it laid the region out with, so
// that neither follows an offset the target may have written over later.
class ShmView {
 public:
  explicit ShmView(void* base) : ShmView(base, geometry_of(*static_cast<const ShmHeader*>(base))) {}
  ShmView(void* base, const ShmGeometry& g)
      : base_(static_cast<std::uint8_t*>(base)),
        base_offset_(g.base_offset),
        area_size_(g.input_area_size),
        mask_offset_(g.mask_offset),
        snapshot_offset_(g.snapshot_offset),
        batch_offset_(g.batch_offset),
        batch_size_(g.batch_size),
        features_offset_(g.features_offset),
        features_size_(g.features_size) {}

  ShmHeader& header() const { return *reinterpret_cast<ShmHeader*>(base_); }
  InputAreaHeader& base() const { return area(base_offset_); }
  InputAreaHeader& current() const { return area(base_offset_ + area_size_); }
  InputAreaHeader& best() const { return area(base_offset_ + 2 * area_size_); }
  InputAreaHeader& splice() const { return area(base_offset_ + 3 * area_size_); }
  std::uint8_t* mask() const { return base_ + mask_offset_; }
  std::uint8_t* snapshot() const { return base_ + snapshot_offset_; }
  // Only through a view made from a geometry, or from a header shm_header_valid passed.
  std::uint8_t* batch() const { return base_ + batch_offset_; }
  std::uint64_t batch_size() const { return batch_size_; }
  std::uint8_t* features() const { return base_ + features_offset_; }
  std::uint64_t features_size() const { return features_size_; }

  static std::uint8_t* slot_data(InputAreaHeader& a, std::uint32_t i) {
    return reinterpret_cast<std::uint8_t*>(&a) + kInputDataOffset + i * a.slot_capacity;
  }
  static const std::uint8_t* slot_data(const InputAreaHeader& a, std::uint32_t i) {
    return reinterpret_cast<const std::uint8_t*>(&a) + kInputDataOffset + i * a.slot_capacity;
  }

 private:
  // The geometry a header describes (the four input areas follow one another, as
  // shm_geometry lays them out and shm_header_valid checks).
  static ShmGeometry geometry_of(const ShmHeader& h);
  InputAreaHeader& area(std::uint64_t offset) const { return *reinterpret_cast<InputAreaHeader*>(base_ + offset); }
  std::uint8_t* base_;
  std::uint64_t base_offset_, area_size_, mask_offset_, snapshot_offset_;
  std::uint64_t batch_offset_, batch_size_, features_offset_, features_size_;
};

// Checks magic, version and that every area lies inside `mapped_size`.
bool shm_header_valid(const void* region, std::uint64_t mapped_size);

// Copies the values of one area into another with the same slot capacity.
void copy_input_area(const InputAreaHeader& from, InputAreaHeader& to);

}  // namespace cfuzz::core
