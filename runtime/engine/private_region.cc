#include "runtime/engine/private_region.h"

#include <sys/mman.h>

#include <string>

#include "runtime/engine/coverage_registry.h"
#include "runtime/failure/crash_handler.h"

namespace fuzzer::cfuzz {

core::ShmView map_private_region(std::uint64_t slot_capacity, std::uint32_t values, core::ShmGeometry* geometry) {
  const auto& cov = coverage_registry();
  *geometry = core::shm_geometry(slot_capacity, values, cov.total_counters);
  void* p = mmap(nullptr, geometry->total_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::string("cannot map the input areas");
  core::shm_init_header(p, *geometry);
  core::ShmView shm(p, *geometry);
  shm.header().counters_len = cov.total_counters;
  ExecutionState& st = execution_state();
  st.phase = &shm.header().phase;
  st.record = &shm.header().failure;
  return shm;
}

}  // namespace fuzzer::cfuzz
