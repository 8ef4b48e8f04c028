#include "libfuzzdriver/worker/shared_memory.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

namespace cfuzz::driver {

SharedMemory::SharedMemory(std::uint64_t slot_capacity, std::uint32_t values, std::uint64_t counters)
    : geometry_(core::shm_geometry(slot_capacity, values, counters)) {
  fd_ = memfd_create("cfuzz-worker", MFD_CLOEXEC);
  if (fd_ < 0) throw std::runtime_error(std::string("memfd_create: ") + std::strerror(errno));
  // The file is sparse: only the pages a worker touches take memory.
  if (ftruncate(fd_, static_cast<off_t>(geometry_.total_size)) != 0) {
    int e = errno;
    close(fd_);
    throw std::runtime_error(std::string("cannot size shared memory: ") + std::strerror(e));
  }
  base_ = mmap(nullptr, geometry_.total_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
  if (base_ == MAP_FAILED) {
    int e = errno;
    close(fd_);
    throw std::runtime_error(std::string("cannot map shared memory: ") + std::strerror(e));
  }
  core::shm_init_header(base_, geometry_);
}

bool SharedMemory::layout_intact() const {
  core::ShmView view(base_, geometry_);
  for (core::InputAreaHeader* a : {&view.base(), &view.current(), &view.best(), &view.splice()}) {
    if (a->slot_capacity != geometry_.slot_capacity) return false;
  }
  const auto* h = static_cast<const core::ShmHeader*>(base_);
  return h->magic == core::kShmMagic && h->version == core::kShmVersion && h->header_size == sizeof(core::ShmHeader) &&
         h->total_size == geometry_.total_size && h->base_offset == geometry_.base_offset &&
         h->current_offset == geometry_.current_offset && h->best_offset == geometry_.best_offset &&
         h->splice_offset == geometry_.splice_offset && h->input_area_size == geometry_.input_area_size &&
         h->mask_offset == geometry_.mask_offset && h->snapshot_offset == geometry_.snapshot_offset &&
         h->counters_capacity == geometry_.counters_capacity && h->batch_offset == geometry_.batch_offset &&
         h->batch_size == geometry_.batch_size && h->features_offset == geometry_.features_offset &&
         h->features_size == geometry_.features_size;
}

SharedMemory::~SharedMemory() {
  if (base_ != nullptr && base_ != MAP_FAILED) munmap(base_, geometry_.total_size);
  if (fd_ >= 0) close(fd_);
}

}  // namespace cfuzz::driver
