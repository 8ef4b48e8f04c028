#include "libfuzzdriver/shared_memory.h"

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

SharedMemory::~SharedMemory() {
  if (base_ != nullptr && base_ != MAP_FAILED) munmap(base_, geometry_.total_size);
  if (fd_ >= 0) close(fd_);
}

}  // namespace cfuzz::driver
