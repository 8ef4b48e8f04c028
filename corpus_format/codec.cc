// Whole corpus files: the header, the split into lines, line numbers in errors, and the
// type check against a fuzz function's parameters. Single lines are value_line.cc's job.
#include "corpus_format/codec.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>

#include "corpus_format/go_quote.h"
#include "corpus_format/go_utf8.h"
#include "corpus_format/value_line.h"

namespace cfuzz::corpus {

Entry decode(std::string_view text, std::string_view filename) {
  const std::string file(filename);
  const std::string header_hint = "expected the header line \"" + std::string(kHeader) + "\"";
  if (text.empty()) throw CorpusError(file, 1, "file is empty; " + header_hint);

  // Go splits on '\n' only; a '\r' before it is white space to the value lines, and the
  // header may end in exactly one.
  std::size_t newline = text.find('\n');
  std::string_view header = text.substr(0, newline);
  if (!header.empty() && header.back() == '\r') header.remove_suffix(1);
  if (header != kHeader) {
    throw CorpusError(file, 1, header_hint + ", got " + go_quote_short(header, 40));
  }
  if (newline == std::string_view::npos) {
    throw CorpusError(file, 1, "the header line must end with a newline");
  }

  Entry entry;
  int line_number = 1;
  while (newline != std::string_view::npos) {
    const std::size_t start = newline + 1;
    newline = text.find('\n', start);
    ++line_number;
    const std::string_view line =
        go_trim_space(text.substr(start, newline == std::string_view::npos ? std::string_view::npos : newline - start));
    if (line.empty()) continue;
    ValueLineResult parsed = parse_value_line(line);
    if (!parsed.value) throw CorpusError(file, line_number, parsed.error);
    entry.push_back(std::move(*parsed.value));
  }
  return entry;
}

std::string encode(const Entry& entry) {
  if (entry.empty()) {
    throw std::invalid_argument("cannot encode a corpus entry with no values");
  }
  std::string out(kHeader);
  out.push_back('\n');
  for (const Value& v : entry) {
    out += format_value_line(v);
    out.push_back('\n');
  }
  return out;
}

void check_types(const Entry& entry, const std::vector<Type>& want, std::string_view filename) {
  if (entry.size() != want.size()) {
    throw CorpusError(std::string(filename), 0,
                      "wrong number of values in corpus entry: " + std::to_string(entry.size()) + ", want " +
                          std::to_string(want.size()));
  }
  const std::vector<Type> got = types_of(entry);
  if (got != want) {
    throw CorpusError(
        std::string(filename), 0,
        "mismatched types in corpus entry: " + format_type_list(got) + ", want " + format_type_list(want));
  }
}

Entry read_file(const std::string& path) {
  // Plain system calls rather than the coordinator's file helpers: this code is also linked
  // into fuzz targets through the runtime. One read usually takes a whole corpus file.
  errno = 0;
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw CorpusError(path, 0, std::string("cannot open: ") + std::strerror(errno));
  std::string text;
  char buf[1 << 14];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int err = errno;
      ::close(fd);
      throw CorpusError(path, 0, std::string("cannot read: ") + std::strerror(err));
    }
    if (n == 0) break;
    text.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return decode(text, path);
}

}  // namespace cfuzz::corpus
