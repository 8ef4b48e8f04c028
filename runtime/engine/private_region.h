// The input areas of an engine that runs in the target's own process (the libFuzzer-style
// front end; the engine's unit test): the shared-memory layout (core/shm_layout.h) in
// private memory, sized for the coverage registered so far, with the execution state's
// phase and failure record pointing into its header, as a worker's point into the region
// its coordinator shares.
#pragma once

#include <cstdint>

#include "core/shm_layout.h"
#include "runtime/engine/engine_namespace.h"

namespace fuzzer::cfuzz {

// Throws std::string (the front end's error type) when the memory cannot be had.
core::ShmView map_private_region(std::uint64_t slot_capacity, std::uint32_t values, core::ShmGeometry* geometry);

}  // namespace fuzzer::cfuzz
