// Input minimization as a resumable sequence of candidates.
//
// The steps are Go's (design doc 001), applied to every value of an entry in turn:
// cut exponentially smaller tails, remove single bytes, remove ranges, replace
// non-printable bytes with printable ones; and beyond Go: cut heads too, keep strings that
// were valid UTF-8 valid (removing whole runes), and shrink numbers towards zero. A typed
// value (a []byte holding an encoding, core/value_shape.h) is minimized by its structure
// instead: first its canonical form, then part by part (an element dropped, an optional
// emptied, a string emptied, a number zeroed), so it stays canonical and readable. A pass
// that improved anything is followed by another, up to a few.
//
// The minimizer does not run anything: it proposes a candidate, is told whether the
// candidate still qualifies (fails the same way, or keeps the coverage), and moves on.
// Its position is a small POD state, which the worker publishes in shared memory before
// every candidate, so that when a candidate kills the worker the coordinator can start a
// new worker exactly where the old one stopped.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/value_shape.h"
#include "corpus_format/value.h"

namespace cfuzz::core {

struct MinimizerState {
  std::uint64_t pass = 0;
  std::uint64_t value = 0;  // index of the value being minimized
  std::uint64_t stage = 0;
  std::uint64_t a = 0, b = 0;  // stage-specific positions
  std::uint64_t improved = 0;  // something shrank during this pass

  std::array<std::uint64_t, 6> pack() const { return {pass, value, stage, a, b, improved}; }
  static MinimizerState unpack(const std::uint64_t (&w)[6]) {
    return MinimizerState{w[0], w[1], w[2], w[3], w[4], w[5]};
  }
};

class Minimizer {
 public:
  explicit Minimizer(corpus::Entry start, MinimizerState state = {});
  // The shapes of typed values ("" for others), as the fuzz function has them. Set it
  // before the first next(), and the same on a resume.
  void set_shapes(const std::vector<std::string>& shapes);

  // Writes the next candidate (a changed copy of best()) and returns true, or returns
  // false when minimization is complete.
  bool next(corpus::Entry* candidate);
  // The verdict on the last candidate from next(): if it qualified it becomes best().
  // After a resume, the verdict on the candidate that was running when the worker died
  // (with `start` already being that candidate if it qualified).
  void report(bool qualified);

  const corpus::Entry& best() const { return best_; }
  const MinimizerState& state() const { return state_; }

 private:
  bool candidate_for_state(corpus::Entry* out);
  bool bytes_candidate(corpus::Entry* out);
  bool number_candidate(corpus::Entry* out);
  bool typed_candidate(corpus::Entry* out);
  const ValueShape* shape_of(std::uint64_t value) const;
  std::uint64_t first_stage(std::uint64_t value) const;
  void advance(bool qualified);
  void next_stage();

  corpus::Entry best_;
  corpus::Entry pending_;
  bool has_pending_ = false;
  MinimizerState state_;
  std::vector<std::optional<ValueShape>> shapes_;
  std::vector<std::uint8_t> work_;
  std::vector<ValuePart> parts_;
};

}  // namespace cfuzz::core
