// The namespace of the runtime's code: fuzzer::cfuzz, spelled cfuzz::runtime by callers.
//
// While a fuzz function runs, every frame below it (main, the front end, the engine, the
// executor) is the runtime's. ClusterFuzz names a crash by the top three frames of its stack
// that are not on its ignore list, and that list drops the fuzzing engine's frames by the
// prefix of libFuzzer's namespace, `fuzzer::`. In that namespace, the runtime's frames are
// dropped the same way: a bug one frame deep gets the crash state libFuzzer's build of the
// same harness gets, not one filled up with the engine's frames (docs/oss-fuzz.md).
#pragma once

namespace cfuzz {}

namespace fuzzer::cfuzz {
// The runtime is written as if inside ::cfuzz: core::, corpus::, detail::, T, F.
using namespace ::cfuzz;
}  // namespace fuzzer::cfuzz

namespace cfuzz {
namespace runtime = ::fuzzer::cfuzz;
}  // namespace cfuzz
