#include "libfuzzdriver/corpus/corpus_tools.h"

#include <bit>
#include <cstdio>
#include <exception>
#include <map>
#include <set>
#include <system_error>

#include "corpus_format/codec.h"
#include "corpus_format/corpus_dir.h"
#include "corpus_format/go_quote.h"
#include "libfuzzdriver/corpus/content_name.h"
#include "libfuzzdriver/util/file_io.h"
#include "libfuzzdriver/util/parallel_for.h"

namespace cfuzz::driver {

namespace {

using corpus::Type;

corpus::Entry read_entry(const std::filesystem::path& path) {
  // Our own reader for the I/O errors, the codec for the content, so both kinds of
  // error name the file.
  return corpus::decode(read_file_bytes(path), path.string());
}

bool same_file(const std::filesystem::path& a, const std::filesystem::path& b) {
  std::error_code ec;
  return std::filesystem::equivalent(a, b, ec) && !ec;
}

// Writes `data` to `path` unless it already holds exactly that; durable with the batch.
bool write_if_changed(const std::filesystem::path& path, std::string_view data) {
  std::error_code ec;
  if (std::filesystem::is_regular_file(path, ec)) {
    try {
      if (read_file_bytes(path) == data) return false;
    } catch (const FileError&) {
      // Unreadable: fall through and replace it.
    }
  }
  write_file_atomic(path, data, Durability::WithBatch);
  return true;
}

std::string v1_type_name(const corpus::Value& v) {
  switch (corpus::type_of(v)) {
    case Type::Bytes: return "[]byte";
    case Type::Byte: return "byte";
    case Type::Rune: {
      const std::int32_t r = std::get<std::int32_t>(v);
      return r >= 0 && r <= 0x10FFFF && !(r >= 0xD800 && r <= 0xDFFF) ? "rune" : "int32";
    }
    default: return std::string(corpus::go_type_name(corpus::type_of(v)));
  }
}

std::string show_bytes(std::string_view bytes, const ShowOptions& options) {
  const std::size_t size = bytes.size();
  std::string size_note = std::to_string(size) + (size == 1 ? " byte" : " bytes");
  if (options.max_bytes != 0 && size > options.max_bytes) {
    return corpus::go_quote(bytes.substr(0, options.max_bytes)) + "... (" + size_note + ", first " +
           std::to_string(options.max_bytes) + " shown)";
  }
  return corpus::go_quote(bytes) + " (" + size_note + ")";
}

std::string show_value(const corpus::Value& v, const ShowOptions& options) {
  char buf[64];
  switch (corpus::type_of(v)) {
    case Type::Bytes: {
      const auto& b = std::get<corpus::Bytes>(v);
      return show_bytes(std::string_view(reinterpret_cast<const char*>(b.data()), b.size()), options);
    }
    case Type::String: return show_bytes(std::get<std::string>(v), options);
    case Type::Bool: return std::get<bool>(v) ? "true" : "false";
    case Type::Byte: {
      const std::uint8_t b = std::get<std::uint8_t>(v);
      return corpus::go_quote_rune(b) + " (" + std::to_string(b) + ")";
    }
    case Type::Rune: {
      const std::int32_t r = std::get<std::int32_t>(v);
      if (v1_type_name(v) == "rune") {
        std::snprintf(buf, sizeof buf, " (U+%04X)", static_cast<unsigned>(r));
        return corpus::go_quote_rune(static_cast<char32_t>(r)) + buf;
      }
      return std::to_string(r) + " (not a valid Unicode code point)";
    }
    case Type::Int: return std::to_string(std::get<corpus::GoInt>(v));
    case Type::Int8: return std::to_string(std::get<std::int8_t>(v));
    case Type::Int16: return std::to_string(std::get<std::int16_t>(v));
    case Type::Int64: return std::to_string(std::get<std::int64_t>(v));
    case Type::Uint: return std::to_string(std::get<corpus::GoUint>(v));
    case Type::Uint16: return std::to_string(std::get<std::uint16_t>(v));
    case Type::Uint32: return std::to_string(std::get<std::uint32_t>(v));
    case Type::Uint64: return std::to_string(std::get<std::uint64_t>(v));
    case Type::Float32: {
      const float f = std::get<float>(v);
      std::string s = corpus::go_format_float32(f);
      if (f != f) {
        std::snprintf(buf, sizeof buf, " (bits 0x%08x)", std::bit_cast<std::uint32_t>(f));
        s += buf;
      }
      return s;
    }
    case Type::Float64: {
      const double f = std::get<double>(v);
      std::string s = corpus::go_format_float64(f);
      if (f != f) {
        std::snprintf(buf, sizeof buf, " (bits 0x%016llx)",
                      static_cast<unsigned long long>(std::bit_cast<std::uint64_t>(f)));
        s += buf;
      }
      return s;
    }
  }
  return {};
}

}  // namespace

std::vector<ConvertedFile> convert_bin_to_v1(const std::vector<std::filesystem::path>& inputs,
                                             const std::filesystem::path& out_dir, Type type) {
  if (type != Type::Bytes && type != Type::String) {
    throw CorpusToolError("bin2v1 writes []byte or string values, not " + std::string(corpus::go_type_name(type)));
  }
  make_directories(out_dir);
  // Read and encode in parallel; of inputs with the same content only the first writes (as
  // a loop would: the later ones find the file already holding it); then write in
  // parallel, and flush once.
  std::vector<ConvertedFile> converted(inputs.size());
  std::vector<std::string> encoded(inputs.size());
  parallel_for(inputs.size(), [&](std::size_t i) {
    std::string raw = read_file_bytes(inputs[i]);
    const std::size_t size = raw.size();
    corpus::Entry entry;
    if (type == Type::Bytes) {
      entry.emplace_back(corpus::Bytes(raw.begin(), raw.end()));
    } else {
      entry.emplace_back(std::move(raw));
    }
    encoded[i] = corpus::encode(entry);
    converted[i] = {inputs[i], out_dir / content_name(encoded[i]), size, false};
  });
  std::set<std::filesystem::path> first;
  std::vector<bool> writes(inputs.size());
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    writes[i] = first.insert(converted[i].output).second;
    converted[i].unchanged = !writes[i];
  }
  parallel_for(inputs.size(), [&](std::size_t i) {
    if (writes[i]) converted[i].unchanged = !write_if_changed(converted[i].output, encoded[i]);
  });
  sync_file_system(out_dir);
  return converted;
}

