// One worker's shared-memory region (core/shm_layout.h): an anonymous memfd, mapped here
// and handed to the worker as fd 5. It has no name, so nothing is left in /dev/shm
// whatever happens to either process, and it outlives worker restarts.
#pragma once

#include <cstdint>

#include "core/shm_layout.h"

namespace cfuzz::driver {

class SharedMemory {
 public:
  // Sized for entries of `values` values of up to `slot_capacity` bytes each, and a
  // target with `counters` coverage counters.
  SharedMemory(std::uint64_t slot_capacity, std::uint32_t values, std::uint64_t counters);
  ~SharedMemory();
  SharedMemory(const SharedMemory&) = delete;
  SharedMemory& operator=(const SharedMemory&) = delete;

  int fd() const { return fd_; }
  core::ShmView view() const { return core::ShmView(base_, geometry_); }
  core::ShmHeader& header() const { return view().header(); }
  // Puts the layout back as it was made (core::shm_restore_layout).
  void restore_layout() { core::shm_restore_layout(base_, geometry_); }
  bool layout_intact() const;
  std::uint64_t slot_capacity() const { return geometry_.slot_capacity; }
  // The size of each input area, from the coordinator's own geometry: what bounds the
  // values read back from an area, whatever a target may have scribbled in its header.
  std::uint64_t input_area_size() const { return geometry_.input_area_size; }

 private:
  int fd_ = -1;
  void* base_ = nullptr;
  core::ShmGeometry geometry_;
};

}  // namespace cfuzz::driver
