#include "runtime/engine/test_body.h"

#include <exception>

namespace fuzzer::cfuzz {

std::unique_ptr<detail::TestState> run_test_body(const RegisteredTest& test) {
  auto state = std::make_unique<detail::TestState>(test.name, /*is_input=*/false);
  F& f = state->f();
  std::string file = test.file;
  if (auto slash = file.rfind('/'); slash != std::string::npos) file.erase(0, slash + 1);
  std::string where = test.line > 0 ? file + ":" + std::to_string(test.line) : file;
  try {
    test.body(f);
  } catch (const detail::Stop&) {
  } catch (const std::exception& e) {
    state->record_at(where, "uncaught exception " + detail::current_exception_type() + ": " + e.what(), true);
  } catch (...) {
    state->record_at(where, "uncaught exception " + detail::current_exception_type(), true);
  }
  if (!state->failed() && !state->skipped() && !state->fuzz_function().has_value()) {
    state->record_at(where, test.name + " returned without calling f.fuzz, f.fail or f.skip", true);
  }
  if (state->failed() || state->skipped()) state->fuzz_function().reset();
  return state;
}

std::string body_failure(const detail::TestState& f) {
  std::string log = f.format_log(0);
  while (!log.empty() && log.back() == '\n') log.pop_back();
  if (log.empty()) return f.skipped() ? "skipped" : "failed";
  return log;
}

}  // namespace fuzzer::cfuzz