std::vector<ConvertedFile> convert_v1_to_bin(const std::vector<std::filesystem::path>& inputs,
                                             const std::filesystem::path& out_dir) {
  struct Pending {
    std::filesystem::path input;
    std::filesystem::path output;
    std::string data;
  };
  // Read in parallel, check in order (the first bad input is the one reported), write in
  // parallel, flush once.
  std::vector<corpus::Entry> entries(inputs.size());
  std::vector<std::exception_ptr> unreadable(inputs.size());
  parallel_for(inputs.size(), [&](std::size_t i) {
    try {
      entries[i] = read_entry(inputs[i]);
    } catch (...) {
      unreadable[i] = std::current_exception();  // reported in order, below
    }
  });
  std::vector<Pending> pending;
  std::map<std::filesystem::path, std::filesystem::path> by_name;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (unreadable[i]) std::rethrow_exception(unreadable[i]);
    const std::filesystem::path& input = inputs[i];
    const corpus::Entry& entry = entries[i];
    if (entry.size() != 1 || (corpus::type_of(entry[0]) != Type::Bytes && corpus::type_of(entry[0]) != Type::String)) {
      throw CorpusToolError("corpus file " + input.string() + ": v12bin needs an entry holding exactly one " +
                            "[]byte or string value, but it holds " + std::to_string(entry.size()) +
                            (entry.size() == 1 ? " value " : " values ") +
                            corpus::format_type_list(corpus::types_of(entry)));
    }
    const std::filesystem::path name = input.filename();
    if (auto [it, fresh] = by_name.emplace(name, input); !fresh) {
      throw CorpusToolError("v12bin names each raw file after its entry, but " + it->second.string() + " and " +
                            input.string() + " are both called " + name.string());
    }
    std::string data;
    if (const auto* b = std::get_if<corpus::Bytes>(&entry[0])) {
      data.assign(b->begin(), b->end());
    } else {
      data = std::get<std::string>(entry[0]);
    }
    pending.push_back({input, out_dir / name, std::move(data)});
  }
  make_directories(out_dir);
  for (const auto& p : pending) {
    if (same_file(p.input, p.output)) {
      throw CorpusToolError("v12bin would overwrite its input " + p.input.string() +
                            "; choose another output directory");
    }
  }
  std::vector<ConvertedFile> converted(pending.size());
  parallel_for(pending.size(), [&](std::size_t i) {
    const Pending& p = pending[i];
    converted[i] = {p.input, p.output, p.data.size(), !write_if_changed(p.output, p.data)};
  });
  sync_file_system(out_dir);
  return converted;
}

std::string show_entry(const corpus::Entry& entry, const ShowOptions& options) {
  std::string out;
  if (entry.empty()) return "  (no values)\n";
  for (std::size_t i = 0; i < entry.size(); ++i) {
    out += "  " + std::to_string(i) + ": " + v1_type_name(entry[i]) + " " + show_value(entry[i], options) + "\n";
  }
  return out;
}

std::string show_file(const std::filesystem::path& path, const ShowOptions& options) {
  return path.string() + ":\n" + show_entry(read_entry(path), options);
}

std::vector<std::filesystem::path> expand_corpus_paths(const std::vector<std::filesystem::path>& paths) {
  std::vector<std::filesystem::path> files;
  for (const auto& p : paths) {
    std::error_code ec;
    if (std::filesystem::is_directory(p, ec)) {
      for (auto& f : corpus::list_corpus_files(p)) files.push_back(std::move(f));
    } else {
      files.push_back(p);
    }
  }
  return files;
}

FormatResult format_corpus(const std::vector<std::filesystem::path>& paths, bool check_only) {
  FormatResult result;
  // Decode everything before rewriting anything, so a malformed entry stops the run with
  // no file half-way through being formatted.
  std::vector<std::string> rewrites;
  for (const auto& path : expand_corpus_paths(paths)) {
    const std::string bytes = read_file_bytes(path);
    const corpus::Entry entry = corpus::decode(bytes, path.string());
    if (entry.empty()) {
      throw corpus::CorpusError(path.string(), 0,
                                "the entry has no values (a corpus entry holds one value per "
                                "fuzz argument), so it has no canonical form");
    }
    result.checked.push_back(path);
    std::string canonical = corpus::encode(entry);
    if (canonical == bytes) continue;
    result.non_canonical.push_back(path);
    rewrites.push_back(std::move(canonical));
  }
  if (!check_only) {
    for (std::size_t i = 0; i < rewrites.size(); ++i) {
      write_file_atomic(result.non_canonical[i], rewrites[i]);
    }
  }
  return result;
}

}  // namespace cfuzz::driver
