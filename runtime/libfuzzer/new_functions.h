// libFuzzer's NEW_FUNC lines (-print_funcs): when an input that joins the corpus reaches a
// function no earlier input reached, the front end names it under the NEW line's figures,
//
//   \tNEW_FUNC[1/2]: 0x55d3c0a1 in parse_header(unsigned char const*) /src/parse.cc:12
//
// at most -print_funcs of them per input, "[i/total]" counting all that input's new
// functions. A function is known by its entry block's counter: SanitizerCoverage's PC table
// marks that block (flags bit 0). As libFuzzer: the seeds' functions are noted without a
// line (libFuzzer turns the lines on once its seeds have run), the address printed is the
// entry block's plus one (the "next instruction" its symbolizer expects), and the name and
// line come from the sanitizers' symbolizer (__sanitizer_symbolize_pc, which clang's UBSan
// runtime in every coverage build has too), so only a binary without any sanitizer runtime
// prints the address alone.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/engine/engine_namespace.h"

namespace fuzzer::cfuzz {

class NewFunctions {
 public:
  // Reads the modules' PC tables (coverage_registry()); `print_at_most` is -print_funcs.
  explicit NewFunctions(std::size_t print_at_most);

  // The lines for the functions whose entry counter is set in `counters` (bucketed counters
  // in the global order of the coverage registry, `n` of them) and that no earlier call saw.
  // With `quiet` (the seeds) they are noted and no line is made.
  std::vector<std::string> observe(const std::uint8_t* counters, std::size_t n, bool quiet);

 private:
  struct Entry {
    std::size_t counter;  // index into the global counters
    std::uintptr_t pc;
    bool seen;
  };
  std::vector<Entry> entries_;
  std::size_t print_at_most_;
};

}  // namespace fuzzer::cfuzz
