#include "core/shm_layout.h"

#include <algorithm>
#include <cstring>

namespace cfuzz::core {

namespace {

constexpr std::uint64_t kAlign = 4096;
constexpr std::uint64_t align_up(std::uint64_t v) { return (v + kAlign - 1) / kAlign * kAlign; }

}  // namespace

ShmGeometry shm_geometry(std::uint64_t slot_capacity, std::uint32_t values, std::uint64_t counters) {
  ShmGeometry g{};
  g.slot_capacity = slot_capacity;
  g.values = values == 0 ? 1 : values;
  g.input_area_size = align_up(input_area_size(slot_capacity, values == 0 ? 1 : values));
  g.base_offset = align_up(sizeof(ShmHeader));
  g.current_offset = g.base_offset + g.input_area_size;
  g.best_offset = g.current_offset + g.input_area_size;
  g.splice_offset = g.best_offset + g.input_area_size;
  g.counters_capacity = align_up(counters == 0 ? 1 : counters);
  g.mask_offset = g.splice_offset + g.input_area_size;
  g.snapshot_offset = g.mask_offset + g.counters_capacity;
  g.batch_offset = g.snapshot_offset + g.counters_capacity;
  g.batch_size = kBatchAreaSize;
  // A bucketed snapshot has at most one feature per counter, so one input's features
  // always fit (exec_batch.h).
  g.features_offset = g.batch_offset + g.batch_size;
  g.features_size = std::max(kBatchAreaSize, align_up(64 + 4 * g.counters_capacity));
  g.total_size = g.features_offset + g.features_size;
  return g;
}

ShmGeometry ShmView::geometry_of(const ShmHeader& h) {
  ShmGeometry g{};
  g.input_area_size = h.input_area_size;
  g.base_offset = h.base_offset;
  g.current_offset = h.current_offset;
  g.best_offset = h.best_offset;
  g.splice_offset = h.splice_offset;
  g.mask_offset = h.mask_offset;
  g.snapshot_offset = h.snapshot_offset;
  g.counters_capacity = h.counters_capacity;
  g.batch_offset = h.batch_offset;
  g.batch_size = h.batch_size;
  g.features_offset = h.features_offset;
  g.features_size = h.features_size;
  g.total_size = h.total_size;
  return g;
}

void shm_init_header(void* region, const ShmGeometry& g) {
  new (region) ShmHeader{};
  for (InputAreaHeader* a : {&ShmView(region, g).base(), &ShmView(region, g).current(), &ShmView(region, g).best(),
                             &ShmView(region, g).splice()}) {
    a->count = 0;
  }
  shm_restore_layout(region, g);
}

void shm_restore_layout(void* region, const ShmGeometry& g) {
  auto* h = static_cast<ShmHeader*>(region);
  h->magic = kShmMagic;
  h->version = kShmVersion;
  h->header_size = sizeof(ShmHeader);
  h->total_size = g.total_size;
  h->base_offset = g.base_offset;
  h->current_offset = g.current_offset;
  h->best_offset = g.best_offset;
  h->splice_offset = g.splice_offset;
  h->input_area_size = g.input_area_size;
  h->mask_offset = g.mask_offset;
  h->snapshot_offset = g.snapshot_offset;
  h->counters_capacity = g.counters_capacity;
  h->batch_offset = g.batch_offset;
  h->batch_size = g.batch_size;
  h->features_offset = g.features_offset;
  h->features_size = g.features_size;
  ShmView view(region, g);
  for (InputAreaHeader* a : {&view.base(), &view.current(), &view.best(), &view.splice()}) {
    a->slot_capacity = g.slot_capacity;
  }
}

bool shm_header_valid(const void* region, std::uint64_t mapped_size) {
  if (mapped_size < sizeof(ShmHeader)) return false;
  const auto* h = static_cast<const ShmHeader*>(region);
  if (h->magic != kShmMagic || h->version != kShmVersion || h->header_size != sizeof(ShmHeader)) {
    return false;
  }
  if (h->total_size > mapped_size) return false;
  auto inside = [&](std::uint64_t offset, std::uint64_t size) {
    return offset <= h->total_size && size <= h->total_size - offset;
  };
  // The areas follow one another after the header, as shm_geometry lays them out; each
  // input area holds at least its own header.
  if (h->input_area_size < kInputDataOffset || h->base_offset < sizeof(ShmHeader) ||
      h->current_offset != h->base_offset + h->input_area_size ||
      h->best_offset != h->current_offset + h->input_area_size ||
      h->splice_offset != h->best_offset + h->input_area_size ||
      h->mask_offset != h->splice_offset + h->input_area_size ||
      h->snapshot_offset != h->mask_offset + h->counters_capacity ||
      h->batch_offset != h->snapshot_offset + h->counters_capacity ||
      h->features_offset != h->batch_offset + h->batch_size) {
    return false;
  }
  return inside(h->base_offset, h->input_area_size) && inside(h->current_offset, h->input_area_size) &&
         inside(h->best_offset, h->input_area_size) && inside(h->splice_offset, h->input_area_size) &&
         inside(h->mask_offset, h->counters_capacity) && inside(h->snapshot_offset, h->counters_capacity) &&
         inside(h->batch_offset, h->batch_size) && inside(h->features_offset, h->features_size) &&
         h->counters_len <= h->counters_capacity;
}

void copy_input_area(const InputAreaHeader& from, InputAreaHeader& to) {
  to.count = from.count;
  for (std::uint32_t i = 0; i < from.count; ++i) {
    to.slots[i] = from.slots[i];
    if (from.slots[i].len != 0) {
      std::memcpy(ShmView::slot_data(to, i), ShmView::slot_data(const_cast<InputAreaHeader&>(from), i),
                  from.slots[i].len);
    }
  }
}

}  // namespace cfuzz::core
