#include "corpus_format/corpus_error.h"

#include <utility>

namespace cfuzz::corpus {

namespace {

// "corpus file F: line N: message", dropping the parts that are unknown.
std::string describe(const std::string& file, int line, const std::string& message) {
  std::string out = file.empty() ? "corpus entry" : "corpus file " + file;
  if (line > 0) out += ": line " + std::to_string(line);
  out += ": ";
  out += message;
  return out;
}

}  // namespace

CorpusError::CorpusError(std::string file, int line, std::string message)
    : std::runtime_error(describe(file, line, message)),
      file_(std::move(file)),
      line_(line),
      message_(std::move(message)) {}

}  // namespace cfuzz::corpus
