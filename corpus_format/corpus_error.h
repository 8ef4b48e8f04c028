// The one error type of the codec: what was wrong, and where (file and line) when known.
#pragma once

#include <stdexcept>
#include <string>

namespace cfuzz::corpus {

class CorpusError : public std::runtime_error {
 public:
  // `file` may be empty (bytes that did not come from a file); `line` is 1-based, 0 when
  // the error is about the file as a whole.
  CorpusError(std::string file, int line, std::string message);

  const std::string& file() const { return file_; }
  int line() const { return line_; }
  // The bare description, without the "file: line N: " prefix that what() carries.
  const std::string& message() const { return message_; }

 private:
  std::string file_;
  int line_;
  std::string message_;
};

}  // namespace cfuzz::corpus
